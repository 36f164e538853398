// What an activity does when the machine under it fails rather than its own work (issue 31, decision 182), in one
// place for every activity: an interceptor the worker installs (workflows/worker.ts).
//   - A full disk (ENOSPC while writing media or a work file) ends the stage at once with words a creator can act
//     on; retrying within seconds would only fail again. The storage module writes to a temporary name and
//     renames, so nothing half-written is ever recorded or served; the creator retries once space is free.
//   - A database that is restarting (PostgreSQL killed and brought back by npm start's supervision) does not use
//     up the stage's few retries in the seconds it takes to come back: the failed attempt waits, heartbeating,
//     until the database answers again (within the attempt's own time limit), then fails so Temporal retries it.
import { ApplicationFailure, Context } from "@temporalio/activity";
import type { ActivityExecuteInput, ActivityInboundCallsInterceptor, ActivityInterceptorsFactory, Next } from "@temporalio/worker";
import { prisma } from "~/core/db.server";
import { DISK_FULL, DISK_FULL_MESSAGE } from "./shared/errors";
import { isRefusal } from "~/core/refusal.server";
import { refusalFailure } from "./worker-refusals";


/** The longest an attempt waits for the database to come back before it gives up and fails as it was. */
export const DATABASE_WAIT_MS = 60_000;
const DATABASE_POLL_MS = 1000;

/** The error and every error it wraps (`cause`). */
function* chain(error: unknown): Generator<{ code?: unknown; message?: unknown; name?: unknown; clientVersion?: unknown }> {
  let current = error as { cause?: unknown } | undefined;
  for (let depth = 0; current && typeof current === "object" && depth < 10; depth++) {
    yield current as never;
    current = current.cause as typeof current;
  }
}

/** ENOSPC anywhere in the error's chain, as a code (Node's fs) or in a message (ffmpeg, a child process). */
export function isDiskFull(error: unknown): boolean {
  for (const e of chain(error)) {
    if (e.code === "ENOSPC") return true;
    if (typeof e.message === "string" && /ENOSPC|No space left on device/i.test(e.message)) return true;
  }
  return false;
}

/** A Prisma error saying PostgreSQL cannot be reached, is starting up, or cut the connection (a restart). */
export function isDatabaseUnreachable(error: unknown): boolean {
  for (const e of chain(error)) {
    const fromPrisma = (typeof e.name === "string" && e.name.startsWith("PrismaClient")) || typeof e.clientVersion === "string";
    if (
      fromPrisma &&
      typeof e.message === "string" &&
      /Can't reach database server|57P0[1-3]|the database system is (starting up|shutting down|in recovery mode)|Connection terminated|server closed the connection|terminating connection|ECONNREFUSED|ECONNRESET/i.test(
        e.message,
      )
    ) {
      return true;
    }
  }
  return false;
}

async function databaseAnswers(): Promise<boolean> {
  try {
    await prisma.$queryRaw`SELECT 1`;
    return true;
  } catch {
    return false;
  }
}

/** Waits, heartbeating, until the database answers, at most `budgetMs`; false when it did not come back. */
async function waitForDatabase(ctx: Context, budgetMs: number): Promise<boolean> {
  const deadline = Date.now() + budgetMs;
  while (Date.now() < deadline && !ctx.cancellationSignal.aborted) {
    if (await databaseAnswers()) return true;
    ctx.heartbeat();
    await new Promise((r) => setTimeout(r, DATABASE_POLL_MS));
  }
  return false;
}

class InterruptionsInbound implements ActivityInboundCallsInterceptor {
  constructor(private readonly ctx: Context) {}

  async execute(input: ActivityExecuteInput, next: Next<ActivityInboundCallsInterceptor, "execute">): Promise<unknown> {
    try {
      return await next(input);
    } catch (error) {
      if (error instanceof ApplicationFailure && error.type === DISK_FULL) throw error;
      // a refusal of the core (a plan's limit, a missing row...): the next attempt would be refused alike
      if (isRefusal(error)) throw refusalFailure(error);
      if (isDiskFull(error)) {
        // the original error stays in the worker's log; the stage's failure carries only the creator's words
        // (a cause would be what innermostMessage shows)
        console.error(`activity ${this.ctx.info.activityType}: the disk is full:`, error);
        throw ApplicationFailure.create({ message: DISK_FULL_MESSAGE, type: DISK_FULL, nonRetryable: true });
      }
      if (isDatabaseUnreachable(error)) {
        // within this attempt's own limit, leaving it a moment to report the failure
        const info = this.ctx.info;
        const left = info.startToCloseTimeoutMs - (Date.now() - info.currentAttemptScheduledTimestampMs) - 2000;
        const back = await waitForDatabase(this.ctx, Math.min(DATABASE_WAIT_MS, left));
        console.warn(`activity ${info.activityType} (attempt ${info.attempt}): the database was unreachable; ${back ? "it answers again, so the next attempt can run" : "it did not come back in time"}`);
      }
      throw error;
    }
  }
}

/** For Worker.create({ interceptors: { activity: activityInterceptors } }). */
export const activityInterceptors: ActivityInterceptorsFactory[] = [(ctx) => ({ inbound: new InterruptionsInbound(ctx) })];
