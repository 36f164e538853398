import type { LoaderFunctionArgs } from "@remix-run/node";
import { musicTracksFor } from "~/server/music.server";
import { requestProject } from "~/server/status-request.server";

// GET /api/music-tracks: the current project's tracks, newest first (an array, as the spec's call returns; the page
// reads the same answers from /api/progress-events?stage=music while a track is being made).
export async function loader({ request }: LoaderFunctionArgs) {
  return Response.json(await musicTracksFor(await requestProject(request)), { headers: { "Cache-Control": "no-store" } });
}
