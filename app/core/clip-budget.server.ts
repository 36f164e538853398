// Cost before spending (issue 50, decision 224): the estimate for a video's AI clips from the price table, the
// creator's monthly budget and per-video cap, a refusal with the figures before any provider is called, and the
// spend recorded per generation.
import type { ClipSettings } from "~/generated/prisma/client";
import { clipBudgetVerdict, UNCHARGED_CLIP_STATUS, type ClipBudgetFigures } from "~/lib/clip-budget-rule";
import { clipPrice, estimateClips, type ClipModelPrice } from "~/lib/clip-prices";
import type { ClipProviderId } from "~/providers/video/types";
import { prisma } from "~/core/db.server";
import { decryptSecret, encryptSecret } from "~/core/encryption.server";
import { CLIP_BUDGET_REFUSED } from "../../workflows/shared/ai-clips";

export class ClipBudgetRefusal extends Error {
  readonly type = CLIP_BUDGET_REFUSED;
  constructor(
    message: string,
    readonly figures: ClipBudgetFigures,
  ) {
    super(message);
    this.name = CLIP_BUDGET_REFUSED;
  }
}

const RUNWAY_KEY_FIELD = "runwayApiKey";

export async function getClipSettings(userId: string): Promise<ClipSettings | null> {
  return prisma.clipSettings.findUnique({ where: { userId } });
}

export async function getRunwayKey(userId: string): Promise<string | undefined> {
  const row = await getClipSettings(userId);
  return row?.runwayApiKeyEnc ? decryptSecret(row.runwayApiKeyEnc, { userId, field: RUNWAY_KEY_FIELD }) : undefined;
}

/** Saves the limits (null clears one) and, when given, the Runway key ("" removes it). */
export async function saveClipSettings(userId: string, input: { monthlyBudgetCents?: number | null; videoCapCents?: number | null; runwayApiKey?: string }) {
  const data: { monthlyBudgetCents?: number | null; videoCapCents?: number | null; runwayApiKeyEnc?: string | null } = {};
  if (input.monthlyBudgetCents !== undefined) data.monthlyBudgetCents = input.monthlyBudgetCents;
  if (input.videoCapCents !== undefined) data.videoCapCents = input.videoCapCents;
  if (input.runwayApiKey !== undefined) data.runwayApiKeyEnc = input.runwayApiKey.trim() ? encryptSecret(input.runwayApiKey.trim(), { userId, field: RUNWAY_KEY_FIELD }) : null;
  return prisma.clipSettings.upsert({ where: { userId }, create: { userId, ...data }, update: data });
}

const monthStart = (now = new Date()) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));

/**
 * What the creator spent on AI clips this calendar month (UTC) and on this video, in cents: every generation the
 * service accepted except those it ended without a video (decision 270: not charged).
 */
export async function clipSpend(userId: string, projectId: string): Promise<{ monthCents: number; videoCents: number }> {
  const charged = { status: { not: UNCHARGED_CLIP_STATUS } };
  const [month, video] = await Promise.all([
    prisma.clipGeneration.aggregate({ where: { userId, createdAt: { gte: monthStart() }, ...charged }, _sum: { costCents: true } }),
    prisma.clipGeneration.aggregate({ where: { userId, projectId, ...charged }, _sum: { costCents: true } }),
  ]);
  return { monthCents: month._sum.costCents ?? 0, videoCents: video._sum.costCents ?? 0 };
}

/**
 * Refuses `estimateCents` more when it would pass the monthly budget or the video's cap, saying the figures: the
 * rule the Animate panel offers by (app/lib/clip-budget-rule.ts). Called before any provider request.
 */
export async function checkClipBudget(userId: string, projectId: string, estimateCents: number): Promise<void> {
  const [settings, spent] = await Promise.all([getClipSettings(userId), clipSpend(userId, projectId)]);
  const verdict = clipBudgetVerdict(estimateCents, { monthlyBudgetCents: settings?.monthlyBudgetCents ?? null, videoCapCents: settings?.videoCapCents ?? null }, spent);
  if (!verdict.allowed) throw new ClipBudgetRefusal(verdict.message, verdict.figures);
}

/** A scene's length for its clip: the measured voiceover, else the storyboard's estimate. */
export const sceneSeconds = (cell: { audioDuration: number | null; estimatedDuration: number }) => cell.audioDuration ?? cell.estimatedDuration;

/** The estimate shown before anything starts: per scene and for the video, with the budget's figures. */
export async function clipEstimateFor(userId: string, projectId: string, provider: ClipProviderId, cellIndexes?: number[]) {
  const price: ClipModelPrice = clipPrice(provider);
  const cells = await prisma.storyboardCell.findMany({
    where: { storyboard: { projectId, project: { userId } }, ...(cellIndexes ? { cellIndex: { in: cellIndexes } } : {}) },
    orderBy: { cellIndex: "asc" },
  });
  const estimate = estimateClips(
    price,
    cells.map((c) => ({ cellIndex: c.cellIndex, sceneSeconds: sceneSeconds(c) })),
  );
  const [settings, spent] = await Promise.all([getClipSettings(userId), clipSpend(userId, projectId)]);
  return {
    model: { provider: price.provider, model: price.model, label: price.label, centsPerSecond: price.centsPerSecond, asOf: price.asOf, source: price.source },
    ...estimate,
    spent,
    monthlyBudgetCents: settings?.monthlyBudgetCents ?? null,
    videoCapCents: settings?.videoCapCents ?? null,
  };
}

/** The spend of one paid job, recorded once (its id is unique) when the service accepted it. */
export async function recordClipSpend(row: { userId: string; projectId: string; cellIndex: number; provider: ClipProviderId; model: string; jobId: string; seconds: number; costCents: number; source: "picture" | "words" }) {
  await prisma.clipGeneration.upsert({ where: { jobId: row.jobId }, create: row, update: {} });
}

export async function markClipGeneration(jobId: string, status: "succeeded" | "failed") {
  await prisma.clipGeneration.updateMany({ where: { jobId }, data: { status } });
}

/** The creator's AI clip settings as Settings shows them: limits in cents, whether a Runway key is saved. */
export async function clipSettingsView(userId: string) {
  const row = await getClipSettings(userId);
  return { monthlyBudgetCents: row?.monthlyBudgetCents ?? null, videoCapCents: row?.videoCapCents ?? null, hasRunwayKey: Boolean(row?.runwayApiKeyEnc) };
}

/** What the video's AI clips cost so far, per generation, newest first (shown on the storyboard). */
export async function clipSpendFor(userId: string, projectId: string) {
  const rows = await prisma.clipGeneration.findMany({ where: { userId, projectId }, orderBy: { createdAt: "desc" }, take: 200 });
  const spent = await clipSpend(userId, projectId);
  return {
    ...spent,
    generations: rows.map((r) => ({ cellIndex: r.cellIndex, provider: r.provider, model: r.model, seconds: r.seconds, costCents: r.costCents, status: r.status, createdAt: r.createdAt.toISOString() })),
  };
}
