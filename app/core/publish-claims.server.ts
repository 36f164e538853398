// A publish claimed once (decision 270): before an upload starts at a platform, its attempt claims the row keyed by
// the run's upload and the platform. Temporal can run two attempts of one activity at once (it timed out the first,
// under load, while that one still ran): without the claim both would open an upload session and each would post
// the video. The claim's winner starts the upload; the other waits for the session it saves and continues it. The
// platform's id is written on the claim as soon as the upload finished, and checked first by any later attempt.
import { Prisma } from "~/generated/prisma/client";
import { prisma } from "~/core/db.server";

/** A claim whose holder saved no session within this long was left by an attempt that died before the platform
 * answered (nothing was sent): it is taken over. */
export const PUBLISH_CLAIM_STALE_MS = 60_000;
/** Finished claims are pruned after this long: no retry of their upload runs that late. */
const CLAIMS_KEPT_MS = 30 * 24 * 3600_000;

export const publishClaimKey = (uploadId: string, platform: "youtube" | "tiktok" | "instagram") => `${uploadId}/${platform}`;

export type PublishClaimState = { won: true } | { won: false; holder: string; claimedAt: Date; remoteId: string | null };

/**
 * Claims `key` for `holder`: won when no attempt holds it, or when its holder is `holder` already, or when it is
 * older than `staleMs` with nothing published (taken over); otherwise who holds it, since when, and what it
 * published.
 */
export async function claimPublish(key: string, holder: string, staleMs = PUBLISH_CLAIM_STALE_MS): Promise<PublishClaimState> {
  try {
    await prisma.publishClaim.create({ data: { key, holder, claimedAt: new Date() } });
    await prisma.publishClaim.deleteMany({ where: { finishedAt: { lt: new Date(Date.now() - CLAIMS_KEPT_MS) } } }).catch(() => {});
    return { won: true };
  } catch (e) {
    if (!(e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002")) throw e;
  }
  // one guarded update: two attempts taking over a stale claim cannot both win it
  const taken = await prisma.publishClaim.updateMany({
    where: { key, remoteId: null, OR: [{ holder }, { claimedAt: { lt: new Date(Date.now() - staleMs) } }] },
    data: { holder, claimedAt: new Date() },
  });
  if (taken.count === 1) return { won: true };
  const row = await prisma.publishClaim.findUnique({ where: { key } });
  // released meanwhile (its holder's start was refused): claim it again
  if (!row) return claimPublish(key, holder, staleMs);
  return { won: false, holder: row.holder, claimedAt: row.claimedAt, remoteId: row.remoteId };
}

/** What was published under `key`, if anything (checked before any upload starts). */
export async function publishedUnder(key: string): Promise<string | null> {
  return (await prisma.publishClaim.findUnique({ where: { key }, select: { remoteId: true } }))?.remoteId ?? null;
}

/** Gives the claim up (its upload could not start), so the next attempt claims it at once. */
export async function releasePublish(key: string, holder: string): Promise<void> {
  await prisma.publishClaim.deleteMany({ where: { key, holder, remoteId: null } });
}

/** Writes what was published: a later attempt finds it before anything else, even if the upload's own row was not updated. */
export async function finishPublish(key: string, remoteId: string): Promise<void> {
  await prisma.publishClaim.upsert({ where: { key }, create: { key, holder: "finished", remoteId, finishedAt: new Date() }, update: { remoteId, finishedAt: new Date() } });
}
