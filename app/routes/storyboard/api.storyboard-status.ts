import type { LoaderFunctionArgs } from "@remix-run/node";
import { requestProject } from "~/server/status-request.server";
import { getStoryboardStatus } from "~/server/storyboard.server";

// GET /api/storyboard-status: not_found, processing, completed or error, with the cell count. Polled every 3 s
// (the page reads the same answers from /api/progress-events?stage=storyboard while a split runs).
export async function loader({ request }: LoaderFunctionArgs) {
  return Response.json(await getStoryboardStatus(await requestProject(request)), { headers: { "Cache-Control": "no-store" } });
}
