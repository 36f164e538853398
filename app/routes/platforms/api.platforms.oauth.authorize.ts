import type { LoaderFunctionArgs } from "@remix-run/node";
import { jsonError } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { startPlatformAuthorization } from "~/server/platforms/platform-connections.server";

// GET /api/platforms/{tiktok|instagram}/oauth/authorize: { authUrl } for the popup (TikTok: PKCE); the state is
// bound to this browser session.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  const platform = params.platform;
  if (platform !== "tiktok" && platform !== "instagram") throw jsonError(404, "Unknown platform: use tiktok or instagram.", { field: "platform" });
  return Response.json(await startPlatformAuthorization(request, userId, platform), { headers: { "Cache-Control": "no-store" } });
}
