import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUserId } from "~/server/auth.server";
import { listMusicTracks } from "~/server/music.server";

// GET /api/music-tracks: the current project's tracks, newest first (an array, as the spec's call returns).
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  return Response.json(await listMusicTracks(userId), { headers: { "Cache-Control": "no-store" } });
}
