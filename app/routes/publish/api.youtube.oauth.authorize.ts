import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUserId } from "~/server/auth.server";
import { startYoutubeAuthorization } from "~/server/youtube.server";

// GET /api/youtube/oauth/authorize: { authUrl } for the popup, with the creator's own OAuth client (offline
// access, upload + read scopes, PKCE); the state is bound to this browser session.
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  return Response.json(await startYoutubeAuthorization(request, userId), { headers: { "Cache-Control": "no-store" } });
}
