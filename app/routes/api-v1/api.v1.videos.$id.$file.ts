import type { LoaderFunctionArgs } from "@remix-run/node";
import { serveMedia } from "~/server/media-response.server";
import { requireApiCaller } from "~/server/api-token-gate.server";
import { asProblem, parseOr400, VideoIdParamsSchema } from "~/server/api-v1.server";
import { mediaIdOfRunFile } from "~/server/make-video.server";
import { problem } from "~/server/problem.server";

// GET /api/v1/videos/{id}/video and /thumbnail: the finished MP4 or thumbnail, to the video's owner (token or
// session), with Range support. 404 while it is not made yet, or for another user's video.
export async function loader({ request, params }: LoaderFunctionArgs) {
  return asProblem(async () => {
    const { userId } = await requireApiCaller(request);
    const { id } = parseOr400(VideoIdParamsSchema, { id: params.id });
    const file = params.file === "video" || params.file === "thumbnail" ? params.file : null;
    if (!file) return problem(404, "Not found: a video has /video and /thumbnail.");
    const mediaId = await mediaIdOfRunFile(userId, id, file);
    if (!mediaId) return problem(404, file === "video" ? "This video has no MP4 yet: wait until its status is completed." : "This video has no thumbnail yet.", { field: "id" });
    return serveMedia(request, userId, mediaId);
  });
}
