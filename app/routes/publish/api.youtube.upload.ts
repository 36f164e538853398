import type { ActionFunctionArgs } from "@remix-run/node";
import { methodNotAllowed, parseJsonBody } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { startYoutubeUpload, UploadBodySchema, waitForYoutubeUpload } from "~/server/youtube-upload.server";

// POST /api/youtube/upload { videoPath, title, description, tags[], privacyStatus, categoryId, publishAt?,
// thumbnailUrl? } -> { videoId }. The upload is a workflow on a worker; this request waits for its video id
// while the page reads the live bytes from /api/youtube/upload-status. A closed tab leaves the upload running.
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"], "Use POST to upload a video.");
  const userId = await requireUserId(request);
  const body = await parseJsonBody(request, UploadBodySchema);
  const { uploadId, workflowId } = await startYoutubeUpload(userId, body);
  const result = await waitForYoutubeUpload(workflowId, request.signal);
  return Response.json({ success: true, uploadId, ...result });
}
