import type { LoaderFunctionArgs } from "@remix-run/node";
import { jsonError } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { ownConnection } from "~/server/platforms/platform-connections.server";
import { platformAccessToken, PlatformNotConnectedError } from "~/core/platforms/platform-tokens.server";
import { TikTokApiError, TikTokClient } from "~/core/platforms/tiktok-client.server";

// GET /api/platforms/connections/{id}/creator-info: TikTok's latest creator info for the export step (nickname,
// privacy options, interaction settings, longest video), read each time the step opens, as TikTok requires.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  const connection = await ownConnection(userId, params.id ?? "");
  if (connection.platform !== "tiktok") throw jsonError(400, "Creator info is TikTok's.", { field: "id" });
  try {
    const token = await platformAccessToken(userId, connection.id);
    return Response.json(await new TikTokClient(token).creatorInfo(), { headers: { "Cache-Control": "no-store" } });
  } catch (e) {
    if (e instanceof PlatformNotConnectedError) throw jsonError(409, e.message, { needsConnection: true });
    if (e instanceof TikTokApiError) throw jsonError(e.unauthorized ? 409 : 502, `TikTok answered: ${e.message} (${e.code})`, { needsConnection: e.unauthorized });
    throw e;
  }
}
