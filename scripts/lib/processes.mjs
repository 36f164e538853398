// Child processes for the orchestration scripts: each in its own process group, its output prefixed,
// and all of them stopped together (SIGTERM, then SIGKILL after a grace period) so none is orphaned.
// A supervised child (the web server, the worker) is started again when it dies, with back-off.
import { spawn } from "node:child_process";
import net from "node:net";
import readline from "node:readline";
import { ROOT } from "./paths.mjs";
import { logger } from "./log.mjs";

const children = new Set();
const supervisors = new Set();
/** How many of a dying part's last lines the log shows. */
const LAST_LINES = 15;

export function startChild(name, command, args, { env = {}, quiet = false, onExit } = {}) {
  const log = logger(name);
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // own process group: we signal the whole group, grandchildren included
  });
  child.name = name;
  // the last lines it printed, for the log when it dies (issue 31: a part that keeps crashing says why)
  child.lastLines = [];
  children.add(child);
  for (const stream of [child.stdout, child.stderr]) {
    readline.createInterface({ input: stream }).on("line", (line) => {
      child.lastLines.push(line);
      if (child.lastLines.length > LAST_LINES) child.lastLines.shift();
      if (!quiet || /level=(ERROR|FATAL)|panic/.test(line)) console.log(log.prefix, line);
    });
  }
  child.on("exit", (code, signal) => {
    children.delete(child);
    onExit?.(code, signal);
  });
  return child;
}

function signalGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    /* already gone */
  }
}

/**
 * Keeps a child running: when it exits (crash, OOM kill, `kill -9`), it is started again after a back-off that
 * doubles from `minBackoffMs` to `maxBackoffMs`, and falls back to the minimum once a run lasted `stableAfterMs`.
 * Each exit and restart is one clear line in the log. stopChildren() ends the supervision first.
 */
export function superviseChild(name, command, args, { env = {}, quiet = false, minBackoffMs = 1000, maxBackoffMs = 30_000, stableAfterMs = 60_000, onStart } = {}) {
  const log = logger("reelsmith");
  /** @type {{ name: string; stopped: boolean; timer: ReturnType<typeof setTimeout> | null; restarts: number; child: import("node:child_process").ChildProcess | null }} */
  const supervisor = { name, stopped: false, timer: null, restarts: 0, child: null };
  let backoff = minBackoffMs;
  const launch = () => {
    supervisor.timer = null;
    if (supervisor.stopped) return;
    const startedAt = Date.now();
    const child = startChild(name, command, args, {
      env,
      quiet,
      onExit: (code, signal) => {
        if (supervisor.stopped) return;
        const stable = Date.now() - startedAt >= stableAfterMs;
        if (stable) backoff = minBackoffMs;
        supervisor.restarts += 1;
        log.error(`${name} (pid ${child.pid}) exited (${signal ?? `code ${code}`}); restarting it in ${backoff / 1000} s (restart ${supervisor.restarts})`);
        if (!stable && child.lastLines.length) log.error(`${name}'s last lines:\n${child.lastLines.map((l) => `    ${l}`).join("\n")}`);
        supervisor.timer = setTimeout(launch, backoff);
        backoff = Math.min(maxBackoffMs, backoff * 2);
      },
    });
    supervisor.child = child;
    log.info(`${name} started (pid ${child.pid})`);
    onStart?.(child);
  };
  supervisors.add(supervisor);
  launch();
  return supervisor;
}

/**
 * Keeps a service running that is started by a function rather than as one of our children (the embedded
 * PostgreSQL: its package spawns the server). `start()` resolves once the service is up, to
 * `{ exited: Promise<{ code, signal }>, lastLines: () => string[] }`; when `exited` settles the service is started
 * again with the same back-off as superviseChild, and a failed start counts as an exit. The first start's failure
 * is thrown to the caller (nothing to keep running yet).
 */
export async function superviseService(name, start, { minBackoffMs = 1000, maxBackoffMs = 30_000, stableAfterMs = 60_000, onRestart } = {}) {
  const log = logger("reelsmith");
  const supervisor = { name, stopped: false, timer: null, restarts: 0, child: null };
  let backoff = minBackoffMs;
  const watch = (running, startedAt) => {
    running.exited.then(({ code, signal }) => {
      if (supervisor.stopped) return;
      const stable = Date.now() - startedAt >= stableAfterMs;
      if (stable) backoff = minBackoffMs;
      supervisor.restarts += 1;
      log.error(`${name} exited (${signal ?? `code ${code}`}); restarting it in ${backoff / 1000} s (restart ${supervisor.restarts})`);
      const lines = running.lastLines();
      if (!stable && lines.length) log.error(`${name}'s last lines:\n${lines.map((l) => `    ${l}`).join("\n")}`);
      schedule();
    });
  };
  const schedule = () => {
    supervisor.timer = setTimeout(async () => {
      supervisor.timer = null;
      if (supervisor.stopped) return;
      const startedAt = Date.now();
      try {
        const running = await start();
        log.info(`${name} is back`);
        onRestart?.();
        watch(running, startedAt);
        return;
      } catch (e) {
        supervisor.restarts += 1;
        log.error(`${name} could not start again: ${String(e?.message ?? e).split("\n").slice(-LAST_LINES).join("\n    ")}; next try in ${backoff / 1000} s`);
      }
      schedule();
    }, backoff);
    backoff = Math.min(maxBackoffMs, backoff * 2);
  };
  const running = await start();
  supervisors.add(supervisor);
  watch(running, Date.now());
  return supervisor;
}

/** Stops every child: SIGTERM to each group, SIGKILL to whatever still runs after `graceMs`. */
export async function stopChildren(graceMs = 10_000) {
  for (const supervisor of supervisors) {
    supervisor.stopped = true;
    if (supervisor.timer) clearTimeout(supervisor.timer);
  }
  supervisors.clear();
  const running = [...children];
  await Promise.all(
    running.map(
      (child) =>
        new Promise((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const timer = setTimeout(() => signalGroup(child, "SIGKILL"), graceMs);
          child.once("exit", () => {
            clearTimeout(timer);
            signalGroup(child, "SIGKILL"); // grandchildren that ignored SIGTERM
            resolve();
          });
          signalGroup(child, "SIGTERM");
        }),
    ),
  );
}

export function isPortOpen(port, host = "127.0.0.1") {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    socket.setTimeout(1000);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
  });
}

export async function waitForHttp(url, { timeoutMs = 60_000, ok = (r) => r.ok } = {}) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      if (ok(response)) return response;
      last = `HTTP ${response.status}`;
    } catch (e) {
      last = e.message;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${url} not ready after ${timeoutMs / 1000} s (${last})`);
}
