import type { LoaderFunctionArgs } from "@remix-run/node";
import { jsonError } from "~/server/api.server";
import { getUser } from "~/server/auth.server";
import { healthReport, publicHealth } from "~/server/health.server";
import { isOwner } from "~/core/permissions.server";
import { isLocalCaller } from "~/server/host/web-app.server";

export const DEEP_HEALTH_REFUSED = "The end-to-end check (?deep=1) is only for the owner account or from this machine.";

// GET /healthz: database, Temporal and worker reachability, within 2 s whatever is down. Anyone gets which parts
// are up ({ ok, parts }, 200 or 503); the details (addresses, versions, errors) and ?deep=1 (a workflow end to
// end, one at a time) are for the signed-in owner or a caller on this machine.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const deep = new URL(request.url).searchParams.get("deep") === "1";
  // the session is read from the database: when that is down, the caller is simply not the owner
  const user = await Promise.race([getUser(request).catch(() => null), new Promise<null>((r) => setTimeout(() => r(null), 500))]);
  const trusted = isLocalCaller(context) || Boolean(user && isOwner(user));
  if (deep && !trusted) throw jsonError(403, DEEP_HEALTH_REFUSED);
  const report = await healthReport({ deep });
  const status = report.ok ? 200 : 503;
  return Response.json(trusted ? report : publicHealth(report), { status, headers: { "Cache-Control": "no-store" } });
}
