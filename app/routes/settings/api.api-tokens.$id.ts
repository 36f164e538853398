import type { ActionFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/server/api.server";
import { revokeApiToken } from "~/server/api-tokens.server";
import { requireUserId } from "~/server/auth.server";

// DELETE /api/api-tokens/{id}: revokes one of the creator's tokens at once (another user's id: 404).
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "DELETE") return methodNotAllowed(["DELETE"], "Use DELETE to revoke a token.");
  const userId = await requireUserId(request);
  await revokeApiToken(userId, params.id!);
  return Response.json({ id: params.id, revoked: true }, { headers: { "Cache-Control": "no-store" } });
}
