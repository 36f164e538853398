import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { methodNotAllowed, parseJsonBody } from "~/server/api.server";
import { requireUser } from "~/server/auth.server";
import { cancelSubscription } from "~/server/billing.server";

// POST /api/subscription/cancel (no payload): cancel at the end of the paid period; returns the new status.
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"], "Use POST to cancel the subscription.");
  const user = await requireUser(request);
  await parseJsonBody(request, z.object({}).strict());
  return Response.json(await cancelSubscription(user));
}
