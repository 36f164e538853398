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
  /**
   * Claims the right to start the job under `name`, before its create request (decision 270): won by one attempt
   * only; another finds the claim, with the job's id once `remember` wrote it. Optional: without it, `recall` alone.
   */
  claim?(name: string): Promise<{ won: true } | { won: false; jobId?: string; claimedAt: Date }>;
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
  /**
   * Whether the workflow run this attempt works for is still open (an activity asks Temporal). Used when the
   * attempt hears NOT_FOUND, which says either that the run closed or that this attempt was timed out and a newer
   * one owns the job (decision 270).
   */
  runIsOpen?: () => Promise<boolean>;
};

/**
 * Whether the caller's work is no longer wanted: cancelled on purpose (Temporal's reason CANCELLED), or its workflow
 * run is gone (NOT_FOUND with the run closed: a workflow cancelled with the default TRY_CANCEL closes before its
 * activity hears of it), so nothing will ever use the result. Only then may a paid job be given up at the service.
 * NOT_FOUND while the run is still open means this attempt was timed out (the server stopped hearing its heartbeats,
 * as under load) and a newer attempt owns the job: giving the job up then would cancel the task that attempt polls,
 * or make it start (and pay for) a second one (decision 270). A worker shutting down, a timeout, a pause or a reset
 * leave the job to the next attempt, which resumes it instead of buying another.
 */
export async function givenUpOnPurpose(call: ProviderCall | undefined): Promise<boolean> {
  const reason: unknown = call?.signal?.aborted ? call.signal.reason : undefined;
  if (!(reason instanceof Error)) return false;
  if (reason.message === "CANCELLED") return true;
  if (reason.message !== "NOT_FOUND") return false;
  // no way to ask: the run is taken as gone, as Temporal's documentation of NOT_FOUND says
  return call?.runIsOpen ? !(await call.runIsOpen()) : true;
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
