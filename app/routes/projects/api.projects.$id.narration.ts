import type { ActionFunctionArgs } from "@remix-run/node";
import { ProjectVoiceUpdateSchema } from "~/lib/project-voice";
import { methodNotAllowed, parseJsonBody } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { getProjectForUser } from "~/core/projects.server";
import { updateNarration } from "~/server/voices.server";

// PUT /api/projects/{id}/narration: { language?, voiceId? (null: the language's default), voiceSpeed? (0.7-1.3) }
// -> the project's narration as /script shows it. New voiceovers use it; another user's project: 404.
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "PUT") return methodNotAllowed(["PUT"], "Use PUT to change the narration.");
  const userId = await requireUserId(request);
  // the owner before the body: another creator's id is a 404 whatever was sent (decision 198)
  await getProjectForUser(userId, params.id!);
  const update = await parseJsonBody(request, ProjectVoiceUpdateSchema);
  return Response.json(await updateNarration(userId, params.id!, update), { headers: { "Cache-Control": "no-store" } });
}
