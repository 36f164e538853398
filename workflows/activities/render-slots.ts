// The worker's render slots (issue 20): a render (either renderer) is worth two cores, so one
// worker process runs at most workerSlots(cores).renders of them at once, whatever its activity slots allow
// (those also serve the light activities). The rest wait their turn, heartbeating, and say so on the page.
import os from "node:os";
import pLimit from "p-limit";
import { workerSlots } from "~/lib/limits";

let limit: ReturnType<typeof pLimit> | undefined;
/** Renders running or queued in this process. */
let inFlight = 0;

/** How many renders this worker process runs at once. */
export function renderSlotCount(cores = os.availableParallelism()): number {
  return workerSlots(cores).renders;
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
