// The web side's Temporal client: one connection per process, opened on first use and reused; the one way a
// pipeline stage is started (by its workflow type name, typed by the workflow function, on the configured task
// queue, with a memo that tells an operator in the Temporal UI whose video each run is).
import {
  Client,
  Connection,
  WorkflowExecutionAlreadyStartedError,
  WorkflowNotFoundError,
  type WorkflowHandleWithFirstExecutionRunId,
  type WorkflowStartOptions,
} from "@temporalio/client";
import type { Duration } from "@temporalio/common";
import { OpenTelemetryWorkflowClientInterceptor } from "@temporalio/interceptors-opentelemetry/lib/client";
import type { Workflow } from "@temporalio/workflow";
import { CONCURRENCY_LIMITS } from "~/lib/limits";
// types only: the worker's bundle entry, so a workflow type name is checked against what the worker registers
import type * as workerWorkflows from "../../workflows/index";
import type { renderVideoWorkflow } from "../../workflows/render";
import { prisma } from "~/core/db.server";
import { getEnv } from "~/core/env.server";
import { refusal } from "~/core/refusal.server";

declare global {
  var __reelsmithTemporal: Promise<Client> | undefined;
}

async function connect(): Promise<Client> {
  const env = getEnv();
  const connection = await Connection.connect({ address: env.TEMPORAL_ADDRESS, connectTimeout: "5s" });
  // the web request's trace goes on into the workflow and its activities (issue 54)
  return new Client({ connection, namespace: env.TEMPORAL_NAMESPACE, interceptors: { workflow: [new OpenTelemetryWorkflowClientInterceptor()] } });
}

export function getTemporalClient(): Promise<Client> {
  // A failed connection is not cached, so the next request tries again.
  globalThis.__reelsmithTemporal ??= connect().catch((e) => {
    globalThis.__reelsmithTemporal = undefined;
    throw e;
  });
  return globalThis.__reelsmithTemporal;
}

/** Shown in the Temporal UI's list and on each run's page: whose video this is. */
export type WorkflowMemo = { userId: string; projectId?: string; projectTitle?: string } | { startedBy: string };

/** A run with this workflow id is already open: the caller joins it or says so, never starts a second. */
export class WorkflowAlreadyRunningError extends Error {
  constructor(readonly workflowId: string) {
    super(`A run of ${workflowId} is already in progress`);
    this.name = "WorkflowAlreadyRunningError";
  }
}

/**
 * The names the worker registers a workflow of type W under: the exports of workflows/index.ts (the bundle the
 * worker loads) whose function has W's signature. A renamed or unexported workflow leaves a start by its old
 * name failing the typecheck (decision 185).
 */
export type WorkflowTypeOf<W extends Workflow> = W extends Workflow
  ? { [N in keyof WorkerWorkflows]: WorkerWorkflows[N] extends W ? (W extends WorkerWorkflows[N] ? N : never) : never }[keyof WorkerWorkflows]
  : never;
type WorkerWorkflows = typeof workerWorkflows;

const RENDER_WORKFLOW_TYPE: WorkflowTypeOf<typeof renderVideoWorkflow> = "renderVideoWorkflow";

export type RunKind = "render" | "pipeline";
const runKindOf = (workflowType: string): RunKind => (workflowType === RENDER_WORKFLOW_TYPE ? "render" : "pipeline");

/** Two-key advisory lock namespace of the per-user run check ("rsrn"), apart from any other lock. */
const RUN_LOCK_NAMESPACE = 0x7273726e;

type Tx = Parameters<Parameters<typeof prisma.$transaction>[0]>[0];

/**
 * The user's open runs by kind: the runs Temporal's visibility lists with this user's memo, together with the
 * runs recorded in RunSlot, each confirmed running by describe(). The visibility list lags both ways: it misses a
 * run that has just started (RunSlot has it) and still lists, for a moment, one that has just ended, so a creator
 * retrying a render that has just failed was refused with "You already have 1 render in progress" (a clean CI run
 * caught it). Rows of runs that ended are removed.
 */
export async function runningWorkflowsOf(userId: string, db: Tx | typeof prisma = prisma): Promise<{ renders: number; pipeline: number }> {
  const client = await getTemporalClient();
  const candidates = new Map<string, { workflowId: string; runId: string; kind: RunKind; slotId?: string }>();
  for await (const run of client.workflow.list({ query: 'ExecutionStatus = "Running"' })) {
    const memo = run.memo as { userId?: unknown } | undefined;
    if (memo?.userId === userId) candidates.set(`${run.workflowId}/${run.runId}`, { workflowId: run.workflowId, runId: run.runId, kind: runKindOf(run.type) });
  }
  for (const slot of await db.runSlot.findMany({ where: { userId } })) {
    const key = `${slot.workflowId}/${slot.runId}`;
    const kind: RunKind = candidates.get(key)?.kind ?? (slot.kind === "render" ? "render" : "pipeline");
    candidates.set(key, { workflowId: slot.workflowId, runId: slot.runId, kind, slotId: slot.id });
  }
  const confirmed = await Promise.all(
    [...candidates.values()].map(async (run) => {
      const running = await client.workflow
        .getHandle(run.workflowId, run.runId)
        .describe()
        .then(
          (d) => d.status.name === "RUNNING",
          (e: unknown) => (e instanceof WorkflowNotFoundError ? false : Promise.reject(e)),
        );
      return { ...run, running };
    }),
  );
  const ended = confirmed.filter((run) => !run.running && run.slotId).map((run) => run.slotId!);
  if (ended.length) await db.runSlot.deleteMany({ where: { id: { in: ended } } });
  const kinds = confirmed.filter((run) => run.running).map((run) => run.kind);
  return { renders: kinds.filter((k) => k === "render").length, pipeline: kinds.filter((k) => k === "pipeline").length };
}

