import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/server/auth.server";
import { getSubscriptionStatus } from "~/server/billing.server";

// GET /api/subscription/status: isAdmin, hasActiveSubscription, accessLevel, subscription (and billingEnabled).
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return Response.json(await getSubscriptionStatus(user), { headers: { "Cache-Control": "no-store" } });
}
