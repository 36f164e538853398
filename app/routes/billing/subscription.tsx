import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { SubscriptionView } from "~/components/billing/subscription-view";
import { requireUser } from "~/server/auth.server";
import { getSubscriptionStatus, syncCheckoutSession } from "~/server/billing.server";
import { pageMeta } from "~/lib/meta";
import { isRefusal } from "~/core/refusal.server";

export const meta: MetaFunction = () => pageMeta("Subscription · Reelsmith");

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const checkoutParam = url.searchParams.get("checkout");
  const checkout: "success" | "cancelled" | null = checkoutParam === "success" || checkoutParam === "cancelled" ? checkoutParam : null;
  const sessionId = url.searchParams.get("session_id");
  if (checkout === "success" && sessionId) {
    // Back from Checkout: read the session from Stripe; only a completed session of this user applies.
    await syncCheckoutSession(user, sessionId).catch((e: unknown) => {
      if (!isRefusal(e)) console.error("Reading the checkout session from Stripe failed:", e);
    });
  }
  return { status: await getSubscriptionStatus(user), checkout };
}

export default function SubscriptionPage() {
  const { status, checkout } = useLoaderData<typeof loader>();
  return <SubscriptionView initial={status} checkout={checkout} />;
}
