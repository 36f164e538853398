// The worker's heavy work (ffmpeg, Chromium, sharp, speech synthesis) runs at a lower CPU priority than the web
// server, PostgreSQL and Temporal, so pages and status answers stay quick while renders take the cores (issue 36,
// decision 130). On Linux a nice value belongs to a thread: every thread the process has now is lowered, and the
// threads and child processes it starts later inherit the value of the thread that starts them.
import fs from "node:fs";
import os from "node:os";

/** The niceness the worker runs at unless WORKER_NICE says otherwise (0 = the web server's, 19 = the lowest). */
export const DEFAULT_WORKER_NICE = 10;

export function workerNiceness(env: Record<string, string | undefined> = process.env): number {
  const asked = Number(env.WORKER_NICE ?? DEFAULT_WORKER_NICE);
  return Number.isInteger(asked) ? Math.min(19, Math.max(0, asked)) : DEFAULT_WORKER_NICE;
}

/** Lowers every thread of this process to `nice` (never raises: an unprivileged process could not take it back). */
export function lowerProcessPriority(nice: number): number {
  const threads = fs.existsSync("/proc/self/task") ? fs.readdirSync("/proc/self/task").map(Number) : [process.pid];
  let lowered = 0;
  for (const tid of threads) {
    try {
      if (os.getPriority(tid) < nice) {
        os.setPriority(tid, nice);
        lowered++;
      }
    } catch {
      // a thread that ended between the listing and the call
    }
  }
  return lowered;
}
