// A worker for one integration test file, in the test's own process, on the file's task queue, against the test
// Temporal server. `stage: "render"` runs only the render stage (its workflow and activities), so render tests
// test rendering alone, whatever state the other stages are in.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client, Connection } from "@temporalio/client";
import { NativeConnection } from "@temporalio/worker";
import {
  prepareRenderPlan,
  prepareStoredRenderPlan,
  recordRendererChoice,
  recordRenderFailure,
  renderVideoExact,
  renderVideoFast,
} from "../../workflows/activities/render";
import { discardRenderChunks, joinRenderChunks, mixRenderSound, normaliseRenderSound, planRenderChunks, renderVideoChunk } from "../../workflows/activities/render-chunked";
import { logPipelineError } from "~/core/error-log.server";
import { createQueueWorkers, createWorker, type QueueWorkers } from "../../workflows/worker";

type Activities = NonNullable<Parameters<typeof createWorker>[0]>["activities"];

/**
 * The workflows bundled once for the whole run by npm test (scripts/test.mjs: TEST_WORKFLOW_BUNDLE_DIR), so a test
 * worker does not run webpack as it starts; without it (vitest run by hand) each worker bundles the sources itself.
 */
export function testWorkflowBundle(stage: "all" | "render"): string | undefined {
  const dir = process.env.TEST_WORKFLOW_BUNDLE_DIR;
  return dir ? path.join(dir, stage === "render" ? "render.js" : "workflows.js") : undefined;
}

/**
 * Only the render stage, on a given connection and base queue (its light, heavy and render queues, or those
 * WORKER_QUEUES names); also used by tests/support/worker-process-main.ts.
 */
export function createRenderWorker(connection: NativeConnection, taskQueue: string, overrides: Activities = {}): Promise<QueueWorkers> {
  return createQueueWorkers({
    connection,
    taskQueue,
    workflowsPath: fileURLToPath(new URL("../../workflows/render.ts", import.meta.url)),
    workflowBundlePath: testWorkflowBundle("render"),
    // the render stage records its failures in the error log, as every stage does
    activities: {
      prepareRenderPlan,
      prepareStoredRenderPlan,
      renderVideoFast,
      renderVideoExact,
      recordRendererChoice,
      recordRenderFailure,
      logPipelineError,
      planRenderChunks,
      renderVideoChunk,
      mixRenderSound,
      normaliseRenderSound,
      joinRenderChunks,
      discardRenderChunks,
      ...overrides,
    },
  });
}

export async function startTestWorker(
  options: { stage?: "all" | "render"; activities?: Activities } = {},
): Promise<{ worker: QueueWorkers; client: Client; taskQueue: string; stop: () => Promise<void> }> {
  const address = process.env.TEMPORAL_ADDRESS!;
  const taskQueue = process.env.TEMPORAL_TASK_QUEUE!;
  const nativeConnection = await NativeConnection.connect({ address });
  const worker =
    options.stage === "render"
      ? await createRenderWorker(nativeConnection, taskQueue, options.activities)
      : await createWorker({ connection: nativeConnection, taskQueue, activities: options.activities, workflowBundlePath: testWorkflowBundle("all") });
  const running = worker.run();
  const connection = await Connection.connect({ address });
  const client = new Client({ connection, namespace: "default" });
  return {
    worker,
    client,
    taskQueue,
    async stop() {
      worker.shutdown();
      await running;
      await nativeConnection.close();
      await connection.close();
    },
  };
}

/** The attempt a workflow's last activity start reports (Temporal records the final attempt's number there). */
export async function lastActivityAttempt(client: Client, workflowId: string): Promise<number> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const started = (history.events ?? []).filter((e) => e.activityTaskStartedEventAttributes);
  return started.at(-1)?.activityTaskStartedEventAttributes?.attempt ?? 0;
}