/** 429 when the user already has as many runs open as CONCURRENCY_LIMITS allows for this kind. */
export async function assertRunSlot(userId: string, workflowType: string, db: Tx | typeof prisma = prisma): Promise<void> {
  const open = await runningWorkflowsOf(userId, db);
  if (runKindOf(workflowType) === "render") {
    if (open.renders >= CONCURRENCY_LIMITS.rendersPerUser) {
      throw refusal(429, `You already have ${open.renders} render${open.renders === 1 ? "" : "s"} in progress. Wait for it to finish before starting another.`);
    }
  } else if (open.pipeline >= CONCURRENCY_LIMITS.pipelineRunsPerUser) {
    throw refusal(429, `You already have ${open.pipeline} generations in progress. Wait for one to finish before starting another.`);
  }
}

/**
 * Starts a workflow by its type name, typed by its function: `startWorkflow<typeof scriptWorkflow>("scriptWorkflow", ...)`
 * checks the name against the worker's registered workflows and the arguments against the function's signature,
 * while the caller imports the workflow module for its type only (decision 185).
 * Throws WorkflowAlreadyRunningError when a run with the same id is open, and a 429 response when the user
 * named in the memo already has as many runs open as CONCURRENCY_LIMITS allows. For a user's run, the count
 * and the start happen under a per-user PostgreSQL advisory lock (held by the transaction that records the
 * run), so simultaneous starts are counted one after another and never pass the limit together.
 */
export async function startWorkflow<W extends Workflow = never>(
  // NoInfer and the default `never`: without the type argument no name is accepted, rather than any name untyped
  workflowType: NoInfer<WorkflowTypeOf<W>>,
  options: { workflowId: string; args: NoInfer<Parameters<W>>; memo: WorkflowMemo; executionTimeout?: Duration },
): Promise<WorkflowHandleWithFirstExecutionRunId<W>> {
  const client = await getTemporalClient();
  const start = async () => {
    try {
      // the SDK's conditional type for `args` cannot be resolved for a generic W; Parameters<W> is what it means
      const startOptions = {
        taskQueue: getEnv().TEMPORAL_TASK_QUEUE,
        workflowId: options.workflowId,
        args: options.args,
        memo: options.memo,
        workflowIdConflictPolicy: "FAIL",
        workflowExecutionTimeout: options.executionTimeout,
      } as unknown as WorkflowStartOptions<W>;
      return await client.workflow.start<W>(workflowType, startOptions);
    } catch (e) {
      if (e instanceof WorkflowExecutionAlreadyStartedError) throw new WorkflowAlreadyRunningError(options.workflowId);
      throw e;
    }
  };
  if (!("userId" in options.memo)) return start();
  const userId = options.memo.userId;
  return prisma.$transaction(
    async (tx) => {
      await tx.$queryRaw`SELECT pg_advisory_xact_lock(${RUN_LOCK_NAMESPACE}::int, hashtext(${userId}))::text AS locked`;
      await assertRunSlot(userId, workflowType, tx);
      const handle = await start();
      await tx.runSlot.create({ data: { userId, kind: runKindOf(workflowType), workflowId: handle.workflowId, runId: handle.firstExecutionRunId } });
      return handle;
    },
    // starts of one user queue on the lock: give them time (each holds it for one list + one start)
    { maxWait: 30_000, timeout: 60_000 },
  );
}

/** Whether a workflow with this id is running now (false when it ended or never existed). */
export async function workflowIsRunning(workflowId: string): Promise<boolean> {
  try {
    const description = await (await getTemporalClient()).workflow.getHandle(workflowId).describe();
    return description.status.name === "RUNNING";
  } catch (e) {
    if (e instanceof WorkflowNotFoundError) return false;
    throw e;
  }
}

/**
 * A row says "processing" but the run behind it ended without recording its outcome (an operator terminated it
 * in the Temporal UI, or its history was lost). True only when the server confirms no run is open; a row younger
 * than `graceMs` is given time, since a run started a moment ago may not be visible yet.
 */
export async function runEndedUnrecorded(workflowId: string | null | undefined, startedAt: Date | null | undefined, graceMs = 10_000) {
  if (!workflowId) return false;
  if (startedAt && Date.now() - startedAt.getTime() < graceMs) return false;
  return !(await workflowIsRunning(workflowId).catch(() => true));
}
