// A paid job started once, however many attempts of its activity are alive (decision 270, extended to pictures and
// music in decision 274): its id is recalled from the activity's job ledger; else the ledger row is claimed before
// the paid request, so of two attempts alive at once (one the server timed out while it still ran, under load) only
// the winner asks the service, and the other waits for the id the winner remembers. A claim never named within
// CLAIM_WAIT_MS was left by an attempt that died mid-request: the job may exist and be charged, so it is not asked
// for again (decision 200's lost answer).
import { waitWithin, type ProviderCall } from "./call";
import { ProviderError } from "./errors";

/** How long a retry waits for an earlier attempt's claim (its create request under way) to name its job. */
export const CLAIM_WAIT_MS = 90_000;

export type PaidStart = {
  provider: string;
  /** The ledger's name for this job ("leonardo:generation", "suno:task:0"). */
  ledgerName: string;
  /** What the job is called in messages ("operation", "task", "generation"). */
  noun: string;
  /** What was asked for, in messages ("this clip", "this image", "this music"). */
  subject: string;
  call: ProviderCall | undefined;
};

/** The job an earlier attempt claimed, once named; undefined when this attempt won the claim (so starts the job). */
async function claimedJob(job: PaidStart): Promise<string | undefined> {
  const jobs = job.call?.jobs;
  if (!jobs?.claim) return undefined;
  for (;;) {
    const claim = await jobs.claim(job.ledgerName);
    if (claim.won) return undefined;
    if (claim.jobId) return claim.jobId;
    if (Date.now() - claim.claimedAt.getTime() > CLAIM_WAIT_MS) {
      throw new ProviderError(
        job.provider,
        "unconfirmed",
        `An earlier attempt asked ${job.provider} for ${job.subject} and stopped before ${job.provider} named its ${job.noun}: it was not asked again, so it is not paid for twice. Try again.`,
      );
    }
    await waitWithin(job.call, 1000);
  }
}

/** The job's id: the one this activity already started (by any attempt), or one started now by `start`. */
export async function startPaidJobOnce(job: PaidStart, start: () => Promise<string>): Promise<string> {
  const jobs = job.call?.jobs;
  const known = (await jobs?.recall(job.ledgerName)) ?? (await claimedJob(job));
  if (known) return known;
  let id: string;
  try {
    id = await start();
  } catch (error) {
    // refused before any work: the claim is released, so the next attempt claims it at once; a request whose answer
    // was lost keeps it (the job may exist and be charged), so no attempt alive beside this one pays again
    if (!(error instanceof ProviderError && error.kind === "unconfirmed")) await jobs?.forget(job.ledgerName);
    throw error;
  }
  await jobs?.remember(job.ledgerName, id);
  return id;
}
