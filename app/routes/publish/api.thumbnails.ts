import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUserId } from "~/server/auth.server";
import { getThumbnailWorkspace } from "~/server/thumbnail.server";

// GET /api/thumbnails?projectId=: what the Thumbnail Generator shows for one of the user's projects (the
// current one without projectId): scene images, recent thumbnails (which one is approved), default font and size.
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  const projectId = new URL(request.url).searchParams.get("projectId")?.slice(0, 100) || null;
  return Response.json(await getThumbnailWorkspace(userId, projectId), { headers: { "Cache-Control": "no-store" } });
}
