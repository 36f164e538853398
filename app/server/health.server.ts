// What /healthz reports: can we reach the database, Temporal, and is a worker polling our task queue?
import { randomUUID } from "node:crypto";
import { getEnv } from "./env.server";
import { prisma } from "./db.server";
import { healthCheckWorkflow } from "../../workflows/health-check";
import { healthCheckWorkflowId } from "../../workflows/shared/health";
import { getTemporalClient, startWorkflow } from "./temporal.server";
import protos from "@temporalio/proto";

// @temporalio/proto is CommonJS: named ESM imports of it fail in the server build.
const { TaskQueueType } = protos.temporal.api.enums.v1;

type Check = { ok: boolean; error?: string; [key: string]: unknown };
export type HealthReport = { ok: boolean; database: Check; temporal: Check; worker: Check; pipeline?: Check };

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

async function checkDatabase(): Promise<Check> {
  try {
    await prisma.$queryRaw`SELECT 1`;
    return { ok: true };
  } catch (e) {
    return { ok: false, error: message(e) };
  }
}

async function checkTemporalAndWorker(): Promise<{ temporal: Check; worker: Check }> {
  const env = getEnv();
  try {
    const client = await getTemporalClient();
    const info = await client.workflowService.getSystemInfo({});
    const queue = await client.workflowService.describeTaskQueue({
      namespace: env.TEMPORAL_NAMESPACE,
      taskQueue: { name: env.TEMPORAL_TASK_QUEUE },
      taskQueueType: TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
    });
    const pollers = queue.pollers?.length ?? 0;
    return {
      temporal: { ok: true, address: env.TEMPORAL_ADDRESS, serverVersion: info.serverVersion },
      worker: pollers
        ? { ok: true, taskQueue: env.TEMPORAL_TASK_QUEUE, pollers }
        : { ok: false, taskQueue: env.TEMPORAL_TASK_QUEUE, pollers, error: "no worker is polling the task queue" },
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
    const handle = await startWorkflow(healthCheckWorkflow, {
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

export async function healthReport({ deep = false } = {}): Promise<HealthReport> {
  const [database, { temporal, worker }] = await Promise.all([checkDatabase(), checkTemporalAndWorker()]);
  const pipeline = deep ? await checkPipelineOnce() : undefined;
  const ok = database.ok && temporal.ok && worker.ok && (pipeline?.ok ?? true);
  return { ok, database, temporal, worker, ...(pipeline ? { pipeline } : {}) };
}
