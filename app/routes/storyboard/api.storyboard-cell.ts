import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { MAX_SCENE_INDEX, jsonError, methodNotAllowed, parseJsonBody } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { getCurrentProject } from "~/core/projects.server";
import { updateCell } from "~/server/storyboard.server";

const BodySchema = z
  .object({
    cellIndex: z.number({ message: "cellIndex must be a number" }).int().min(0).max(MAX_SCENE_INDEX, "cellIndex is larger than any scene"),
    imagePrompt: z.string().trim().min(1, "The image prompt cannot be empty").max(2000).optional(),
    voiceoverText: z.string().trim().min(1, "The voiceover text cannot be empty").max(5000).optional(),
  })
  .refine((b) => b.imagePrompt !== undefined || b.voiceoverText !== undefined, {
    message: "Send imagePrompt or voiceoverText to change",
    path: ["imagePrompt"],
  });

// PUT /api/storyboard-cell: edit a scene's image prompt and/or voiceover text.
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "PUT") return methodNotAllowed(["PUT"], "Use PUT");
  const userId = await requireUserId(request);
  const edit = await parseJsonBody(request, BodySchema);
  const project = await getCurrentProject(userId);
  if (!project) return jsonError(404, "No storyboard to edit");
  return Response.json({ success: true, cell: await updateCell(project.id, edit) });
}
