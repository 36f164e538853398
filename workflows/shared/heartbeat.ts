// Long activity work that keeps telling Temporal it is alive. Activity-side only (uses @temporalio/activity).
import { Context } from "@temporalio/activity";

/**
 * Runs `work` while heartbeating every `intervalMs`: a worker that dies mid-call is noticed within the
 * activity's heartbeat timeout and the work is retried elsewhere, instead of waiting out the whole timeout.
 */
export async function withHeartbeat<T>(work: () => Promise<T>, { intervalMs = 2000 }: { intervalMs?: number } = {}): Promise<T> {
  const ctx = Context.current();
  const timer = setInterval(() => ctx.heartbeat(), intervalMs);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
