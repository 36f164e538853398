import type { ActionFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { deleteWebhookEndpoint } from "~/core/webhooks.server";

// DELETE /api/webhooks/{id}: removes one of the creator's endpoints and its log (another user's id: 404).
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "DELETE") return methodNotAllowed(["DELETE"], "Use DELETE to remove a webhook endpoint.");
  const userId = await requireUserId(request);
  await deleteWebhookEndpoint(userId, params.id!);
  return Response.json({ id: params.id, deleted: true }, { headers: { "Cache-Control": "no-store" } });
}
