// The signed-in header: sticky, logo (or a placeholder), the pipeline links as their gates open, the
// dashboard icon and Sign Out. Below the md breakpoint everything folds behind a menu toggle.
import { Link, NavLink, useLocation } from "@remix-run/react";
import { useQuery } from "@tanstack/react-query";
import { Clapperboard, LayoutDashboard, Menu, Settings, X } from "lucide-react";
import { useEffect, useState } from "react";
import { apiGet } from "~/lib/api-client";
import { POLLING_MS, SCRIPT_STATUS_KEY } from "~/lib/constants";
import { cn } from "~/lib/utils";
import type { AccessLevel } from "~/lib/subscription";
import type { NavigationGates } from "~/core/projects.server";
import { visibleNavLinks } from "./nav-links";
import { PlanBadge } from "./plan-badge";
import { SignOutButton } from "~/components/auth/sign-out-button";

export type NavigationHeaderProps = {
  logoUrl: string | null;
  gates: NavigationGates;
  hasCurrentProject: boolean;
  accessLevel: AccessLevel;
  selfHosted: boolean;
  userName: string;
};


// The server decides the gates on each navigation; while the script gate is still closed the header also
// polls the script status (spec: every 2 s) so its links appear as soon as generation starts.
function useScriptGate(gates: NavigationGates, hasCurrentProject: boolean): boolean {
  const watch = hasCurrentProject && !gates.script;
  const status = useQuery({
    queryKey: SCRIPT_STATUS_KEY,
    queryFn: () => apiGet<{ status: string }>("/api/script-status"),
    enabled: watch,
    refetchInterval: (query) => (["completed", "processing"].includes(query.state.data?.status ?? "") ? false : POLLING_MS.headerScriptStatus),
  });
  return gates.script || (watch && ["completed", "processing"].includes(status.data?.status ?? ""));
}

const linkClass = ({ isActive }: { isActive: boolean }) =>
  cn("rounded-md px-3 py-2 text-sm font-medium transition-colors hover:bg-slate-800", isActive ? "bg-slate-800 text-white" : "text-slate-300");

export function NavigationHeader({ logoUrl, gates, hasCurrentProject, accessLevel, selfHosted, userName }: NavigationHeaderProps) {
  const [open, setOpen] = useState(false);
  const location = useLocation();
  const scriptOpen = useScriptGate(gates, hasCurrentProject);
  const links = visibleNavLinks({ ...gates, script: scriptOpen, storyboard: scriptOpen || gates.storyboard });

  useEffect(() => setOpen(false), [location.pathname]);

  return (
    <header className="sticky top-0 z-40 border-b border-slate-800 bg-slate-950/90 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4">
        <Link to="/" className="flex shrink-0 items-center gap-2 font-bold" aria-label="Reelsmith home">
          {logoUrl ? (
            <img src={logoUrl} alt="Logo" className="h-9 max-w-[10rem] object-contain" />
          ) : (
            <span className="flex items-center gap-2" data-testid="logo-placeholder">
              <span className="flex h-9 w-9 items-center justify-center rounded-lg bg-brand/20">
                <Clapperboard className="h-5 w-5 text-brand" aria-hidden />
              </span>
              <span className="text-lg">Reelsmith</span>
            </span>
          )}
        </Link>

        <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
          {links.map((link) => (
            <NavLink key={link.to} to={link.to} className={linkClass}>
              {link.label}
            </NavLink>
          ))}
        </nav>

        <div className="hidden items-center gap-2 md:flex">
          <Link to="/subscription" title="Subscription" className="rounded-full focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand">
            <PlanBadge accessLevel={accessLevel} selfHosted={selfHosted} />
          </Link>
          <NavLink
            to="/dashboard"
            aria-label="Dashboard"
            title={`Dashboard (${userName})`}
            className={({ isActive }) => cn("rounded-md p-2 hover:bg-slate-800", isActive ? "bg-slate-800 text-white" : "text-slate-300")}
          >
            <LayoutDashboard className="h-5 w-5" aria-hidden />
          </NavLink>
          <NavLink
            to="/settings"
            aria-label="Settings"
            title="Settings"
            className={({ isActive }) => cn("rounded-md p-2 hover:bg-slate-800", isActive ? "bg-slate-800 text-white" : "text-slate-300")}
          >
            <Settings className="h-5 w-5" aria-hidden />
          </NavLink>
          <SignOutButton icon variant="outline" size="sm" />
        </div>

        <button
          type="button"
          className="rounded-md p-2 text-slate-200 hover:bg-slate-800 md:hidden"
          aria-label={open ? "Close menu" : "Open menu"}
          aria-expanded={open}
          aria-controls="mobile-menu"
          onClick={() => setOpen((o) => !o)}
        >
          {open ? <X className="h-6 w-6" aria-hidden /> : <Menu className="h-6 w-6" aria-hidden />}
        </button>
      </div>

      {open ? (
        <nav id="mobile-menu" aria-label="Mobile" className="grid gap-1 border-t border-slate-800 px-4 py-3 md:hidden">
          {links.map((link) => (
            <NavLink key={link.to} to={link.to} className={linkClass}>
              {link.label}
            </NavLink>
          ))}
          <NavLink to="/dashboard" className={({ isActive }) => cn(linkClass({ isActive }), "flex items-center gap-2")}>
            <LayoutDashboard className="h-4 w-4" aria-hidden /> Dashboard
          </NavLink>
          <NavLink to="/settings" className={({ isActive }) => cn(linkClass({ isActive }), "flex items-center gap-2")}>
            <Settings className="h-4 w-4" aria-hidden /> Settings
          </NavLink>
          <div className="mt-2 flex items-center justify-between gap-2 border-t border-slate-800 pt-3">
            <Link to="/subscription" title="Subscription">
              <PlanBadge accessLevel={accessLevel} selfHosted={selfHosted} />
            </Link>
            <SignOutButton icon variant="outline" size="sm" />
          </div>
        </nav>
      ) : null}
    </header>
  );
}
