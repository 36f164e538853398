import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { MusicVolumeSchema } from "~/lib/music";
import { methodNotAllowed, parseJsonBody } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { getMusicVolume, saveMusicVolume } from "~/server/music.server";

// GET /api/music-volume: the current project's background music volume (percent).
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  return Response.json({ volume: await getMusicVolume(userId) }, { headers: { "Cache-Control": "no-store" } });
}

// POST /api/music-volume { volume }: saves it (0 to 100); the render and the mix use it.
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["GET", "HEAD", "POST"], "Use POST to save the music volume");
  const userId = await requireUserId(request);
  const { volume } = await parseJsonBody(request, MusicVolumeSchema);
  return Response.json({ success: true, volume: await saveMusicVolume(userId, volume) });
}
