import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { MAX_SCENE_INDEX, methodNotAllowed, parseJsonBody } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { requireCurrentProject } from "~/core/projects.server";
import { generateSceneMedia } from "~/server/storyboard.server";

// The scene's saved prompt is used (edit it with PUT /api/storyboard-cell); `prompt` is accepted as the spec sends it.
const BodySchema = z.object({ prompt: z.string().max(2000).optional(), cellIndex: z.number({ message: "cellIndex must be a number" }).int().min(0).max(MAX_SCENE_INDEX, "cellIndex is larger than any scene") });

// POST /api/ai/generate-image: one scene's image; answers with its imageUrl.
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"], "Use POST");
  const userId = await requireUserId(request);
  const { cellIndex } = await parseJsonBody(request, BodySchema);
  const project = await requireCurrentProject(userId, "cellIndex");
  const { imageUrl } = await generateSceneMedia(userId, project, cellIndex, "image");
  return Response.json({ imageUrl });
}
