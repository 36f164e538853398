import type { ActionFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/server/api.server";
import { requireApiCaller } from "~/server/api-token-gate.server";
import { apiJson, asProblem, parseOr400, VideoIdParamsSchema, VideoSchema } from "~/server/api-v1.server";
import { cancelMakeVideo, toApiVideo } from "~/server/make-video.server";

// POST /api/v1/videos/{id}/cancel: stops a running video (409 once it finished; another user's id: 404).
export async function action({ request, params }: ActionFunctionArgs) {
  return asProblem(async () => {
    if (request.method !== "POST") return methodNotAllowed(["POST"], "Use POST to cancel a video.");
    const { userId } = await requireApiCaller(request);
    const { id } = parseOr400(VideoIdParamsSchema, params);
    return apiJson(VideoSchema, toApiVideo(await cancelMakeVideo(userId, id)));
  });
}
