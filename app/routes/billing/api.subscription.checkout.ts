import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { appOrigin, methodNotAllowed, parseJsonBody } from "~/server/api.server";
import { requireUser } from "~/server/auth.server";
import { createCheckoutSession } from "~/server/billing.server";

// POST /api/subscription/checkout (no payload): a Stripe Checkout Session for Premium; returns checkoutUrl.
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"], "Use POST to start a checkout.");
  const user = await requireUser(request);
  await parseJsonBody(request, z.object({}).strict());
  return Response.json(await createCheckoutSession(user, appOrigin(request)));
}
