import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUserId } from "~/server/auth.server";
import { getCurrentProject } from "~/server/projects.server";
import { getStoryboardStatus } from "~/server/storyboard.server";

// GET /api/storyboard-status: not_found, processing, completed or error, with the cell count. Polled every 3 s.
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  return Response.json(await getStoryboardStatus(await getCurrentProject(userId)), { headers: { "Cache-Control": "no-store" } });
}
