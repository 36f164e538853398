import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { methodNotAllowed, parseJsonBody } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { listPlatformPosts, publishToPlatforms, PublishBodySchema } from "~/server/platforms/platform-posts.server";

// GET /api/platforms/posts: the current project's TikTok and Instagram posts and their states.
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  return Response.json({ posts: await listPlatformPosts(userId) }, { headers: { "Cache-Control": "no-store" } });
}

// POST /api/platforms/posts { videoPath?, posts: [{ platform, connectionId, caption, scheduledAt?, tiktok?, instagram? }] }
// -> { posts, refused }: each post checked by its platform's rules, the others started (or waiting for their time).
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"], "Use POST to publish.");
  const userId = await requireUserId(request);
  const body = await parseJsonBody(request, PublishBodySchema);
  return Response.json(await publishToPlatforms(userId, body), { status: 201 });
}
