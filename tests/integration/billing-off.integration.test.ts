// Billing off (no STRIPE_SECRET_KEY, self-hosted mode): everyone has the premium features, the status says
// billing is off, the billing calls answer what to do, the webhook is not there, and nothing calls Stripe.
import { afterAll, describe, expect, it, vi } from "vitest";
import { callRoute as call } from "../support/routes";
import { signedEvent, startStripeRecorder } from "../support/stripe";

vi.hoisted(() => {
  delete process.env.STRIPE_SECRET_KEY;
  process.env.STRIPE_WEBHOOK_SECRET = "whsec_billing_off";
});

const recorder = await startStripeRecorder();
process.env.STRIPE_API_URL = recorder.url;

const { prisma } = await import("~/core/db.server");
const { maxRenderHeight, assertCanUseMusic } = await import("~/core/permissions.server");
const statusRoute = await import("~/routes/billing/api.subscription.status");
const checkoutRoute = await import("~/routes/billing/api.subscription.checkout");
const portalRoute = await import("~/routes/billing/api.subscription.portal");
const cancelRoute = await import("~/routes/billing/api.subscription.cancel");
const webhookRoute = await import("~/routes/billing/api.stripe.webhook");
const subscriptionPage = await import("~/routes/billing/subscription");
const { createTestUser, sessionCookieFor } = await import("../support/auth");

afterAll(async () => {
  await prisma.$disconnect();
  await recorder.close();
});

const url = "http://localhost:3000";

describe("billing off", () => {
  it("gives everyone premium, says billing is off, and never calls Stripe", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    const status = await call(statusRoute.loader, new Request(`${url}/api/subscription/status`, { headers: { Cookie: cookie } }));
    expect(await status.json()).toEqual({ billingEnabled: false, isAdmin: false, hasActiveSubscription: false, accessLevel: "premium", subscription: null });
    await expect(maxRenderHeight(user.id)).resolves.toBe(2160);
    await expect(assertCanUseMusic(user.id)).resolves.toBeUndefined();

    const post = (path: string) => new Request(`${url}${path}`, { method: "POST", headers: { Cookie: cookie } });
    for (const response of [
      await call(checkoutRoute.action, post("/api/subscription/checkout")),
      await call(cancelRoute.action, post("/api/subscription/cancel")),
      await call(portalRoute.loader, new Request(`${url}/api/subscription/portal`, { headers: { Cookie: cookie } })),
    ]) {
      expect(response.status).toBe(409);
      expect((await response.json()).message).toMatch(/^Billing is not configured on this server \(self-hosted mode\)/);
    }

    // the page's return from Checkout reads nothing from Stripe either
    const page = await call(subscriptionPage.loader, new Request(`${url}/subscription?checkout=success&session_id=cs_test_1`, { headers: { Cookie: cookie } }));
    expect((await page.json()).status.billingEnabled).toBe(false);

    const event = signedEvent("whsec_billing_off", { id: "evt_off", type: "customer.subscription.updated", created: 1, object: {} });
    const webhook = await call(
      webhookRoute.action,
      new Request(`${url}/api/stripe/webhook`, { method: "POST", headers: { "Stripe-Signature": event.signature }, body: event.body }),
    );
    expect(webhook.status).toBe(404);
    await expect(prisma.stripeEvent.count()).resolves.toBe(0);
    expect(recorder.requests).toHaveLength(0);
  });
});
