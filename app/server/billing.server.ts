// Billing with Stripe (spec sections 2, 3, 4 and 6): the 10 USD / month Premium plan through Stripe Checkout,
// the customer portal, cancel at period end, and the signed webhook that moves a user's access level.
// Without STRIPE_SECRET_KEY billing is off: nothing here calls Stripe and everyone has the premium features.
// The return from Checkout grants nothing by itself: only a verified webhook, or the session read from Stripe, does.
import Stripe from "stripe";
import type { Subscription, User } from "~/generated/prisma/client";
import { Prisma } from "~/generated/prisma/client";
import { prisma } from "~/core/db.server";
import { getEnv } from "~/core/env.server";
import { getAccessLevel, isBillingEnabled, isOwner, isSubscriptionActive, type AccessLevel } from "~/core/permissions.server";
import { refusal } from "~/core/refusal.server";

export const PREMIUM_PRICE = { unitAmount: 1000, currency: "usd", interval: "month", productName: "Reelsmith Premium" } as const;

export const BILLING_MESSAGES = {
  off: "Billing is not configured on this server (self-hosted mode): every signed-in user already has the premium features.",
  admin: "The owner account has every feature without a subscription.",
  alreadyPremium: "You already have Premium. Manage it with the billing portal.",
  noCustomer: "There is no billing account yet. Subscribe to Premium first.",
  noSubscription: "You have no active subscription to cancel.",
  alreadyCanceling: "Your subscription is already set to end at the close of the current period.",
  webhookSecretMissing: "STRIPE_WEBHOOK_SECRET is not set, so Stripe events cannot be verified.",
  badSignature: "The Stripe signature does not match this body (or it is too old).",
} as const;

type BillingUser = Pick<User, "id" | "email" | "name">;

declare global {
  var __reelsmithStripe: { key: string; client: Stripe } | undefined;
}

/** The Stripe client, pointed at STRIPE_API_URL (stripe-mock in tests). Throws 409 when billing is off. */
export function getStripe(): Stripe {
  const env = getEnv();
  if (!env.STRIPE_SECRET_KEY) throw refusal(409, BILLING_MESSAGES.off);
  if (globalThis.__reelsmithStripe?.key !== env.STRIPE_SECRET_KEY) {
    const api = new URL(env.STRIPE_API_URL);
    const protocol = api.protocol === "http:" ? "http" : "https";
    const client = new Stripe(env.STRIPE_SECRET_KEY, {
      host: api.hostname,
      port: api.port ? Number(api.port) : protocol === "http" ? 80 : 443,
      protocol,
      maxNetworkRetries: 2,
      timeout: 20_000,
      appInfo: { name: "Reelsmith" },
    });
    globalThis.__reelsmithStripe = { key: env.STRIPE_SECRET_KEY, client };
  }
  return globalThis.__reelsmithStripe!.client;
}

// ---- status ----

export type SubscriptionStatus = {
  billingEnabled: boolean;
  isAdmin: boolean;
  hasActiveSubscription: boolean;
  accessLevel: AccessLevel;
  subscription: {
    status: string;
    currentPeriodStart: string | null;
    currentPeriodEnd: string | null;
    cancelAtPeriodEnd: boolean;
  } | null;
};

/** GET /api/subscription/status. Reads only our database: no Stripe call. */
export async function getSubscriptionStatus(user: Pick<User, "id" | "email">): Promise<SubscriptionStatus> {
  const [accessLevel, row] = await Promise.all([getAccessLevel(user), prisma.subscription.findUnique({ where: { userId: user.id } })]);
  const hasSubscription = Boolean(row?.stripeSubscriptionId);
  return {
    billingEnabled: isBillingEnabled(),
    isAdmin: isOwner(user),
    hasActiveSubscription: hasSubscription && isSubscriptionActive(row),
    accessLevel,
    subscription:
      row && hasSubscription
        ? {
            status: row.status,
            currentPeriodStart: row.currentPeriodStart?.toISOString() ?? null,
            currentPeriodEnd: row.currentPeriodEnd?.toISOString() ?? null,
            cancelAtPeriodEnd: row.cancelAtPeriodEnd,
          }
        : null,
  };
}

// ---- checkout, portal, cancel ----

function requireBillableUser(user: Pick<User, "email">): void {
  if (!isBillingEnabled()) throw refusal(409, BILLING_MESSAGES.off);
  if (isOwner(user)) throw refusal(409, BILLING_MESSAGES.admin);
}

let cachedPriceId: { lookupKey: string; id: string } | undefined;

