import type { ActionFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { deleteVideos } from "~/server/render.server";

// DELETE /api/delete-videos: stop any render, remove the current project's video files, reset the render state.
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "DELETE") return methodNotAllowed(["DELETE"], "Use DELETE to remove the videos");
  const userId = await requireUserId(request);
  return Response.json({ success: true, ...(await deleteVideos(userId)) });
}
