import type { ActionFunctionArgs } from "@remix-run/node";
import { jsonError, methodNotAllowed, readBodyCapped } from "~/server/api.server";
import { WEBHOOK_MAX_BYTES, handleStripeWebhook } from "~/server/billing.server";

// POST /api/stripe/webhook: Stripe's events, verified by signature on the raw body (no session: Stripe calls it).
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"], "Use POST to deliver Stripe events.");
  const declared = Number(request.headers.get("Content-Length") ?? 0);
  if (declared > WEBHOOK_MAX_BYTES) return jsonError(413, `A Stripe event may be at most ${WEBHOOK_MAX_BYTES} bytes.`);
  // read as a stream with the cap: a chunked body has no Content-Length to check
  const rawBody = (await readBodyCapped(request, WEBHOOK_MAX_BYTES)).toString("utf8");
  return Response.json(await handleStripeWebhook(rawBody, request.headers.get("Stripe-Signature")));
}