/** The Premium price, found by its lookup key; created (with its product) the first time. */
export async function premiumPriceId(): Promise<string> {
  const lookupKey = getEnv().STRIPE_PRICE_LOOKUP_KEY;
  if (cachedPriceId?.lookupKey === lookupKey) return cachedPriceId.id;
  const stripe = getStripe();
  const found = await stripe.prices.list({ lookup_keys: [lookupKey], active: true, limit: 1 });
  const price =
    found.data[0] ??
    (await stripe.prices.create({
      unit_amount: PREMIUM_PRICE.unitAmount,
      currency: PREMIUM_PRICE.currency,
      recurring: { interval: PREMIUM_PRICE.interval },
      lookup_key: lookupKey,
      product_data: { name: PREMIUM_PRICE.productName },
    }));
  cachedPriceId = { lookupKey, id: price.id };
  return price.id;
}

/** The user's Stripe customer id: the one we keep, or a new customer (recorded before anything else uses it). */
async function ensureCustomer(user: BillingUser): Promise<string> {
  const existing = await prisma.subscription.findUnique({ where: { userId: user.id }, select: { stripeCustomerId: true } });
  if (existing) return existing.stripeCustomerId;
  const customer = await getStripe().customers.create(
    { email: user.email, name: user.name ?? undefined, metadata: { userId: user.id } },
    { idempotencyKey: `customer-${user.id}` },
  );
  const row = await prisma.subscription.upsert({
    where: { userId: user.id },
    create: { userId: user.id, stripeCustomerId: customer.id, status: "none" },
    update: {},
  });
  return row.stripeCustomerId;
}

/** POST /api/subscription/checkout: a Checkout Session for Premium; its URL. */
export async function createCheckoutSession(user: BillingUser, origin: string): Promise<{ checkoutUrl: string }> {
  requireBillableUser(user);
  const row = await prisma.subscription.findUnique({ where: { userId: user.id } });
  if (row?.stripeSubscriptionId && isSubscriptionActive(row)) throw refusal(409, BILLING_MESSAGES.alreadyPremium);
  const [customer, price] = await Promise.all([ensureCustomer(user), premiumPriceId()]);
  const session = await getStripe().checkout.sessions.create({
    mode: "subscription",
    customer,
    client_reference_id: user.id,
    line_items: [{ price, quantity: 1 }],
    metadata: { userId: user.id },
    subscription_data: { metadata: { userId: user.id } },
    success_url: `${origin}/subscription?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${origin}/subscription?checkout=cancelled`,
  });
  if (!session.url) throw refusal(502, "Stripe created the checkout session without a URL. Try again.");
  return { checkoutUrl: session.url };
}

/** GET /api/subscription/portal: a Billing Portal session for the user's customer; its URL. */
export async function createPortalSession(user: BillingUser, origin: string): Promise<{ portalUrl: string }> {
  requireBillableUser(user);
  const row = await prisma.subscription.findUnique({ where: { userId: user.id } });
  if (!row) throw refusal(400, BILLING_MESSAGES.noCustomer);
  const session = await getStripe().billingPortal.sessions.create({ customer: row.stripeCustomerId, return_url: `${origin}/subscription` });
  return { portalUrl: session.url };
}

/** POST /api/subscription/cancel: cancel at the end of the paid period ('Canceling'); access stays until then. */
export async function cancelSubscription(user: BillingUser): Promise<SubscriptionStatus> {
  requireBillableUser(user);
  const row = await prisma.subscription.findUnique({ where: { userId: user.id } });
  if (!row?.stripeSubscriptionId || !isSubscriptionActive(row)) throw refusal(400, BILLING_MESSAGES.noSubscription);
  if (row.cancelAtPeriodEnd) throw refusal(409, BILLING_MESSAGES.alreadyCanceling);
  await getStripe().subscriptions.update(row.stripeSubscriptionId, { cancel_at_period_end: true });
  // Stripe accepted it; its customer.subscription.updated event confirms the same state later.
  await prisma.subscription.update({ where: { id: row.id }, data: { cancelAtPeriodEnd: true } });
  return getSubscriptionStatus(user);
}

// ---- applying Stripe's state ----

const idOf = (value: string | { id: string } | null | undefined): string | null => (typeof value === "string" ? value : (value?.id ?? null));
const fromUnix = (seconds: number | null | undefined): Date | null => (typeof seconds === "number" ? new Date(seconds * 1000) : null);

/** The paid period: on the subscription's item since API 2025-03-31, on the subscription itself before. */
function periodOf(subscription: Stripe.Subscription): { start: Date | null; end: Date | null } {
  const item = subscription.items?.data?.[0] as (Stripe.SubscriptionItem & { current_period_start?: number; current_period_end?: number }) | undefined;
  const legacy = subscription as Stripe.Subscription & { current_period_start?: number; current_period_end?: number };
  return {
    start: fromUnix(item?.current_period_start ?? legacy.current_period_start),
    end: fromUnix(item?.current_period_end ?? legacy.current_period_end),
  };
}

