// What /healthz reports: can we reach the database, Temporal (and the media bucket, with STORAGE=s3), and is a
// worker polling our task queue? Each part
// is checked with its own time limit, so the answer comes within 2 s whatever is down (issue 31); the error
// texts go to the log (once per change, not once per poll) and to trusted callers, never to the public.
import { randomUUID } from "node:crypto";
import { getEnv } from "~/core/env.server";
import { prisma } from "~/core/db.server";
import type { healthCheckWorkflow } from "../../workflows/health-check";
import { healthCheckWorkflowId } from "../../workflows/shared/health";
import { getTemporalClient, startWorkflow } from "./temporal.server";
import { mediaBackend } from "~/core/storage.server";
import protos from "@temporalio/proto";
import { livePollerIdentities } from "../../workflows/shared/live-pollers";

// @temporalio/proto is CommonJS: named ESM imports of it fail in the server build.
const { TaskQueueType } = protos.temporal.api.enums.v1;

type Check = { ok: boolean; error?: string; [key: string]: unknown };
export type HealthReport = { ok: boolean; database: Check; temporal: Check; worker: Check; storage?: Check; pipeline?: Check };

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Each part's time limit: together they keep /healthz under 2 s (they run side by side). */
export const PART_TIMEOUT_MS = 1500;

class NoAnswerInTime extends Error {}

function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new NoAnswerInTime(`no answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

async function checkDatabase(): Promise<Check> {
  try {
    await within(PART_TIMEOUT_MS, prisma.$queryRaw`SELECT 1`);
    return { ok: true };
  } catch (e) {
    return { ok: false, error: message(e) };
  }
}

/** The media bucket, with STORAGE=s3: listing a prefix that need not exist proves the address, the keys and the bucket. */
async function checkStorage(): Promise<Check | undefined> {
  const backend = mediaBackend();
  if (backend.kind !== "s3") return undefined; // the local folder is this machine's disk
  try {
    await within(
      PART_TIMEOUT_MS,
      (async () => {
        for await (const object of backend.list("reelsmith-health-check/")) if (object) break;
      })(),
    );
    return { ok: true, where: backend.describe };
  } catch (e) {
    return { ok: false, where: backend.describe, error: message(e) };
  }
}

async function checkTemporalAndWorker(): Promise<{ temporal: Check; worker: Check }> {
  const env = getEnv();
  try {
    const { info, queue } = await within(
      PART_TIMEOUT_MS,
      (async () => {
        const client = await getTemporalClient();
        const info = await client.workflowService.getSystemInfo({});
        const queue = await client.workflowService.describeTaskQueue({
          namespace: env.TEMPORAL_NAMESPACE,
          taskQueue: { name: env.TEMPORAL_TASK_QUEUE },
          taskQueueType: TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
        });
        return { info, queue };
      })(),
    );
    // pollers the server still lists but has not seen for a while belong to a worker that hung or died
    const pollers = livePollerIdentities(queue.pollers).length;
    return {
      temporal: { ok: true, address: env.TEMPORAL_ADDRESS, serverVersion: info.serverVersion },
      worker: pollers
        ? { ok: true, taskQueue: env.TEMPORAL_TASK_QUEUE, pollers }
        : { ok: false, taskQueue: env.TEMPORAL_TASK_QUEUE, pollers, error: "no worker has polled the task queue in the last 90 s" },
    };
  } catch (e) {
    return {
      temporal: { ok: false, address: env.TEMPORAL_ADDRESS, error: message(e) },
      worker: { ok: false, error: "Temporal is unreachable" },
    };
  }
}

/** Runs the health-check workflow: web -> Temporal -> worker -> database, end to end. */
async function checkPipeline(): Promise<Check> {
  try {
    const handle = await startWorkflow<typeof healthCheckWorkflow>("healthCheckWorkflow", {
      workflowId: healthCheckWorkflowId(randomUUID()),
      args: [],
      memo: { startedBy: "/healthz?deep=1" },
      executionTimeout: "20 seconds",
    });
    const result = await handle.result();
    return { ok: true, ...result };
  } catch (e) {
    return { ok: false, error: message(e) };
  }
}

// One end-to-end check at a time: callers that arrive while one runs share its result.
let pipelineInFlight: Promise<Check> | null = null;
let pipelineRuns = 0;

/** How many end-to-end checks have started since the process began (tests read it). */
export function pipelineChecksStarted(): number {
  return pipelineRuns;
}

function checkPipelineOnce(): Promise<Check> {
  pipelineInFlight ??= (pipelineRuns++, checkPipeline()).finally(() => {
    pipelineInFlight = null;
  });
  return pipelineInFlight;
}

/** What anyone may see: which parts are up, nothing else. */
export type PublicHealth = { ok: boolean; parts: { database: "up" | "down"; temporal: "up" | "down"; worker: "up" | "down"; storage?: "up" | "down" } };

export function publicHealth(report: HealthReport): PublicHealth {
  const state = (c: Check): "up" | "down" => (c.ok ? "up" : "down");
  return {
    ok: report.ok,
    parts: { database: state(report.database), temporal: state(report.temporal), worker: state(report.worker), ...(report.storage ? { storage: state(report.storage) } : {}) },
  };
}

// the last logged state of each part, so a part that stays down is logged once, not on every poll
const lastLogged = new Map<string, string>();

function logChanges(parts: Record<string, Check>) {
  for (const [part, check] of Object.entries(parts)) {
    const state = check.ok ? "up" : `down: ${check.error ?? "no details"}`;
    if (lastLogged.get(part) === state) continue;
    if (lastLogged.has(part) || !check.ok) console[check.ok ? "log" : "warn"](`health: ${part} is ${state}`);
    lastLogged.set(part, state);
  }
}

export async function healthReport({ deep = false } = {}): Promise<HealthReport> {
  const [database, { temporal, worker }, storage] = await Promise.all([checkDatabase(), checkTemporalAndWorker(), checkStorage()]);
  logChanges({ database, temporal, worker, ...(storage ? { storage } : {}) });
  const pipeline = deep ? await checkPipelineOnce() : undefined;
  const ok = database.ok && temporal.ok && worker.ok && (storage?.ok ?? true) && (pipeline?.ok ?? true);
  return { ok, database, temporal, worker, ...(storage ? { storage } : {}), ...(pipeline ? { pipeline } : {}) };
}
