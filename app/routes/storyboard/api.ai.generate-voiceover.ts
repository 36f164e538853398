import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { MAX_SCENE_INDEX, methodNotAllowed, parseJsonBody } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { requireCurrentProject } from "~/core/projects.server";
import { generateSceneMedia } from "~/server/storyboard.server";

// The scene's saved voiceover text is spoken (edit it with PUT /api/storyboard-cell); `text` is accepted as the spec sends it.
const BodySchema = z.object({ text: z.string().max(5000).optional(), cellIndex: z.number({ message: "cellIndex must be a number" }).int().min(0).max(MAX_SCENE_INDEX, "cellIndex is larger than any scene") });

// POST /api/ai/generate-voiceover: one scene's voiceover; answers with its audioUrl.
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"], "Use POST");
  const userId = await requireUserId(request);
  const { cellIndex } = await parseJsonBody(request, BodySchema);
  const project = await requireCurrentProject(userId, "cellIndex");
  const { audioUrl } = await generateSceneMedia(userId, project, cellIndex, "voiceover");
  return Response.json({ audioUrl });
}
