import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { BackgroundMusicSchema } from "~/lib/music";
import { methodNotAllowed, parseJsonBody } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { addBackgroundMusic, backgroundMusicProgressFor } from "~/server/music.server";
import { requestProject } from "~/server/status-request.server";

// GET /api/render-background-music: how far the running mix has come ({ isActive: false } when none runs).
export async function loader({ request }: LoaderFunctionArgs) {
  return Response.json(await backgroundMusicProgressFor(await requestProject(request)), { headers: { "Cache-Control": "no-store" } });
}

// POST /api/render-background-music { volumeLevel, trackId? }: mixes a completed track into the latest render
// (audio only; the render is kept) and answers with the new video's videoUrl and the volumeLevel.
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["GET", "HEAD", "POST"], "Use POST to add background music");
  const userId = await requireUserId(request);
  const body = await parseJsonBody(request, BackgroundMusicSchema);
  const result = await addBackgroundMusic(userId, body);
  return Response.json({ success: true, videoUrl: result.videoUrl, volumeLevel: result.volumeLevel, durationSeconds: result.durationSeconds });
}
