import type { LoaderFunctionArgs } from "@remix-run/node";
import { appOrigin } from "~/server/api.server";
import { requireUser } from "~/server/auth.server";
import { createPortalSession } from "~/server/billing.server";

// GET /api/subscription/portal: a Stripe Billing Portal session for the user's customer; returns portalUrl.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return Response.json(await createPortalSession(user, appOrigin(request)), { headers: { "Cache-Control": "no-store" } });
}
