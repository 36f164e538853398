import type { LoaderFunctionArgs } from "@remix-run/node";
import { getScriptStatus } from "~/server/script.server";
import { requestProject } from "~/server/status-request.server";

// GET /api/script-status: the current project's script, polled by the header (2 s) and the script page (3 s).
// The page reads the same answers from /api/progress-events?stage=script while a script is being written.
export async function loader({ request }: LoaderFunctionArgs) {
  const status = await getScriptStatus(await requestProject(request));
  return Response.json(status, { headers: { "Cache-Control": "no-store" } });
}
