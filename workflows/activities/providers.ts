// The providers an activity uses for a user: the cloud service when the user saved its key, offline otherwise.
// They work for the activity's attempt (decision 200): one request per attempt, cut at the attempt's deadline and
// cancellation, heartbeating while they wait, paid jobs' ids kept in the database before they are polled.
import { ApplicationFailure, Context } from "@temporalio/activity";
import type { JobLedger, ProviderCall } from "~/providers/call";
import { providersFor, stockMediaFor, type ProviderTuning } from "~/providers/index.server";
import { Prisma } from "~/generated/prisma/client";
import { prisma } from "~/core/db.server";
import { getProviderKeys } from "~/core/settings.server";
// the owner's uploaded voices, from media storage, for the offline voice provider (decision 210)
import "~/core/stored-voices.server";

/** Ledger rows older than this are pruned: no activity attempt runs that long after its job started. */
const JOB_ROWS_KEPT_MS = 7 * 24 * 3600_000;

/** When each activity attempt (its Context) first asked for providers: its start-to-close runs from about then. */
const attemptStarted = new WeakMap<Context, number>();

/**
 * The ledger of paid jobs for one activity (its workflow run and activity id, the same in every attempt and on
 * every worker): a retry, or a new worker after one was killed, finds the job the first attempt started.
 */
export function providerJobLedger(scope: string): JobLedger {
  const key = (name: string) => `${scope}/${name}`;
  return {
    async recall(name) {
      // an empty id is a claim whose create request has not been answered yet (claim, below)
      return (await prisma.providerJob.findUnique({ where: { key: key(name) } }))?.jobId || undefined;
    },
    async remember(name, jobId) {
      await prisma.providerJob.upsert({ where: { key: key(name) }, create: { key: key(name), jobId }, update: { jobId, createdAt: new Date() } });
      await prisma.providerJob.deleteMany({ where: { createdAt: { lt: new Date(Date.now() - JOB_ROWS_KEPT_MS) } } }).catch(() => {});
    },
    async forget(name) {
      await prisma.providerJob.deleteMany({ where: { key: key(name) } });
    },
    async claim(name) {
      // one row per key: the create that lands wins; the others find the row (and its job's id once remembered)
      try {
        await prisma.providerJob.create({ data: { key: key(name), jobId: "", createdAt: new Date() } });
        return { won: true };
      } catch (e) {
        if (!(e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002")) throw e;
      }
      const row = await prisma.providerJob.findUnique({ where: { key: key(name) } });
      // the winner gave its claim up meanwhile (its request refused): try again
      if (!row) return this.claim!(name);
      return { won: false, jobId: row.jobId || undefined, claimedAt: row.createdAt };
    },
  };
}

/**
 * The current activity attempt as providers see it: its cancellation, the end of its start-to-close (less a margin,
 * applied by the HTTP client), a heartbeat (a few per heartbeat timeout), its attempt number, the job ledger, and a
 * way to ask whether its workflow run is still open. Undefined outside an activity.
 */
export function activityProviderCall(): ProviderCall | undefined {
  let ctx: Context;
  try {
    ctx = Context.current();
  } catch {
    return undefined;
  }
  const info = ctx.info;
  if (!attemptStarted.has(ctx)) attemptStarted.set(ctx, Date.now());
  const started = attemptStarted.get(ctx)!;
  const execution = info.workflowExecution;
  return {
    signal: ctx.cancellationSignal,
    deadlineMs: info.startToCloseTimeoutMs > 0 ? started + info.startToCloseTimeoutMs : undefined,
    heartbeat: () => ctx.heartbeat(),
    heartbeatIntervalMs: info.heartbeatTimeoutMs ? Math.min(5000, Math.max(500, Math.floor(info.heartbeatTimeoutMs / 4))) : 5000,
    attempt: info.attempt,
    jobs: providerJobLedger(`${execution?.workflowId ?? info.activityType}/${execution?.runId ?? "-"}/${info.activityId}`),
    runIsOpen: execution ? () => runIsOpen(ctx, execution.workflowId, execution.runId) : undefined,
  };
}

/**
 * Whether the activity's workflow run is still open, asked of Temporal with the worker's client. When it cannot be
 * told (no client, the server unreachable) the run is taken as open: a paid job kept costs nothing more, one given
 * up may be bought again by the attempt that owns it (decision 270).
 */
async function runIsOpen(ctx: Context, workflowId: string, runId: string): Promise<boolean> {
  try {
    const description = await ctx.client.workflow.getHandle(workflowId, runId).describe();
    return description.status.name === "RUNNING";
  } catch (e) {
    return (e as Error)?.name !== "WorkflowNotFoundError";
  }
}

/** The tuning for providers made inside an activity: its attempt, as activityProviderCall reads it. */
export const activityTuning = (): ProviderTuning => ({ call: activityProviderCall() });

export async function providersForUser(userId: string) {
  return providersFor(await getProviderKeys(userId), activityTuning());
}

/** The creator's Pexels stock media, or null when they saved no Pexels key. */
export async function stockMediaForUser(userId: string) {
  return stockMediaFor(await getProviderKeys(userId), activityTuning());
}

/**
 * Provider errors as Temporal failures: what retrying cannot fix (a rejected key, a refused prompt, a paid request
 * whose answer was lost) is non-retryable, so Temporal stops at once and the creator sees the reason; a 429 that
 * said how long to wait is retried after that long (nextRetryDelay), not slept out in the worker.
 */
export function asActivityFailure(error: unknown): unknown {
  if (error instanceof ApplicationFailure) return error;
  const e = error as { retryable?: boolean; name?: string; message?: string; retryAfterMs?: number };
  if (e && e.retryable === false) {
    return ApplicationFailure.nonRetryable(e.message ?? String(error), e.name ?? "ProviderError");
  }
  if (e && typeof e.retryAfterMs === "number" && e.retryAfterMs > 0) {
    return ApplicationFailure.create({ message: e.message ?? String(error), type: e.name ?? "ProviderError", nextRetryDelay: e.retryAfterMs });
  }
  return error;
}
