import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { RESOLUTIONS } from "~/lib/video-format";
import { jsonError, methodNotAllowed, parseJsonBody } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { getCurrentProject } from "~/core/projects.server";
import { NO_SCRIPT_MESSAGE, startStoryboardGeneration } from "~/server/storyboard.server";

// The page sends the script and title it shows (and, the first time, topic, format and duration); the server
// uses its own copy of the current project's script, so these are checked but only need to be well-formed.
const BodySchema = z.object({
  script: z.string().optional(),
  title: z.string().max(200).optional(),
  topic: z.string().max(5000).optional(),
  resolution: z.enum(RESOLUTIONS).optional(),
  duration: z.number().int().positive().max(24 * 3600).optional(),
});

// POST /api/generate-storyboards: split the current project's script into scenes.
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"], "Use POST");
  const userId = await requireUserId(request);
  await parseJsonBody(request, BodySchema);
  const project = await getCurrentProject(userId);
  if (!project) return jsonError(400, NO_SCRIPT_MESSAGE);
  const result = await startStoryboardGeneration(userId, project);
  return Response.json(result, { status: "started" in result ? 202 : 200 });
}
