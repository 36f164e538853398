// The one budget rule (decisions 224, 270): what the Animate panel offers and what the server refuses.
import { describe, expect, it } from "vitest";
import { clipBudgetLeft, clipBudgetVerdict } from "./clip-budget-rule";

const none = { monthlyBudgetCents: null, videoCapCents: null };

describe("clipBudgetVerdict", () => {
  it("refuses one 4 s Veo clip ($0.60) with $0.40 of the monthly budget left, with the figures and the words", () => {
    const verdict = clipBudgetVerdict(60, { monthlyBudgetCents: 150, videoCapCents: null }, { monthCents: 110, videoCents: 110 });
    expect(verdict).toEqual({
      allowed: false,
      message:
        "Not started: these AI clips would cost $0.60, and $0.40 is left of your monthly AI clip budget of $1.50 ($1.10 spent this month). Raise the budget in Settings, or animate fewer scenes.",
      figures: { estimateCents: 60, limitCents: 150, spentCents: 110, limit: "month" },
    });
  });
  it("refuses over the cap per video, counting only this video's spend", () => {
    const verdict = clipBudgetVerdict(60, { monthlyBudgetCents: 1000, videoCapCents: 100 }, { monthCents: 110, videoCents: 60 });
    expect(verdict.allowed).toBe(false);
    if (!verdict.allowed) {
      expect(verdict.message).toContain("would cost $0.60, and $0.40 is left of the $1.00 cap per video ($0.60 spent on this video)");
      expect(verdict.figures.limit).toBe("video");
    }
  });
  it("allows what fits exactly, and says what is left (before it) of the tighter limit", () => {
    expect(clipBudgetVerdict(40, { monthlyBudgetCents: 150, videoCapCents: 500 }, { monthCents: 110, videoCents: 0 })).toEqual({ allowed: true, leftCents: 40 });
    expect(clipBudgetVerdict(25, { monthlyBudgetCents: 500, videoCapCents: 100 }, { monthCents: 50, videoCents: 50 })).toEqual({ allowed: true, leftCents: 50 });
    expect(clipBudgetVerdict(10_000, none, { monthCents: 9_999, videoCents: 0 })).toEqual({ allowed: true, leftCents: null });
  });
  it("never says less than nothing is left when a budget was lowered below the spend", () => {
    expect(clipBudgetLeft({ monthlyBudgetCents: 100, videoCapCents: null }, { monthCents: 150, videoCents: 0 })).toBe(0);
    const verdict = clipBudgetVerdict(5, { monthlyBudgetCents: 100, videoCapCents: null }, { monthCents: 150, videoCents: 0 });
    expect(!verdict.allowed && verdict.message).toContain("$0.00 is left");
  });
});
