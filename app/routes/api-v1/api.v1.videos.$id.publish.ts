import type { ActionFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/server/api.server";
import { requireApiCaller } from "~/server/api-token-gate.server";
import { apiJson, asProblem, parseOr400, PublishSchema, readApiBody, VideoIdParamsSchema, VideoSchema } from "~/server/api-v1.server";
import { publishMakeVideo, requireOwnRun, toApiVideo } from "~/server/make-video.server";

// POST /api/v1/videos/{id}/publish { publishAt?, privacyStatus?, youtubeCategoryId? }: uploads a finished video to
// YouTube (scheduled with publishAt) -> 202 Video. Premium (402), YouTube connected (409); another user's id: 404.
export async function action({ request, params }: ActionFunctionArgs) {
  return asProblem(async () => {
    if (request.method !== "POST") return methodNotAllowed(["POST"], "Use POST to publish a video.");
    const { userId } = await requireApiCaller(request);
    const { id } = parseOr400(VideoIdParamsSchema, params);
    // the owner before the body: another creator's id is a 404 whatever was sent (decision 198)
    await requireOwnRun(userId, id);
    const publish = await readApiBody(request, PublishSchema);
    return apiJson(VideoSchema, toApiVideo(await publishMakeVideo(userId, id, publish)), { status: 202 });
  });
}
