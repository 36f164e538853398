// What a caller hands a provider about the one attempt it is making (decision 200): Temporal owns the retries, so a
// provider makes one request per call, stops when the attempt is cancelled or out of time, says it is alive while it
// waits, and keeps the id of a paid job where a retry finds it. Outside an activity (a Settings "test key" route, a
// script) there is no such attempt: every field is optional and the client falls back to its own timeout.

/** Where a paid job's id is kept between the attempts of one activity (the database on a worker). */
export type JobLedger = {
  /** The job this activity already started under `name` (e.g. "leonardo:generation"), if any. */
  recall(name: string): Promise<string | undefined>;
  /** Keeps the job's id, before it is polled: written when this resolves. */
  remember(name: string, jobId: string): Promise<void>;
  /** Forgets a job that ended without a result (failed, unknown to the service), so a retry may start a new one. */
  forget(name: string): Promise<void>;
};

export type ProviderCall = {
  /** Aborts the request when the caller is cancelled (an activity's cancellation signal). */
  signal?: AbortSignal;
  /** Epoch ms by which this attempt must be over (the activity's start-to-close); requests end before it. */
  deadlineMs?: number;
  /** Called every `heartbeatIntervalMs` while a request waits, so a long wait is not taken for a dead worker. */
  heartbeat?: () => void;
  heartbeatIntervalMs?: number;
  /** This attempt's number (1 for the first), said in failure messages. */
  attempt?: number;
  /** Keeps paid jobs' ids across attempts; without one every call starts its own job. */
  jobs?: JobLedger;
};

/**
 * Whether the caller's work is no longer wanted: cancelled on purpose (Temporal's reason CANCELLED), or its workflow
 * run is gone (NOT_FOUND: a workflow cancelled with the default TRY_CANCEL closes before its activity hears of it), so
 * nothing will ever use the result. Only then may a paid job be given up at the service: a worker shutting down, a
 * heartbeat or start-to-close timeout, a pause or a reset leave it to the next attempt, which resumes the same job
 * instead of buying another.
 */
export function cancelledOnPurpose(call: ProviderCall | undefined): boolean {
  const reason: unknown = call?.signal?.aborted ? call.signal.reason : undefined;
  return reason instanceof Error && (reason.message === "CANCELLED" || reason.message === "NOT_FOUND");
}

/** "after 3 attempts" / "after 1 attempt". */
export const attemptsSaid = (call: ProviderCall | undefined) => {
  const n = call?.attempt ?? 1;
  return `after ${n} attempt${n === 1 ? "" : "s"}`;
};

/** Waits `ms`, heartbeating, and stops early with the caller's cancellation. */
export async function waitWithin(call: ProviderCall | undefined, ms: number): Promise<void> {
  call?.signal?.throwIfAborted();
  await new Promise<void>((resolve, reject) => {
    const signal = call?.signal;
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason ?? new Error("cancelled"));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
  call?.heartbeat?.();
}
