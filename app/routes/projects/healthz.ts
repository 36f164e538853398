import type { LoaderFunctionArgs } from "@remix-run/node";
import { healthReport } from "~/server/health.server";

// GET /healthz: database, Temporal and worker reachability. ?deep=1 also runs a workflow end to end.
export async function loader({ request }: LoaderFunctionArgs) {
  const deep = new URL(request.url).searchParams.get("deep") === "1";
  const report = await healthReport({ deep });
  return Response.json(report, { status: report.ok ? 200 : 503, headers: { "Cache-Control": "no-store" } });
}
