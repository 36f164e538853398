// The header's pipeline links in the spec's order, each shown once its gate (computed on the server from
// the current project) is open.
import type { NavigationGates } from "~/server/projects.server";

export type NavLinkItem = { to: string; label: string };

const LINKS: { to: string; label: string; gate: keyof NavigationGates | null }[] = [
  { to: "/create", label: "Create New Video", gate: null },
  { to: "/script", label: "View Script", gate: "script" },
  { to: "/storyboard", label: "View Storyboard", gate: "storyboard" },
  { to: "/music", label: "Add Music", gate: "music" },
  { to: "/render", label: "Render Video", gate: "render" },
  { to: "/upload", label: "Upload", gate: "upload" },
];

/**
 * Screens of stages not built yet (upload): their gates are computed already, but a link
 * to a page that does not exist would only lead to 'Page Not Found'. Remove an entry when its screen lands.
 */
export const SCREENS_NOT_BUILT_YET = new Set(["/upload"]);

export function visibleNavLinks(gates: NavigationGates): NavLinkItem[] {
  return LINKS.filter((link) => (link.gate === null || gates[link.gate]) && !SCREENS_NOT_BUILT_YET.has(link.to)).map(({ to, label }) => ({
    to,
    label,
  }));
}
