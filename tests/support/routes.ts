// Calls a Remix loader or action directly, the way the server would. A guard's thrown Response
// (401, 403, a redirect) is the answer too, and plain data becomes a 200 JSON answer (as single fetch
// sends it), so tests read every outcome the same way.
import { thrownResponse } from "~/server/json-answer.server";

export async function callRoute(
  fn: (args: never) => unknown,
  request: Request,
  params: Record<string, string> = {},
): Promise<Response> {
  try {
    const result = await fn({ request, params, context: {} } as never);
    return result instanceof Response ? result : Response.json(result);
  } catch (thrown) {
    // as the server does: a thrown Response is the answer, a refusal of the core is said as JSON
    const answer = thrownResponse(thrown);
    if (answer) return answer;
    throw thrown;
  }
}

/** A page's or /api's request at `path` (on http://localhost:3000), with a session cookie when given, through callRoute. */
export function callWith(
  fn: (args: never) => unknown,
  path: string,
  init: RequestInit & { cookie?: string; params?: Record<string, string> } = {},
): Promise<Response> {
  const { cookie, params, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (cookie) headers.set("Cookie", cookie);
  return callRoute(fn, new Request(`http://localhost:3000${path}`, { ...rest, headers }), params);
}

/** Every route in the route config (app/routes.ts): its URL pattern and its module file, so a new route cannot be forgotten. */
export async function listRoutes(): Promise<{ path: string; file: string }[]> {
  const { ROUTE_GROUPS } = await import("~/routes");
  const found: { path: string; file: string }[] = [];
  const route = ((path: string, file: string) => {
    found.push({ path, file });
  }) as unknown as Parameters<(typeof ROUTE_GROUPS)["auth"]>[0];
  for (const group of Object.values(ROUTE_GROUPS)) group(route);
  return found;
}
