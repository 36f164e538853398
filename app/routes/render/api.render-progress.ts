import type { LoaderFunctionArgs } from "@remix-run/node";
import { renderProgressFor } from "~/server/render.server";
import { requestProject } from "~/server/status-request.server";

// GET /api/render-progress: the current project's render progress, polled every 2 s while a render is active
// (the page reads the same answers from /api/progress-events?stage=render when it can).
export async function loader({ request }: LoaderFunctionArgs) {
  return Response.json(await renderProgressFor(await requestProject(request)), { headers: { "Cache-Control": "no-store" } });
}
