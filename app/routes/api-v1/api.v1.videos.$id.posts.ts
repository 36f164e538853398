import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/server/api.server";
import { requireApiCaller } from "~/server/api-token-gate.server";
import { apiJson, asProblem, parseOr400, readApiBody, VideoIdParamsSchema } from "~/server/api-v1.server";
import { requireOwnRun } from "~/server/make-video.server";
import { listPlatformPosts, publishToPlatforms } from "~/server/platforms/platform-posts.server";
import { PlatformPostListSchema, PublishBodySchema, PublishResultSchema } from "~/server/platforms/platform-posts-schemas";
import { problem } from "~/server/problem.server";

async function ownProject(userId: string, id: string): Promise<string> {
  const run = await requireOwnRun(userId, id);
  if (!run.projectId) throw problem(409, "The video has no project yet: post it once its status is completed.");
  return run.projectId;
}

// GET /api/v1/videos/{id}/posts: the video's TikTok and Instagram posts and their states (another user's id: 404).
export async function loader({ request, params }: LoaderFunctionArgs) {
  return asProblem(async () => {
    const { userId } = await requireApiCaller(request);
    const { id } = parseOr400(VideoIdParamsSchema, params);
    return apiJson(PlatformPostListSchema, { posts: await listPlatformPosts(userId, await ownProject(userId, id)) });
  });
}

// POST /api/v1/videos/{id}/posts { posts: [{ platform, connectionId, caption, scheduledAt?, tiktok?, instagram? }] }
// -> 201 { posts, refused }: each entry checked by its platform's rules, the others started (issue 49).
export async function action({ request, params }: ActionFunctionArgs) {
  return asProblem(async () => {
    if (request.method !== "POST") return methodNotAllowed(["POST"], "Use POST to post a video to TikTok and Instagram.");
    const { userId } = await requireApiCaller(request);
    const { id } = parseOr400(VideoIdParamsSchema, params);
    // the owner before the body: another creator's id is a 404 whatever was sent (decision 198)
    const projectId = await ownProject(userId, id);
    const body = await readApiBody(request, PublishBodySchema);
    return apiJson(PublishResultSchema, await publishToPlatforms(userId, body, projectId), { status: 201 });
  });
}
