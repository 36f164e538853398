import type { ActionFunctionArgs } from "@remix-run/node";
import { SceneEditSchema } from "~/lib/scene-edit-schema";
import { methodNotAllowed, parseJsonBody } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { getProjectForUser } from "~/core/projects.server";
import { editScenes } from "~/server/scene-edit.server";

// POST /api/projects/{id}/scenes: { action: "add", at, text } | { action: "delete" | "merge", sceneId } |
// { action: "move", sceneId, to } | { action: "split", sceneId, at } -> { storyboardCells } (issue 33, decision 171).
// One transaction each; another user's project: 404; a bad body: 400 naming the field.
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"], "Use POST to change the storyboard's scenes.");
  const userId = await requireUserId(request);
  // the owner before the body: another creator's id is a 404 whatever was sent (decision 198)
  await getProjectForUser(userId, params.id!);
  const edit = await parseJsonBody(request, SceneEditSchema);
  const storyboardCells = await editScenes({ userId, projectId: params.id!, edit });
  return Response.json({ storyboardCells }, { headers: { "Cache-Control": "no-store" } });
}
