import type { ActionFunctionArgs } from "@remix-run/node";
import { methodNotAllowed, parseJsonBody } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { cancelPlatformPost, reschedulePlatformPost, RescheduleBodySchema } from "~/server/platforms/platform-posts.server";

// PATCH /api/platforms/posts/{id} { scheduledAt }: moves a scheduled post (null: now). DELETE cancels it. Both only
// until the post starts (409 after).
export async function action({ request, params }: ActionFunctionArgs) {
  const userId = await requireUserId(request);
  const postId = params.id ?? "";
  if (request.method === "DELETE") {
    await cancelPlatformPost(userId, postId);
    return Response.json({ success: true });
  }
  if (request.method === "PATCH") {
    const body = await parseJsonBody(request, RescheduleBodySchema);
    await reschedulePlatformPost(userId, postId, body.scheduledAt);
    return Response.json({ success: true });
  }
  return methodNotAllowed(["PATCH", "DELETE"], "Use PATCH to move a scheduled post, DELETE to cancel it.");
}
