import type { ActionFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { setCurrentProject } from "~/core/projects.server";

// POST /api/projects/{id}/open: make this project the current one (the pipeline pages work on it).
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"], "Use POST to open a project.");
  const userId = await requireUserId(request);
  const project = await setCurrentProject(userId, params.id!);
  return Response.json({ id: project.id, title: project.title });
}
