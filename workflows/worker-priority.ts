// The worker's heavy work (ffmpeg, Chromium, sharp, speech synthesis) runs at a lower CPU priority than the web
// server, PostgreSQL and Temporal, so pages and status answers stay quick while renders take the cores (issue 36,
// decision 130). On Linux a nice value belongs to a thread: every thread the process has now is lowered, and the
// threads and child processes it starts later inherit the value of the thread that starts them. With the kernel's
// autogroup scheduling, a thread's nice only counts against threads of its own session, so a worker in a session of
// its own lowers its session's group as well (lowerSessionPriority).
import fs from "node:fs";
import os from "node:os";
import { getEnv } from "~/core/env.server";

/**
 * The niceness the worker runs at: WORKER_NICE (0 = the web server's, 19 = the lowest, 10 by default), checked with
 * every other setting at start, so a value out of range or not a number stops the worker, named (issue 47).
 */
export function workerNiceness(): number {
  return getEnv().WORKER_NICE;
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

/**
 * Lowers this process's session's autogroup to `nice`, when the kernel groups by session (autogroup scheduling, on in
 * most distributions' kernels: `/proc/sys/kernel/sched_autogroup_enabled`) and this process leads its session.
 * With autogroups, CPU time is shared between sessions first and a thread's nice counts only within its own session:
 * `npm start` starts the web server and the worker each in a session of its own (setsid, to stop each with its
 * process group), so the worker's nice 10 alone gave the web server nothing while a render took both cores
 * (decision 130, second round). A worker that shares its session with whatever started it (a terminal, a test
 * runner) leaves the group alone: lowering it would lower them too; its threads' nice then works as it is.
 * Returns whether the group was lowered.
 */
export function lowerSessionPriority(nice: number): boolean {
  const groupFile = "/proc/self/autogroup";
  if (!fs.existsSync(groupFile)) return false;
  try {
    // the fields after the command's ")": state, ppid, process group, session
    const session = Number(fs.readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ")[3]);
    if (session !== process.pid) return false;
    const current = Number(/nice (-?\d+)/.exec(fs.readFileSync(groupFile, "utf8"))?.[1] ?? 0);
    if (current >= nice) return false;
    fs.writeFileSync(groupFile, String(nice));
    return true;
  } catch {
    // a kernel without autogroups or a container that refuses the write: the threads' nice still holds within the session
    return false;
  }
}

/**
 * A render's ffmpeg as a command line that runs it RENDER_NICE_OFFSET steps below the worker itself (5 by default:
 * nice 15 under the worker's 10), through coreutils' `nice`, so on the same worker the light work (scripts, their
 * timing, bookkeeping, scene media) takes the CPU first and a render has the rest: at 15 against 10 the kernel gives
 * a render about a quarter of a core the light work also wants, and all of any idle core (issue 53, decision 254).
 * 0 runs ffmpeg at the worker's own priority, as before.
 */
export function renderCommand(program: string, args: string[], offset = getEnv().RENDER_NICE_OFFSET): { command: string; args: string[] } {
  if (offset <= 0 || process.platform !== "linux") return { command: program, args };
  return { command: "nice", args: ["-n", String(offset), program, ...args] };
}
