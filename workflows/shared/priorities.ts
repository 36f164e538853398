// Temporal's task queue priority (decision 298): on each queue, long CPU work waits behind the short steps scheduled
// after it, instead of the queue's first-in-first-out order. Measured under bench:load (50 scripts, two renders, 200
// pages): 50 scripts' timings by the voice (about 6 s each under that load) held the light queue's three slots, so
// every script's last step (a 20 ms save) waited up to 109 s behind the timings scheduled before it; and a render's
// sound brought to loudness (5 s) waited 104 s on the render queue behind another video's chunks, finishing that
// video a minute late. The server dispatches a queue's backlog by priority key (1 first, 5 last, 3 when unset; the
// Temporal server needs `matching.useNewMatcher`, which scripts/lib/temporal-server.mjs and docker-compose.yml set),
// so only the long work is marked, and everything else keeps the default.
import type { ActivityOptions } from "@temporalio/workflow";

/**
 * Long CPU work: a render or a chunk of one, a scene's picture, voiceover or clip, a script's timing by the voice.
 * Dispatched after every default-priority task waiting on the same queue: the short steps of every stage (saving a
 * script, a render's sound, its join, a thumbnail, an upload) never wait for a backlog of it.
 */
export const LONG_WORK: NonNullable<ActivityOptions["priority"]> = { priorityKey: 4 };
