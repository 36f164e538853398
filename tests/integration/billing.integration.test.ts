// Billing with Stripe: the real `stripe` client against stripe-mock (checkout, portal, cancel with the right
// parameters), and the webhook with events signed as Stripe signs them: applied once, refused when tampered,
// wrongly signed or stale, out-of-order events replaced by Stripe's current state, and the plan's limits
// following free -> premium -> canceling -> past due -> premium -> free.
import { afterAll, describe, expect, it, vi } from "vitest";
import { callRoute as call } from "../support/routes";
import { signedEvent, startStripeRecorder, subscriptionObject } from "../support/stripe";

const WEBHOOK_SECRET = "whsec_reelsmith_integration_secret";
vi.hoisted(() => {
  process.env.STRIPE_SECRET_KEY = "sk_test_reelsmithIntegration";
  process.env.STRIPE_WEBHOOK_SECRET = "whsec_reelsmith_integration_secret";
  process.env.OWNER_EMAIL = "owner@example.com";
});

const recorder = await startStripeRecorder();
process.env.STRIPE_API_URL = recorder.url;

const { prisma } = await import("~/core/db.server");
const { assertCanCreateProject, assertCanUpload, assertCanUseMusic, maxRenderHeight } = await import("~/core/permissions.server");
const statusRoute = await import("~/routes/billing/api.subscription.status");
const checkoutRoute = await import("~/routes/billing/api.subscription.checkout");
const portalRoute = await import("~/routes/billing/api.subscription.portal");
const cancelRoute = await import("~/routes/billing/api.subscription.cancel");
const webhookRoute = await import("~/routes/billing/api.stripe.webhook");
const { syncCheckoutSession } = await import("~/server/billing.server");
const { createTestUser, sessionCookieFor } = await import("../support/auth");
const renderRoute = await import("~/routes/render/api.render-video");
const { getTemporalClient } = await import("~/server/temporal.server");
const { seedRenderableProject } = await import("../fixtures/render-project");

afterAll(async () => {
  await (await getTemporalClient()).connection.close();
  await prisma.$disconnect();
  await recorder.close();
});

const url = "http://localhost:3000";
const post = (path: string, cookie: string) => new Request(`${url}${path}`, { method: "POST", headers: { Cookie: cookie, Origin: url } });
const get = (path: string, cookie: string) => new Request(`${url}${path}`, { headers: { Cookie: cookie } });
const deliver = (event: { body: string; signature: string }) =>
  call(webhookRoute.action, new Request(`${url}/api/stripe/webhook`, { method: "POST", headers: { "Stripe-Signature": event.signature, "Content-Type": "application/json" }, body: event.body }));

async function statusOf(cookie: string) {
  const response = await call(statusRoute.loader, get("/api/subscription/status", cookie));
  expect(response.status).toBe(200);
  return response.json();
}

/** What a user would notice of their plan's limits. */
async function limitsOf(userId: string) {
  const passes = (p: Promise<void>) => p.then(() => true, () => false);
  return {
    projects: await passes(assertCanCreateProject(userId)),
    music: await passes(assertCanUseMusic(userId)),
    upload: await passes(assertCanUpload(userId)),
    maxHeight: await maxRenderHeight(userId),
  };
}
const FREE_LIMITS = { projects: true, music: false, upload: false, maxHeight: 720 };
const PREMIUM_LIMITS = { projects: true, music: true, upload: true, maxHeight: 2160 };

const requestsTo = (method: string, path: string) => recorder.requests.filter((r) => r.method === method && r.path === path);

