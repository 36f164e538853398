// Holding an activity in a test (a voice that waits for an event the test sets up): it heartbeats while it waits, as
// a real activity waiting on its provider does. A silent hold outlives the heartbeat timeout on a loaded machine, and
// Temporal then runs a second attempt beside the first (CI, stop 62).
import { Context } from "@temporalio/activity";

/** Waits, heartbeating every 200 ms, until `done()` says so or `ms` have passed (whichever comes first). */
export async function holdHeartbeating(ms: number, done: () => boolean | Promise<boolean> = () => false): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end && !(await done()); ) {
    Context.current().heartbeat();
    await new Promise((r) => setTimeout(r, 200));
  }
}
