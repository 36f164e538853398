import { describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.SESSION_SECRET = "unit-test-session-secret-of-32-characters";
  process.env.ENCRYPTION_KEY = "0".repeat(64);
  process.env.OWNER_EMAIL = "Owner@Example.com";
});

const { isOwner, isSubscriptionActive } = await import("./permissions.server");

describe("isOwner", () => {
  it("matches OWNER_EMAIL whatever the case", () => {
    expect(isOwner({ email: "owner@example.com" })).toBe(true);
    expect(isOwner({ email: "someone@example.com" })).toBe(false);
  });
});

describe("isSubscriptionActive", () => {
  const now = new Date("2025-06-01T00:00:00Z");
  it("counts active and trialing subscriptions until the paid period ends", () => {
    expect(isSubscriptionActive({ status: "active", currentPeriodEnd: new Date("2025-06-30T00:00:00Z") }, now)).toBe(true);
    expect(isSubscriptionActive({ status: "trialing", currentPeriodEnd: null }, now)).toBe(true);
    expect(isSubscriptionActive({ status: "active", currentPeriodEnd: new Date("2025-05-31T00:00:00Z") }, now)).toBe(false);
  });

  it("does not count missing, cancelled or unpaid subscriptions", () => {
    expect(isSubscriptionActive(null, now)).toBe(false);
    expect(isSubscriptionActive({ status: "canceled", currentPeriodEnd: new Date("2025-06-30T00:00:00Z") }, now)).toBe(false);
    expect(isSubscriptionActive({ status: "past_due", currentPeriodEnd: null }, now)).toBe(false);
  });
});
