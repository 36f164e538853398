import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { deleteProject } from "~/server/project-deletion.server";
import { getProjectDetails } from "~/core/projects.server";

// GET /api/projects/{id}: one of the user's projects (another user's id: 404).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  return Response.json(await getProjectDetails(userId, params.id!));
}

// DELETE /api/projects/{id}: stop its workflows, remove its media files and rows (another user's id: 404).
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "DELETE") return methodNotAllowed(["GET", "HEAD", "DELETE"], "Use DELETE to remove a project.");
  const userId = await requireUserId(request);
  return Response.json({ success: true, ...(await deleteProject(userId, params.id!)) });
}
