import type { ActionFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { disconnectPlatform } from "~/server/platforms/platform-connections.server";

// DELETE /api/platforms/connections/{id}: disconnects one of the creator's accounts (another creator's id: 404);
// its scheduled and unfinished posts are dropped (postsDropped says how many).
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "DELETE") return methodNotAllowed(["DELETE"], "Use DELETE to disconnect an account.");
  const userId = await requireUserId(request);
  const { postsDropped } = await disconnectPlatform(userId, params.id ?? "");
  return Response.json({ success: true, postsDropped });
}
