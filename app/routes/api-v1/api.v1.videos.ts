import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/server/api.server";
import { requireApiCaller } from "~/server/api-token-gate.server";
import { apiJson, asProblem, CreateVideoSchema, ListVideosQuerySchema, parseOr400, readApiBody, VideoListSchema, VideoSchema } from "~/server/api-v1.server";
import { getMakeVideo, listMakeVideos, startMakeVideo, toApiVideo } from "~/server/make-video.server";

// GET /api/v1/videos?limit=&before=&status=: the caller's videos, newest first. POST /api/v1/videos: make a whole
// video (CreateVideo in the OpenAPI document) -> 201 Video. Token or session (decision 160); problems on error.
export async function loader({ request }: LoaderFunctionArgs) {
  return asProblem(async () => {
    const { userId } = await requireApiCaller(request);
    const query = parseOr400(ListVideosQuerySchema, Object.fromEntries(new URL(request.url).searchParams));
    const page = await listMakeVideos(userId, query);
    return apiJson(VideoListSchema, { videos: page.videos.map(toApiVideo), next: page.next });
  });
}

export async function action({ request }: ActionFunctionArgs) {
  return asProblem(async () => {
    if (request.method !== "POST") return methodNotAllowed(["POST"], "Use POST to make a video, GET to list them.");
    const { userId, via } = await requireApiCaller(request);
    const options = await readApiBody(request, CreateVideoSchema);
    // a program's video leaves the creator's current project alone; /create's button opens the new one
    const started = await startMakeVideo(userId, options, { makeCurrent: via === "session" });
    return apiJson(VideoSchema, toApiVideo(await getMakeVideo(userId, started.id)), { status: 201 });
  });
}
