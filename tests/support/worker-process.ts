// Workers in processes of their own, which a test kills without warning to prove a stage survives it. Each runs
// tests/support/worker-process-main.ts in its own process group; killing it also kills what it started, including
// the render worker's Chromium, which the browser launcher puts in a process group of its own (killing only the
// worker's group left one Chromium per killed worker running on the machine).
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { Client, Connection } from "@temporalio/client";
import { afterAll, beforeAll } from "vitest";

export type WorkerProcessKind = "slow-script" | "slow-storyboard" | "render" | "all-stages";

const started: ChildProcess[] = [];

/**
 * The worker's entry: compiled once by npm test beside the workflow bundles (scripts/lib/test-worker-bundle.mjs,
 * decision 284), else its TypeScript through tsx (a file run by hand with its own servers).
 */
function workerProcessArgs(): string[] {
  const dir = process.env.TEST_WORKFLOW_BUNDLE_DIR;
  const compiled = dir && path.join(dir, "worker-process-main.js");
  return compiled && fs.existsSync(compiled) ? ["--enable-source-maps", compiled] : ["--import", "tsx", "tests/support/worker-process-main.ts"];
}

/** Starts a worker of this kind on `taskQueue` and resolves once it polls. */
export function startWorkerProcess(kind: WorkerProcessKind, options: { taskQueue: string; env?: Record<string, string> }): Promise<ChildProcess> {
  const child = spawn(process.execPath, workerProcessArgs(), {
    cwd: process.cwd(),
    env: { ...process.env, ...options.env, WORKER_KIND: kind, TEMPORAL_TASK_QUEUE: options.taskQueue },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.push(child);
  let output = "";
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (d) => {
      output += d;
      if (output.includes("worker ready")) resolve(child);
    });
    child.stderr!.on("data", (d) => (output += d));
    child.once("exit", (code) => reject(new Error(`${kind} worker exited (${code}) before it was ready:\n${output}`)));
  });
}

/** [pid, parent pid, process group] of every process on this machine (Linux's /proc; none elsewhere). */
function processTable(): [number, number, number][] {
  if (!fs.existsSync("/proc/self/stat")) return [];
  const rows: [number, number, number][] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so read after the last ")"
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const [, ppid, pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      rows.push([Number(entry), Number(ppid), Number(pgrp)]);
    } catch {
      // it ended while we looked
    }
  }
  return rows;
}

/** Every live process started by `pid`, its children's children included: [pid, process group]. */
export function descendantsOf(pid: number): { pid: number; group: number }[] {
  const table = processTable();
  const found: { pid: number; group: number }[] = [];
  const parents = [pid];
  while (parents.length) {
    const parent = parents.pop()!;
    for (const [child, ppid, group] of table) {
      if (ppid !== parent) continue;
      found.push({ pid: child, group });
      parents.push(child);
    }
  }
  return found;
}

export const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** SIGKILL to the worker's whole process group and to the groups of what it started; resolves once it is gone. */
export async function killWorkerProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  // read before the kill: once the worker is gone its Chromium's parent is init, and nothing ties it to the worker
  const groups = new Set(descendantsOf(child.pid!).map((d) => d.group));
  groups.add(child.pid!);
  for (const group of groups) {
    try {
      process.kill(-group, "SIGKILL");
    } catch {
      // already gone
    }
  }
  await exited;
}

export async function killAllWorkerProcesses(): Promise<void> {
  await Promise.all(started.map(killWorkerProcess));
}

/**
 * For a test file that starts and kills worker processes: a Temporal client of its own (the processes' queue is
 * not the in-process test worker's), connected before the tests; after them every worker process is killed and
 * the connection closed. `client` is set once the tests run.
 */
export function workerProcessClient(): { client: Client } {
  const temporal = {} as { client: Client; connection?: Connection };
  beforeAll(async () => {
    temporal.connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS! });
    temporal.client = new Client({ connection: temporal.connection });
  });
  afterAll(async () => {
    await killAllWorkerProcesses();
    await temporal.connection?.close();
  });
  return temporal;
}
