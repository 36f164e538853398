// The one rule that says whether AI clips fit the creator's budget (issue 50, decisions 224 and 270): the web's
// Animate panel offers only what it allows, and the server (the web route, the workflow's first activity, each
// scene's activity) refuses what it does not, in the same words. No I/O: the caller brings the figures.
import { dollars } from "./clip-prices";

/** The creator's limits, in cents; null means none. */
export type ClipLimits = { monthlyBudgetCents: number | null; videoCapCents: number | null };
/** What counts against them (decision 270: clips not failed), in cents. */
export type ClipSpent = { monthCents: number; videoCents: number };
export type ClipBudgetFigures = { estimateCents: number; limitCents: number; spentCents: number; limit: "month" | "video" };
export type ClipBudgetVerdict = { allowed: true; leftCents: number | null } | { allowed: false; message: string; figures: ClipBudgetFigures };

/** What may still be spent before either limit is passed; null when neither is set. */
export function clipBudgetLeft(limits: ClipLimits, spent: ClipSpent): number | null {
  const left = [
    limits.monthlyBudgetCents === null ? null : limits.monthlyBudgetCents - spent.monthCents,
    limits.videoCapCents === null ? null : limits.videoCapCents - spent.videoCents,
  ].filter((n): n is number => n !== null);
  return left.length ? Math.max(0, Math.min(...left)) : null;
}

/**
 * Whether `estimateCents` more fits the monthly budget and the video's cap: allowed, or refused with the figures and
 * the words the creator reads ("Not started: these AI clips would cost $0.60, and $0.40 is left of ...").
 */
export function clipBudgetVerdict(estimateCents: number, limits: ClipLimits, spent: ClipSpent): ClipBudgetVerdict {
  const month = limits.monthlyBudgetCents;
  if (month !== null && spent.monthCents + estimateCents > month) {
    const left = Math.max(0, month - spent.monthCents);
    return {
      allowed: false,
      message: `Not started: these AI clips would cost ${dollars(estimateCents)}, and ${dollars(left)} is left of your monthly AI clip budget of ${dollars(month)} (${dollars(spent.monthCents)} spent this month). Raise the budget in Settings, or animate fewer scenes.`,
      figures: { estimateCents, limitCents: month, spentCents: spent.monthCents, limit: "month" },
    };
  }
  const cap = limits.videoCapCents;
  if (cap !== null && spent.videoCents + estimateCents > cap) {
    const left = Math.max(0, cap - spent.videoCents);
    return {
      allowed: false,
      message: `Not started: these AI clips would cost ${dollars(estimateCents)}, and ${dollars(left)} is left of the ${dollars(cap)} cap per video (${dollars(spent.videoCents)} spent on this video). Raise the cap in Settings, or animate fewer scenes.`,
      figures: { estimateCents, limitCents: cap, spentCents: spent.videoCents, limit: "video" },
    };
  }
  return { allowed: true, leftCents: clipBudgetLeft(limits, spent) };
}

/**
 * The one generation status that does not count as spent (decision 270): the service ended the job without a video
 * and charges nothing for it. A running job counts (it will be charged if it delivers), and so does one cancelled or
 * lost mid-way (the services do not say it is free).
 */
export const UNCHARGED_CLIP_STATUS = "failed";
