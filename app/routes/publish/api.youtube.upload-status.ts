import type { LoaderFunctionArgs } from "@remix-run/node";
import { requestProject } from "~/server/status-request.server";
import { youtubeUploadStatusFor } from "~/server/youtube-upload.server";

// GET /api/youtube/upload-status: the current project's newest upload (bytes acknowledged by YouTube while it runs;
// the page reads the same answers from /api/progress-events?stage=upload when it can).
export async function loader({ request }: LoaderFunctionArgs) {
  return Response.json(await youtubeUploadStatusFor(await requestProject(request)), { headers: { "Cache-Control": "no-store" } });
}
