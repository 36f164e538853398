// The worker's render slots (issue 20; decisions 155, 266): one worker process runs at most WORKER_RENDERS renders
// (either renderer, or a chunk of a fast render) at once: two by default on two cores or more, since a fast render
// keeps about one and a half cores busy. The
// render queue's worker takes no more than that from Temporal; this limit also holds renders an older run
// scheduled on the light queue. The rest wait their turn, heartbeating, and say so on the page.
import pLimit from "p-limit";
import { getEnv } from "~/core/env.server";

let limit: ReturnType<typeof pLimit> | undefined;
/** Renders running or queued in this process. */
let inFlight = 0;

/** How many renders this worker process runs at once (WORKER_RENDERS). */
export function renderSlotCount(): number {
  return getEnv().WORKER_RENDERS;
}

/**
 * Runs `work` in one of the process's render slots. `onWait` is called with the number of renders ahead when
 * every slot is busy (the work is queued); an aborted `signal` drops the work before it starts.
 */
export function withRenderSlot<T>(work: () => Promise<T>, options: { signal?: AbortSignal; onWait?: (ahead: number) => void } = {}): Promise<T> {
  limit ??= pLimit(renderSlotCount());
  // counted here, synchronously: p-limit updates its own counts a microtask later
  if (inFlight >= renderSlotCount()) options.onWait?.(inFlight);
  inFlight++;
  return limit(async () => {
    options.signal?.throwIfAborted();
    return work();
  }).finally(() => {
    inFlight--;
  });
}
