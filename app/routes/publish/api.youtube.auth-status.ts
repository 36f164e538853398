import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUserId } from "~/server/auth.server";
import { getYoutubeAuthStatus } from "~/server/youtube.server";

// GET /api/youtube/auth-status: { isAuthenticated, needsReconnect, channelTitle, hasOAuthClient }; polled every
// 5 s (up to 24 times) while the connect popup is open.
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  return Response.json(await getYoutubeAuthStatus(userId), { headers: { "Cache-Control": "no-store" } });
}
