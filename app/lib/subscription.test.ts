import { describe, expect, it } from "vitest";
import { planState, type SubscriptionStatusData } from "./subscription";

const base: SubscriptionStatusData = { billingEnabled: true, isAdmin: false, hasActiveSubscription: false, accessLevel: "free", subscription: null };
const period = { currentPeriodStart: "2026-11-01T00:00:00.000Z", currentPeriodEnd: "2026-12-01T00:00:00.000Z" };

describe("planState", () => {
  it("names each state the subscription page shows", () => {
    expect(planState({ ...base, billingEnabled: false, accessLevel: "premium" })).toBe("off");
    expect(planState({ ...base, isAdmin: true, accessLevel: "admin" })).toBe("admin");
    expect(planState({ ...base, billingEnabled: false, isAdmin: true, accessLevel: "admin" })).toBe("admin");
    expect(planState(base)).toBe("free");
    const active = { ...base, hasActiveSubscription: true, accessLevel: "premium" as const };
    expect(planState({ ...active, subscription: { status: "active", cancelAtPeriodEnd: false, ...period } })).toBe("premium");
    expect(planState({ ...active, subscription: { status: "active", cancelAtPeriodEnd: true, ...period } })).toBe("canceling");
    expect(planState({ ...base, subscription: { status: "past_due", cancelAtPeriodEnd: false, ...period } })).toBe("lapsed");
    expect(planState({ ...base, subscription: { status: "canceled", cancelAtPeriodEnd: false, ...period } })).toBe("free");
  });
});