describe("checkout, portal and cancel through the real client", () => {
  it("creates the customer once, finds the price by lookup key and opens Checkout for it", async () => {
    const user = await createTestUser("buyer@example.com", "Buyer");
    const cookie = await sessionCookieFor(user.id);
    recorder.requests.length = 0;

    const first = await call(checkoutRoute.action, post("/api/subscription/checkout", cookie));
    expect(first.status).toBe(200);
    expect((await first.json()).checkoutUrl).toMatch(/^https:\/\/checkout\.stripe\.com\//);

    const customers = requestsTo("POST", "/v1/customers");
    expect(customers).toHaveLength(1);
    expect(customers[0]!.params.get("email")).toBe("buyer@example.com");
    expect(customers[0]!.params.get("metadata[userId]")).toBe(user.id);
    const row = await prisma.subscription.findUniqueOrThrow({ where: { userId: user.id } });
    expect(row.stripeCustomerId).toMatch(/^cus_/);

    const prices = requestsTo("GET", "/v1/prices");
    expect(prices[0]!.params.getAll("lookup_keys[0]")).toEqual(["reelsmith_premium_monthly"]);

    const [session] = requestsTo("POST", "/v1/checkout/sessions");
    expect(session!.params.get("mode")).toBe("subscription");
    expect(session!.params.get("customer")).toBe(row.stripeCustomerId);
    expect(session!.params.get("client_reference_id")).toBe(user.id);
    expect(session!.params.get("line_items[0][price]")).toMatch(/^price_/);
    expect(session!.params.get("line_items[0][quantity]")).toBe("1");
    expect(session!.params.get("success_url")).toBe(`${url}/subscription?checkout=success&session_id={CHECKOUT_SESSION_ID}`);
    expect(session!.params.get("cancel_url")).toBe(`${url}/subscription?checkout=cancelled`);

    // a second checkout reuses the customer (and the price found before)
    recorder.requests.length = 0;
    expect((await call(checkoutRoute.action, post("/api/subscription/checkout", cookie))).status).toBe(200);
    expect(requestsTo("POST", "/v1/customers")).toHaveLength(0);
    expect(requestsTo("POST", "/v1/checkout/sessions")[0]!.params.get("customer")).toBe(row.stripeCustomerId);

    // coming back from Checkout grants nothing by itself: a session that is not this user's completed one is ignored
    await expect(syncCheckoutSession(user, "cs_test_someone_elses")).resolves.toBe(false);
    const status = await statusOf(cookie);
    expect(status).toMatchObject({ billingEnabled: true, isAdmin: false, hasActiveSubscription: false, accessLevel: "free", subscription: null });
    await expect(limitsOf(user.id)).resolves.toEqual(FREE_LIMITS);
  });

  it("refuses a body, and answers the owner that no subscription is needed", async () => {
    const user = await createTestUser();
    const withBody = new Request(`${url}/api/subscription/checkout`, {
      method: "POST",
      headers: { Cookie: await sessionCookieFor(user.id), "Content-Type": "application/json" },
      body: JSON.stringify({ price: "price_free" }),
    });
    expect((await call(checkoutRoute.action, withBody)).status).toBe(400);

    const owner = await createTestUser("owner@example.com", "Owner");
    const ownerCookie = await sessionCookieFor(owner.id);
    recorder.requests.length = 0;
    const refused = await call(checkoutRoute.action, post("/api/subscription/checkout", ownerCookie));
    expect(refused.status).toBe(409);
    expect((await refused.json()).message).toBe("The owner account has every feature without a subscription.");
    expect(await statusOf(ownerCookie)).toMatchObject({ isAdmin: true, accessLevel: "admin", hasActiveSubscription: false });
    expect(recorder.requests).toHaveLength(0);
  });

  it("signed out: 401", async () => {
    const response = await call(statusRoute.loader, new Request(`${url}/api/subscription/status`));
    expect(response.status).toBe(401);
  });
});

describe("the webhook", () => {
  const now = Math.floor(Date.now() / 1000);
  const day = 86_400;

  async function subscriber() {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    await call(checkoutRoute.action, post("/api/subscription/checkout", cookie));
    const row = await prisma.subscription.findUniqueOrThrow({ where: { userId: user.id } });
    return { user, cookie, customer: row.stripeCustomerId, subscriptionId: `sub_${user.id}` };
  }

  it("follows free -> premium -> canceling -> past due -> premium -> free, and the limits follow", async () => {
    const { user, cookie, customer, subscriptionId } = await subscriber();
    await expect(limitsOf(user.id)).resolves.toEqual(FREE_LIMITS);
    const sub = (over: Partial<Parameters<typeof subscriptionObject>[0]>) =>
      subscriptionObject({ id: subscriptionId, customer, status: "active", periodStart: now, periodEnd: now + 30 * day, userId: user.id, ...over });

    // checkout completed: the subscription's state is read from Stripe (stripe-mock's is active)
    recorder.requests.length = 0;
    const completed = signedEvent(WEBHOOK_SECRET, {
      id: `evt_checkout_${user.id}`,
      type: "checkout.session.completed",
      created: now,
      object: { id: "cs_test_1", object: "checkout.session", mode: "subscription", customer, subscription: subscriptionId, client_reference_id: user.id, status: "complete" },
    });
    const applied = await deliver(completed);
    expect(applied.status).toBe(200);
    expect(await applied.json()).toEqual({ received: true, duplicate: false, type: "checkout.session.completed" });
    expect(requestsTo("GET", `/v1/subscriptions/${subscriptionId}`)).toHaveLength(1);
    const linked = await prisma.subscription.findUniqueOrThrow({ where: { userId: user.id } });
    expect(linked).toMatchObject({ stripeSubscriptionId: subscriptionId, stripeCustomerId: customer, status: "active" });
    // stripe-mock's fixture subscription has a period that ended in 2000, so access waits for a current period
    expect(linked.currentPeriodEnd!.getTime()).toBeLessThan(Date.now());
    expect(await statusOf(cookie)).toMatchObject({ hasActiveSubscription: false, accessLevel: "free" });

    // the subscription's own event carries its current period: premium
    expect((await deliver(signedEvent(WEBHOOK_SECRET, { id: `evt_updated_${user.id}`, type: "customer.subscription.updated", created: now + 1, object: sub({}) }))).status).toBe(200);
    expect(await statusOf(cookie)).toMatchObject({ hasActiveSubscription: true, accessLevel: "premium", subscription: { status: "active" } });
    await expect(limitsOf(user.id)).resolves.toEqual(PREMIUM_LIMITS);
    let status = await statusOf(cookie);
    expect(status.subscription).toEqual({
      status: "active",
      currentPeriodStart: new Date(now * 1000).toISOString(),
      currentPeriodEnd: new Date((now + 30 * day) * 1000).toISOString(),
      cancelAtPeriodEnd: false,
    });

    // canceled in the portal: 'Canceling', still premium until the period ends; delivered twice, applied once
    const canceling = signedEvent(WEBHOOK_SECRET, { id: `evt_cancel_${user.id}`, type: "customer.subscription.updated", created: now + 2, object: sub({ cancelAtPeriodEnd: true }) });
    expect(await (await deliver(canceling)).json()).toMatchObject({ duplicate: false });
    const again = await deliver(canceling);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ duplicate: true });
    await expect(prisma.stripeEvent.count({ where: { id: `evt_cancel_${user.id}` } })).resolves.toBe(1);
    status = await statusOf(cookie);
    expect(status).toMatchObject({ hasActiveSubscription: true, accessLevel: "premium", subscription: { cancelAtPeriodEnd: true } });

    // an older event arriving late is not applied as is: the subscription is read from Stripe instead
    recorder.requests.length = 0;
    const late = signedEvent(WEBHOOK_SECRET, { id: `evt_late_${user.id}`, type: "customer.subscription.updated", created: now - 10, object: sub({ status: "incomplete_expired" }) });
    expect((await deliver(late)).status).toBe(200);
    expect(requestsTo("GET", `/v1/subscriptions/${subscriptionId}`)).toHaveLength(1);
    status = await statusOf(cookie);
    expect(status.subscription.status).toBe("active");
    expect((await prisma.subscription.findUniqueOrThrow({ where: { userId: user.id } })).lastEventAt?.getTime()).toBe((now + 2) * 1000);

    // a failed renewal pauses premium; a paid invoice brings it back with the new period
    const invoice = (id: string) => ({ id, object: "invoice", customer, parent: { type: "subscription_details", subscription_details: { subscription: subscriptionId } } });
    await deliver(signedEvent(WEBHOOK_SECRET, { id: `evt_failed_${user.id}`, type: "invoice.payment_failed", created: now + 3, object: invoice("in_1") }));
    expect(await statusOf(cookie)).toMatchObject({ hasActiveSubscription: false, accessLevel: "free", subscription: { status: "past_due" } });
    await expect(limitsOf(user.id)).resolves.toEqual(FREE_LIMITS);

    const renewed = { start: now + 30 * day, end: now + 60 * day };
    await deliver(
      signedEvent(WEBHOOK_SECRET, {
        id: `evt_paid_${user.id}`,
        type: "invoice.paid",
        created: now + 4,
        object: { ...invoice("in_2"), lines: { object: "list", data: [{ id: "il_1", period: renewed }] } },
      }),
    );
    status = await statusOf(cookie);
    expect(status).toMatchObject({ hasActiveSubscription: true, accessLevel: "premium", subscription: { status: "active", currentPeriodEnd: new Date(renewed.end * 1000).toISOString() } });
    await expect(limitsOf(user.id)).resolves.toEqual(PREMIUM_LIMITS);

    // the period ended: the subscription is deleted, and the account is free again
    await deliver(signedEvent(WEBHOOK_SECRET, { id: `evt_deleted_${user.id}`, type: "customer.subscription.deleted", created: now + 5, object: sub({ status: "canceled" }) }));
    expect(await statusOf(cookie)).toMatchObject({ hasActiveSubscription: false, accessLevel: "free", subscription: { status: "canceled" } });
    await expect(limitsOf(user.id)).resolves.toEqual(FREE_LIMITS);
  });

  it("refuses a tampered body, a wrong secret, a stale timestamp or no signature with 400, and changes nothing", async () => {
    const { user, cookie, customer, subscriptionId } = await subscriber();
    const object = subscriptionObject({ id: subscriptionId, customer, status: "active", periodStart: now, periodEnd: now + 30 * day, userId: user.id });
    const event = { id: `evt_bad_${user.id}`, type: "customer.subscription.updated", created: now, object };

    const good = signedEvent(WEBHOOK_SECRET, event);
    const tampered = { body: good.body.replace('"status":"active"', '"status":"trialing"'), signature: good.signature };
    expect(tampered.body).not.toBe(good.body);
    const wrongSecret = signedEvent("whsec_somebody_else", event);
    const stale = signedEvent(WEBHOOK_SECRET, event, { timestamp: now - 3600 });

    for (const attempt of [tampered, wrongSecret, stale, { body: good.body, signature: "" }]) {
      const response = await deliver(attempt);
      expect(response.status).toBe(400);
      expect((await response.json()).message).toMatch(/Stripe-Signature|signature/);
    }
    await expect(prisma.stripeEvent.count({ where: { id: event.id } })).resolves.toBe(0);
    expect(await statusOf(cookie)).toMatchObject({ hasActiveSubscription: false, accessLevel: "free", subscription: null });

    // the same event, correctly signed, is applied
    expect((await deliver(good)).status).toBe(200);
    expect(await statusOf(cookie)).toMatchObject({ hasActiveSubscription: true, accessLevel: "premium" });
  });

  it("cancel sets cancel at period end in Stripe; access stays; the portal opens for the customer", async () => {
    const { user, cookie, customer, subscriptionId } = await subscriber();
    const object = subscriptionObject({ id: subscriptionId, customer, status: "active", periodStart: now, periodEnd: now + 30 * day, userId: user.id });
    await deliver(signedEvent(WEBHOOK_SECRET, { id: `evt_sub_${user.id}`, type: "customer.subscription.created", created: now, object }));

    recorder.requests.length = 0;
    const canceled = await call(cancelRoute.action, post("/api/subscription/cancel", cookie));
    expect(canceled.status).toBe(200);
    expect(await canceled.json()).toMatchObject({ hasActiveSubscription: true, accessLevel: "premium", subscription: { cancelAtPeriodEnd: true } });
    const [update] = requestsTo("POST", `/v1/subscriptions/${subscriptionId}`);
    expect(update!.params.get("cancel_at_period_end")).toBe("true");
    await expect(limitsOf(user.id)).resolves.toEqual(PREMIUM_LIMITS);

    const twice = await call(cancelRoute.action, post("/api/subscription/cancel", cookie));
    expect(twice.status).toBe(409);

    const portal = await call(portalRoute.loader, get("/api/subscription/portal", cookie));
    expect(portal.status).toBe(200);
    expect((await portal.json()).portalUrl).toMatch(/^https:\/\//);
    const [session] = requestsTo("POST", "/v1/billing_portal/sessions");
    expect(session!.params.get("customer")).toBe(customer);
    expect(session!.params.get("return_url")).toBe(`${url}/subscription`);
  });

  it("cancel without a subscription says so; the portal without a customer says so", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    const cancel = await call(cancelRoute.action, post("/api/subscription/cancel", cookie));
    expect(cancel.status).toBe(400);
    expect((await cancel.json()).message).toBe("You have no active subscription to cancel.");
    const portal = await call(portalRoute.loader, get("/api/subscription/portal", cookie));
    expect(portal.status).toBe(400);
    expect((await portal.json()).message).toBe("There is no billing account yet. Subscribe to Premium first.");
  });
});

