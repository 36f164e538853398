import type { ActionFunctionArgs } from "@remix-run/node";
import { GenerateMusicSchema } from "~/lib/music";
import { methodNotAllowed, parseJsonBody } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { startMusicGeneration } from "~/server/music.server";

// POST /api/music-tracks/generate { prompt, trackCount }: creates the tracks (pending) and starts their
// generation on a worker; free accounts get a 402 pointing to the subscription page.
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"], "Use POST to generate music");
  const userId = await requireUserId(request);
  const body = await parseJsonBody(request, GenerateMusicSchema);
  const { tracks } = await startMusicGeneration(userId, body);
  return Response.json({ success: true, tracks }, { status: 202 });
}
