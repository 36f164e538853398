import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireApiCaller } from "~/server/api-token-gate.server";
import { apiJson, asProblem } from "~/server/api-v1.server";
import { listPlatformConnections } from "~/server/platforms/platform-connections.server";
import { SocialAccountListSchema } from "~/server/platforms/platform-posts-schemas";

// GET /api/v1/social-accounts: the caller's TikTok and Instagram accounts, to post to with /api/v1/videos/{id}/posts.
export async function loader({ request }: LoaderFunctionArgs) {
  return asProblem(async () => {
    const { userId } = await requireApiCaller(request);
    return apiJson(SocialAccountListSchema, { accounts: await listPlatformConnections(userId) });
  });
}
