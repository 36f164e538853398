// Every route Reelsmith serves, read from the route config (app/routes.ts) the app itself is built from, with
// its module loaded: a route added to any stage's group is in this list, so the security tests cover it
// without anyone remembering to add it.
import routes from "../../app/routes";

export type RouteModule = {
  loader?: (args: never) => unknown;
  action?: (args: never) => unknown;
  default?: unknown;
};
export type ListedRoute = { path: string; file: string; index: boolean; module: RouteModule };

export function listRouteConfig(): { path: string; file: string; index: boolean }[] {
  const listed: { path: string; file: string; index: boolean }[] = [];
  const define = (callback: (route: (path: string | undefined, file: string, options?: { index?: boolean }) => void) => void) => {
    callback((path, file, options) => listed.push({ path: path ?? "", file, index: Boolean(options?.index) }));
    return {};
  };
  routes(define as never);
  return listed;
}

export async function loadRoutes(): Promise<ListedRoute[]> {
  const listed = listRouteConfig();
  return Promise.all(listed.map(async (r) => ({ ...r, module: (await import(/* @vite-ignore */ `../../app/${r.file}`)) as RouteModule })));
}

/** A concrete URL path for a route pattern, with each :param taken from `params` (or a placeholder). */
export function fillPath(pattern: string, params: Record<string, string>): string {
  const path = pattern.replace(/:(\w+)\??/g, (_m, name: string) => encodeURIComponent(params[name] ?? "x")).replace(/\/\*$/, "/anything");
  return path.startsWith("/") ? path : `/${path}`;
}

export function paramNames(pattern: string): string[] {
  return [...pattern.matchAll(/:(\w+)/g)].map((m) => m[1]!);
}
