// What the subscription page and the dashboard say about a plan, from GET /api/subscription/status.

/** What an account may do: the owner is admin; without billing everyone is premium (app/core/permissions.server.ts). */
export type AccessLevel = "admin" | "premium" | "free";

export const SUBSCRIPTION_PRICE_LABEL = "10 USD / month";

export type SubscriptionStatusData = {
  billingEnabled: boolean;
  isAdmin: boolean;
  hasActiveSubscription: boolean;
  accessLevel: AccessLevel;
  subscription: { status: string; currentPeriodStart: string | null; currentPeriodEnd: string | null; cancelAtPeriodEnd: boolean } | null;
};

/** The page's states: billing off, admin, free, premium, canceling (premium until the period ends), lapsed (payment due). */
export type PlanState = "off" | "admin" | "free" | "premium" | "canceling" | "lapsed";

export function planState(s: SubscriptionStatusData): PlanState {
  if (s.isAdmin) return "admin";
  if (!s.billingEnabled) return "off";
  if (s.hasActiveSubscription) return s.subscription?.cancelAtPeriodEnd ? "canceling" : "premium";
  if (s.subscription && ["past_due", "unpaid", "incomplete"].includes(s.subscription.status)) return "lapsed";
  return "free";
}

/** Spec section 6. */
export const PLAN_FEATURES = {
  free: ["One project", "Basic quality (up to 720p)", "No background music", "No direct YouTube upload"],
  premium: ["Unlimited projects", "HD and 4K renders", "AI background music", "Direct YouTube upload", "Priority support"],
} as const;
