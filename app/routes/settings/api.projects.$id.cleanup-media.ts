import type { ActionFunctionArgs } from "@remix-run/node";
import { jsonError, methodNotAllowed } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { cleanupProjectMedia, resolveCleanupProject } from "~/server/cleanup.server";

// POST /api/projects/{id}/cleanup-media: deletes the project's voiceover and image files no scene uses.
// The spec's screen sends the fixed id 2, which stands for the caller's current project.
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"], "Use POST to clean up media files.");
  const userId = await requireUserId(request);
  const projectId = await resolveCleanupProject(userId, params.id ?? "");
  if (projectId === undefined) return jsonError(404, "Project not found. You can clean up only your own projects.", { field: "id" });
  const result = await cleanupProjectMedia(userId, projectId);
  return Response.json({ success: true, projectId, result });
}
