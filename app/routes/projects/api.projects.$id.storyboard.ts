import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUserId } from "~/server/auth.server";
import { getProjectStoryboard } from "~/core/projects.server";

// GET /api/projects/{id}/storyboard: the project's storyboard and its cells, or 404.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  return Response.json(await getProjectStoryboard(userId, params.id!));
}
