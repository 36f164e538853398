// The header's pipeline links in the spec's order, each shown once its gate (computed on the server from
// the current project) is open.
import type { NavigationGates } from "~/core/projects.server";

export type NavLinkItem = { to: string; label: string };

const LINKS: { to: string; label: string; gate: keyof NavigationGates | null }[] = [
  { to: "/create", label: "Create New Video", gate: null },
  { to: "/script", label: "View Script", gate: "script" },
  { to: "/storyboard", label: "View Storyboard", gate: "storyboard" },
  { to: "/music", label: "Add Music", gate: "music" },
  { to: "/render", label: "Render Video", gate: "render" },
  { to: "/upload", label: "Upload", gate: "upload" },
];

export function visibleNavLinks(gates: NavigationGates): NavLinkItem[] {
  return LINKS.filter((link) => (link.gate === null || gates[link.gate])).map(({ to, label }) => ({
    to,
    label,
  }));
}
