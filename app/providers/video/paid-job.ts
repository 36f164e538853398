// The one create-then-poll shape both AI clip services share (decision 223): a paid job started once and its id kept
// in the activity's ledger before the first poll (a retry or a new worker polls the same job), its status polled
// every `intervalMs` (heartbeating, stopping with the activity's cancellation: waitWithin) until it ends or
// `timeoutMs` passes, and a job that ended without a result, or that the service no longer knows (404), forgotten
// so a later attempt may start a new one. No library fits: the waits must be the activity's own (heartbeats,
// cancellation), which generic poll helpers (p-wait-for, p-retry) do not know.
import { waitWithin, type ProviderCall } from "../call";
import { ProviderError } from "../errors";
import { startPaidJobOnce } from "../paid-start";

/**
 * What a status check found: still running, finished with the clip, or ended without one (`failed`: the job is
 * forgotten and the error thrown; `uncharged` when the service ended it without a video, which it does not charge
 * for: decision 270). Anything the check throws (a network error, a bad answer) leaves the job kept.
 */
export type PollOutcome<T> = { done: false } | { done: true; value: T } | { failed: ProviderError; uncharged?: boolean };

/** The service ended the job without a video: nothing was delivered and nothing is charged (decision 270). */
export class PaidJobFailed extends ProviderError {
  constructor(
    cause: ProviderError,
    readonly jobId: string,
  ) {
    super(cause.provider, cause.kind, cause.message, cause.status);
  }
}

export type PaidJob<T> = {
  provider: string;
  /** The ledger's name for this kind of job ("veo:operation"). */
  ledgerName: string;
  /** What the job is called in messages ("operation", "task"). */
  noun: string;
  call: ProviderCall | undefined;
  intervalMs: number;
  timeoutMs: number;
  /** Starts the paid job (the one paid request) and gives its id. */
  start: () => Promise<string>;
  /** Once the job is known (started now or recalled): the spend is recorded here, once per id. */
  onStarted?: (id: string) => Promise<void> | void;
  /** One status check. */
  check: (id: string) => Promise<PollOutcome<T>>;
  /** After a failure while polling (the activity's cancellation included): e.g. cancel the job at the service. */
  onPollFailure?: (id: string, error: unknown) => Promise<void>;
};

/** Starts (or resumes) the paid job and polls it to its end: its value and its id. */
export async function runPaidJob<T>(job: PaidJob<T>): Promise<{ value: T; id: string }> {
  const jobs = job.call?.jobs;
  const id = await startPaidJobOnce({ ...job, subject: "this clip" }, job.start);
  await job.onStarted?.(id);
  const deadline = Date.now() + job.timeoutMs;
  try {
    for (;;) {
      const outcome = await job.check(id).catch(async (e: unknown) => {
        // the service no longer knows the job: forgotten, so the next attempt may start a new one
        if (e instanceof ProviderError && e.status === 404) {
          await jobs?.forget(job.ledgerName);
          throw new ProviderError(job.provider, "malformed", `${job.provider} no longer knows ${job.noun} ${id}.`);
        }
        throw e;
      });
      if ("failed" in outcome) {
        await jobs?.forget(job.ledgerName);
        throw outcome.uncharged ? new PaidJobFailed(outcome.failed, id) : outcome.failed;
      }
      if (outcome.done) return { value: outcome.value, id };
      if (Date.now() > deadline) {
        throw new ProviderError(job.provider, "timeout", `${job.provider} did not finish the clip within ${Math.round(job.timeoutMs / 60_000)} minutes. Try again.`);
      }
      await waitWithin(job.call, job.intervalMs);
    }
  } catch (error) {
    await job.onPollFailure?.(id, error);
    throw error;
  }
}
