import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUserId } from "~/server/auth.server";
import { getYoutubeUploadStatus } from "~/server/youtube-upload.server";

// GET /api/youtube/upload-status: the current project's newest upload (bytes acknowledged by YouTube while it runs).
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  return Response.json(await getYoutubeUploadStatus(userId), { headers: { "Cache-Control": "no-store" } });
}
