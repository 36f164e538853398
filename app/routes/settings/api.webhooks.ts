import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { methodNotAllowed, parseJsonBody } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { privateTargetsAllowedFor } from "~/core/permissions.server";
import { CreateWebhookSchema, createWebhookEndpoint, listWebhookEndpoints } from "~/core/webhooks.server";

// GET /api/webhooks: the creator's webhook endpoints and their latest deliveries, and whether they may tick "allow
// private addresses" (the owner, or every creator when the operator set ALLOW_PRIVATE_TARGETS; decision 196). POST { url, events, allowPrivate }:
// a new endpoint, its signing secret in the answer this once (decision 163). Session only.
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  const [endpoints, mayAllowPrivate] = await Promise.all([listWebhookEndpoints(userId), privateTargetsAllowedFor(userId)]);
  return Response.json({ endpoints, mayAllowPrivate }, { headers: { "Cache-Control": "no-store" } });
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"], "Use POST to add an endpoint, DELETE /api/webhooks/{id} to remove one.");
  const userId = await requireUserId(request);
  const input = await parseJsonBody(request, CreateWebhookSchema);
  return Response.json(await createWebhookEndpoint(userId, input), { status: 201, headers: { "Cache-Control": "no-store" } });
}
