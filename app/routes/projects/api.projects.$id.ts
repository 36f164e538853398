import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUserId } from "~/server/auth.server";
import { getProjectDetails } from "~/server/projects.server";

// GET /api/projects/{id}: one of the user's projects (another user's id: 404).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  return Response.json(await getProjectDetails(userId, params.id!));
}
