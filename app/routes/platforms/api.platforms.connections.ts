import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUserId } from "~/server/auth.server";
import { instagramConfigured, platformEnv, tiktokConfigured } from "~/core/platforms/platform-env.server";
import { listPlatformConnections } from "~/server/platforms/platform-connections.server";

// GET /api/platforms/connections: the creator's TikTok and Instagram accounts, and what this server is set up for.
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  const env = platformEnv();
  return Response.json(
    { connections: await listPlatformConnections(userId), configured: { tiktok: tiktokConfigured(env), instagram: instagramConfigured(env) }, tiktokAudited: env.TIKTOK_APP_AUDITED },
    { headers: { "Cache-Control": "no-store" } },
  );
}