/** The row a Stripe object belongs to: by subscription id, then customer id, then the user id we put in metadata. */
async function findRow(ref: { subscriptionId?: string | null; customerId?: string | null; userId?: string | null }): Promise<Subscription | null> {
  if (ref.subscriptionId) {
    const bySubscription = await prisma.subscription.findUnique({ where: { stripeSubscriptionId: ref.subscriptionId } });
    if (bySubscription) return bySubscription;
  }
  if (ref.customerId) {
    const byCustomer = await prisma.subscription.findUnique({ where: { stripeCustomerId: ref.customerId } });
    if (byCustomer) return byCustomer;
  }
  if (ref.userId) return prisma.subscription.findUnique({ where: { userId: ref.userId } });
  return null;
}

type SubscriptionState = Pick<Subscription, "status" | "cancelAtPeriodEnd"> & Partial<Pick<Subscription, "currentPeriodStart" | "currentPeriodEnd">>;

function stateOf(subscription: Stripe.Subscription): SubscriptionState {
  const { start, end } = periodOf(subscription);
  return {
    status: subscription.status,
    // Cancelling in the portal may set cancel_at instead of cancel_at_period_end: both end the plan later.
    cancelAtPeriodEnd: subscription.cancel_at_period_end || (subscription.cancel_at != null && subscription.status !== "canceled"),
    currentPeriodStart: start,
    currentPeriodEnd: end,
  };
}

/** Writes a subscription's state onto the user's row (creating it when the user had none). */
async function writeState(
  target: { row: Subscription | null; userId: string | null; customerId: string | null },
  subscriptionId: string,
  state: SubscriptionState,
  eventAt: Date | null,
): Promise<void> {
  const data = {
    stripeSubscriptionId: subscriptionId,
    status: state.status,
    cancelAtPeriodEnd: state.cancelAtPeriodEnd,
    ...(state.currentPeriodStart !== undefined ? { currentPeriodStart: state.currentPeriodStart } : {}),
    ...(state.currentPeriodEnd !== undefined ? { currentPeriodEnd: state.currentPeriodEnd } : {}),
    ...(eventAt ? { lastEventAt: eventAt } : {}),
  };
  if (target.row) {
    await prisma.subscription.update({ where: { id: target.row.id }, data });
    return;
  }
  if (!target.userId || !target.customerId) return;
  const user = await prisma.user.findUnique({ where: { id: target.userId }, select: { id: true } });
  if (!user) return;
  await prisma.subscription.upsert({
    where: { userId: user.id },
    create: { userId: user.id, stripeCustomerId: target.customerId, ...data },
    update: data,
  });
}

/** Stripe's current state of the subscription: what an out-of-order event is replaced by. */
async function applyCurrentFromStripe(
  subscriptionId: string,
  target: { row: Subscription | null; userId: string | null; customerId: string | null },
): Promise<void> {
  const current = await getStripe().subscriptions.retrieve(subscriptionId);
  await writeState(target, subscriptionId, stateOf(current), null);
}

const isStale = (row: Subscription | null, eventAt: Date) => Boolean(row?.lastEventAt && eventAt.getTime() < row.lastEventAt.getTime());

async function onCheckoutCompleted(session: Stripe.Checkout.Session, eventAt: Date): Promise<void> {
  if (session.mode !== "subscription") return;
  const subscriptionId = idOf(session.subscription);
  const customerId = idOf(session.customer);
  const userId = session.client_reference_id ?? session.metadata?.userId ?? null;
  if (!subscriptionId) return;
  const row = await findRow({ subscriptionId, customerId, userId });
  // The session says nothing about the subscription's state: read it from Stripe.
  const current = await getStripe().subscriptions.retrieve(subscriptionId);
  await writeState({ row, userId, customerId }, subscriptionId, stateOf(current), isStale(row, eventAt) ? null : eventAt);
}

async function onSubscriptionEvent(subscription: Stripe.Subscription, eventAt: Date): Promise<void> {
  const customerId = idOf(subscription.customer);
  const userId = subscription.metadata?.userId ?? null;
  const row = await findRow({ subscriptionId: subscription.id, customerId, userId });
  const target = { row, userId, customerId };
  if (isStale(row, eventAt)) return applyCurrentFromStripe(subscription.id, target);
  await writeState(target, subscription.id, stateOf(subscription), eventAt);
}

function invoiceSubscriptionId(invoice: Stripe.Invoice): string | null {
  const parent = (invoice as Stripe.Invoice & { parent?: { subscription_details?: { subscription?: string | { id: string } | null } | null } | null }).parent;
  const legacy = (invoice as Stripe.Invoice & { subscription?: string | { id: string } | null }).subscription;
  return idOf(parent?.subscription_details?.subscription) ?? idOf(legacy);
}

