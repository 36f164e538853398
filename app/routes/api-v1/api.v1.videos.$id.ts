import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/server/api.server";
import { requireApiCaller } from "~/server/api-token-gate.server";
import { apiJson, asProblem, DeletedSchema, parseOr400, VideoIdParamsSchema, VideoSchema } from "~/server/api-v1.server";
import { deleteMakeVideo, getMakeVideo, toApiVideo } from "~/server/make-video.server";

// GET /api/v1/videos/{id}: stage, percent, error in words, links. DELETE: the video and its project (another
// user's id: 404, the same as a missing one).
export async function loader({ request, params }: LoaderFunctionArgs) {
  return asProblem(async () => {
    const { userId } = await requireApiCaller(request);
    const { id } = parseOr400(VideoIdParamsSchema, params);
    return apiJson(VideoSchema, toApiVideo(await getMakeVideo(userId, id)));
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  return asProblem(async () => {
    if (request.method !== "DELETE") return methodNotAllowed(["DELETE"], "Use DELETE to delete a video, POST /api/v1/videos/{id}/cancel to stop it.");
    const { userId } = await requireApiCaller(request);
    const { id } = parseOr400(VideoIdParamsSchema, params);
    return apiJson(DeletedSchema, await deleteMakeVideo(userId, id));
  });
}
