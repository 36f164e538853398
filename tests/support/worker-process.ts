// Workers in processes of their own, which a test kills without warning to prove a stage survives it. Each runs
// tests/support/worker-process-main.ts in its own process group, so killing it also kills what it started
// (Chromium, for the render worker).
import { spawn, type ChildProcess } from "node:child_process";
import { Client, Connection } from "@temporalio/client";
import { afterAll, beforeAll } from "vitest";

export type WorkerProcessKind = "slow-script" | "slow-storyboard" | "render" | "all-stages";

const started: ChildProcess[] = [];

/** Starts a worker of this kind on `taskQueue` and resolves once it polls. */
export function startWorkerProcess(kind: WorkerProcessKind, options: { taskQueue: string; env?: Record<string, string> }): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "tests/support/worker-process-main.ts"], {
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

/** SIGKILL to the worker's whole process group; resolves once it is gone. */
export async function killWorkerProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  try {
    process.kill(-child.pid!, "SIGKILL");
  } catch {
    return; // already gone
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