async function onInvoiceEvent(invoice: Stripe.Invoice, paid: boolean, eventAt: Date): Promise<void> {
  const subscriptionId = invoiceSubscriptionId(invoice);
  if (!subscriptionId) return;
  const customerId = idOf(invoice.customer);
  const row = await findRow({ subscriptionId, customerId });
  if (!row) return;
  const target = { row, userId: row.userId, customerId };
  if (isStale(row, eventAt)) return applyCurrentFromStripe(subscriptionId, target);
  if (paid) {
    // A paid invoice renews the plan: its subscription line carries the new period.
    const line = invoice.lines?.data?.find((l) => l.period) ?? null;
    await writeState(target, subscriptionId, {
      status: "active",
      cancelAtPeriodEnd: row.cancelAtPeriodEnd,
      ...(line ? { currentPeriodStart: fromUnix(line.period.start), currentPeriodEnd: fromUnix(line.period.end) } : {}),
    }, eventAt);
  } else {
    // Stripe marks the subscription past_due after a failed renewal: Premium pauses until a payment succeeds.
    await writeState(target, subscriptionId, { status: "past_due", cancelAtPeriodEnd: row.cancelAtPeriodEnd }, eventAt);
  }
}

/** Applies one verified event. Unknown types are accepted and ignored. */
async function applyEvent(event: Stripe.Event): Promise<void> {
  const eventAt = new Date(event.created * 1000);
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded":
      return onCheckoutCompleted(event.data.object, eventAt);
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted":
    case "customer.subscription.paused":
    case "customer.subscription.resumed":
      return onSubscriptionEvent(event.data.object, eventAt);
    case "invoice.paid":
    case "invoice.payment_succeeded":
      return onInvoiceEvent(event.data.object, true, eventAt);
    case "invoice.payment_failed":
      return onInvoiceEvent(event.data.object, false, eventAt);
    default:
      return;
  }
}

export const WEBHOOK_MAX_BYTES = 512 * 1024;

export type WebhookOutcome = { received: true; duplicate: boolean; type: string };

/**
 * POST /api/stripe/webhook: verifies the signature on the raw body with the endpoint secret, then applies the
 * event once. A failure to apply removes the event's record and answers 500, so Stripe delivers it again.
 */
export async function handleStripeWebhook(rawBody: string, signature: string | null): Promise<WebhookOutcome> {
  const env = getEnv();
  if (!env.STRIPE_SECRET_KEY) throw refusal(404, BILLING_MESSAGES.off);
  if (!env.STRIPE_WEBHOOK_SECRET) throw refusal(503, BILLING_MESSAGES.webhookSecretMissing);
  if (!signature) throw refusal(400, "The Stripe-Signature header is missing.", { field: "Stripe-Signature" });
  let event: Stripe.Event;
  try {
    event = getStripe().webhooks.constructEvent(rawBody, signature, env.STRIPE_WEBHOOK_SECRET);
  } catch {
    throw refusal(400, BILLING_MESSAGES.badSignature, { field: "Stripe-Signature" });
  }
  try {
    await prisma.stripeEvent.create({ data: { id: event.id, type: event.type } });
  } catch (e) {
    if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002") return { received: true, duplicate: true, type: event.type };
    throw e;
  }
  try {
    await applyEvent(event);
  } catch (e) {
    await prisma.stripeEvent.deleteMany({ where: { id: event.id } });
    console.error(`Stripe event ${event.id} (${event.type}) could not be applied:`, e);
    throw refusal(500, `The event ${event.id} could not be applied; Stripe will deliver it again.`);
  }
  return { received: true, duplicate: false, type: event.type };
}

/**
 * The return from Checkout (`?session_id=`): the session is read from Stripe, and only a completed session of
 * this same user applies its subscription. The URL alone grants nothing.
 */
export async function syncCheckoutSession(user: Pick<User, "id" | "email">, sessionId: string): Promise<boolean> {
  if (!isBillingEnabled() || isOwner(user) || !/^cs_[A-Za-z0-9_]{1,250}$/.test(sessionId)) return false;
  const session = await getStripe().checkout.sessions.retrieve(sessionId);
  if (session.client_reference_id !== user.id || session.status !== "complete" || session.mode !== "subscription") return false;
  const subscriptionId = idOf(session.subscription);
  if (!subscriptionId) return false;
  const customerId = idOf(session.customer);
  const row = await findRow({ subscriptionId, customerId, userId: user.id });
  if (row && row.userId !== user.id) return false;
  await applyCurrentFromStripe(subscriptionId, { row, userId: user.id, customerId });
  return true;
}
