import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { RESOLUTIONS } from "~/lib/video-format";
import { VideoDetailsSchema } from "~/lib/video-details";
import { jsonError, methodNotAllowed, parseJsonBody } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { getCurrentProject } from "~/core/projects.server";
import { startScriptGeneration } from "~/server/script.server";

export const NO_DETAILS_MESSAGE = "No video details found. Please start from the create page.";

// The body may lack details entirely (nothing saved in the browser): that is the spec's 'no details' error,
// not a field error. Present details are validated field by field.
const BodySchema = z.object({
  title: z.string().optional(),
  topic: z.string().optional(),
  resolution: z.enum(RESOLUTIONS).optional(),
  duration: z.unknown().optional(),
});

// POST /api/generate-script: start the script workflow for the current project.
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"], "Use POST");
  const userId = await requireUserId(request);
  const body = await parseJsonBody(request, BodySchema);
  const project = await getCurrentProject(userId);
  if (!project || !body.title?.trim() || !body.topic?.trim()) return jsonError(400, NO_DETAILS_MESSAGE);
  const parsed = VideoDetailsSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return jsonError(400, issue.message, { field: String(issue.path[0] ?? "") });
  }
  const result = await startScriptGeneration(userId, project, parsed.data);
  return Response.json(result, { status: result.started ? 202 : 200 });
}
