import type { ActionFunctionArgs } from "@remix-run/node";
import { jsonError, methodNotAllowed } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { deleteMusicTrack } from "~/server/music.server";

// DELETE /api/music-tracks/:id: removes one of the user's tracks and its audio file (404 for anybody else's).
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "DELETE") return methodNotAllowed(["DELETE"], "Use DELETE to remove a music track");
  const userId = await requireUserId(request);
  const id = params.id ?? "";
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) return jsonError(404, "Music track not found");
  await deleteMusicTrack(userId, id);
  return Response.json({ success: true });
}