describe("render quality follows the plan", () => {
  const renderAt = (cookie: string, quality?: number) =>
    call(
      renderRoute.action,
      new Request(`${url}/api/render-video`, {
        method: "POST",
        headers: { Cookie: cookie, "Content-Type": "application/json", Origin: url },
        body: quality ? JSON.stringify({ quality }) : undefined,
      }),
    );

  it("free renders 720p and is refused HD and 4K; premium renders HD by default and 4K when asked", async () => {
    const free = await createTestUser();
    const freeCookie = await sessionCookieFor(free.id);
    await seedRenderableProject({ userId: free.id, sceneSeconds: [0.5] });
    const refused = await renderAt(freeCookie, 2160);
    expect(refused.status).toBe(402);
    expect(await refused.json()).toMatchObject({ field: "quality", message: "4K 2160p is a Premium feature; the free plan renders up to 720p. Upgrade on the Subscription page (/subscription)." });
    expect((await renderAt(freeCookie, 1080)).status).toBe(402);

    const premium = await createTestUser();
    const premiumCookie = await sessionCookieFor(premium.id);
    await prisma.subscription.create({
      data: { userId: premium.id, stripeCustomerId: `cus_${premium.id}`, stripeSubscriptionId: `sub_${premium.id}`, status: "active", currentPeriodEnd: new Date(Date.now() + 86_400_000) },
    });
    const { projectId } = await seedRenderableProject({ userId: premium.id, sceneSeconds: [0.5] });
    const started = await renderAt(premiumCookie, 2160);
    expect(started.status).toBe(202);
    expect(await started.json()).toMatchObject({ started: true, width: 3840, height: 2160 });
    // no worker serves this file's queue: stop the run instead of rendering 4K on two cores
    await (await getTemporalClient()).workflow.getHandle(`render-${projectId}`).terminate("test: only the size was checked");

    const freeDefault = await createTestUser();
    await seedRenderableProject({ userId: freeDefault.id, sceneSeconds: [0.5] });
    const freeStarted = await renderAt(await sessionCookieFor(freeDefault.id));
    expect(await freeStarted.json()).toMatchObject({ width: 1280, height: 720 });
    const freeProject = await prisma.project.findFirstOrThrow({ where: { userId: freeDefault.id } });
    await (await getTemporalClient()).workflow.getHandle(`render-${freeProject.id}`).terminate("test: only the size was checked");
  });
});
