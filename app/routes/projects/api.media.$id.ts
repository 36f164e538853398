import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUserId } from "~/server/auth.server";
import { serveMedia } from "~/server/media-response.server";

// GET/HEAD /api/media/:id: a media file, to its owner only (anyone else gets the same 404 as a missing id),
// with Range support so video and audio elements can seek. ?download=1 asks the browser to save it. The bytes are
// streamed from storage (the folder or the bucket, asked for just the range), never held whole in memory.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  return serveMedia(request, userId, params.id ?? "");
}
