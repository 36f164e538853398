// The worker process: runs Reelsmith's workflows and activities on the task queues WORKER_QUEUES names (light,
// heavy, render: decision 155), a Temporal Worker per queue it serves, run and stopped together as one. The light
// queue's worker also runs the workflows; the heavy and render queues' workers run activities only, each with its
// own slot count, so renders never take the slots a script needs.
// first of all: every setting checked, a bad one stops the worker named (issue 47)
import "~/core/settings-at-start.server";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { NativeConnection, Worker } from "@temporalio/worker";
import { workerSlots } from "~/lib/limits";
import { projectFile } from "~/lib/project-files.server";
import { getEnv } from "~/core/env.server";
import { startLeftoverSweeps } from "./engine/render-cleanup";
import * as activities from "./activities";
import { activityInterceptors } from "./worker-interruptions";
import { keepAliveFile } from "./worker-alive";
import { closeBrowser, getCompositionBundle } from "./engine/render-engine";
import { lowerProcessPriority, lowerSessionPriority, workerNiceness } from "./worker-priority";
import { taskQueueFor, type WorkClass } from "./shared/queue-names";
import { WORKFLOW_INTERCEPTOR_MODULES, startWorkerTelemetry, workerActivityInterceptors, workerSinks } from "./observability/worker-telemetry";

export type QueueWorkers = {
  /** The task queues polled, by work class. */
  taskQueues: Partial<Record<WorkClass, string>>;
  workers: Worker[];
  /** Runs every queue's worker; resolves once all have stopped (shutdown(), SIGINT or SIGTERM), rejects when one fails. */
  run(): Promise<void>;
  shutdown(): void;
};

/**
 * How many activities of a class this process runs at once (WORKER_RENDERS, WORKER_HEAVY_ACTIVITIES; light: by
 * cores). Heavy work is partly waiting (a cloud picture or voice, an upload): one slot more than the cores, as
 * `make -j` is given, so two pictures waiting on a service neither idle the cores nor hold back the voiceovers'
 * chain (decision 295).
 */
export function queueSlots(work: WorkClass, cores = os.availableParallelism()): number {
  const env = getEnv();
  if (work === "render") return env.WORKER_RENDERS;
  if (work === "heavy") return env.WORKER_HEAVY_ACTIVITIES ?? Math.max(2, cores) + 1;
  return workerSlots(cores).activities;
}

export async function createQueueWorkers(options: {
  connection: NativeConnection;
  /** The base (light) queue; the heavy and render queues are named after it. */
  taskQueue: string;
  /** Every activity is offered on every queue served, so a run scheduled before a queue moved still finds it. */
  activities: Record<string, (...args: never[]) => unknown>;
  /** The workflows' sources, bundled by the SDK as the worker starts; or the bundle scripts/compile.mjs made. */
  workflowsPath: string;
  workflowBundlePath?: string;
  /** Default: WORKER_QUEUES. */
  queues?: readonly WorkClass[];
}): Promise<QueueWorkers> {
  const env = getEnv();
  const queues = options.queues ?? env.WORKER_QUEUES;
  const taskQueues: QueueWorkers["taskQueues"] = {};
  const workers: Worker[] = [];
  for (const work of queues) {
    const taskQueue = taskQueueFor(options.taskQueue, work);
    taskQueues[work] = taskQueue;
    workers.push(
      await Worker.create({
        connection: options.connection,
        namespace: env.TEMPORAL_NAMESPACE,
        taskQueue,
        ...(work === "light" ? (options.workflowBundlePath ? { workflowBundle: { codePath: options.workflowBundlePath } } : { workflowsPath: options.workflowsPath }) : {}),
        activities: options.activities,
        // a full disk and a restarting database, handled the same way for every activity (decision 182)
        // and the metrics, log ids and trace spans of every activity and workflow (issue 54); a prebuilt bundle has the
        // workflow interceptors inside it already (scripts/compile.mjs names the same modules)
        interceptors: { activity: workerActivityInterceptors(activityInterceptors), ...(options.workflowBundlePath ? {} : { workflowModules: WORKFLOW_INTERCEPTOR_MODULES }) },
        sinks: workerSinks(),
        maxConcurrentActivityTaskExecutions: queueSlots(work),
      }),
    );
  }
  const shutdown = () => {
    // a worker that already stopped (or failed) is left as it is
    for (const worker of workers) if (worker.getState() === "RUNNING") worker.shutdown();
  };
  return {
    taskQueues,
    workers,
    shutdown,
    async run() {
      const runs = workers.map((worker) =>
        worker.run().catch((e: unknown) => {
          // one queue's worker failing stops the others: the process serves all its queues or none
          shutdown();
          throw e;
        }),
      );
      const results = await Promise.allSettled(runs);
      const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
      if (failed) throw failed.reason;
    },
  };
}


/**
 * The worker: one Temporal Worker for each queue served, all derived from `taskQueue` (TEMPORAL_TASK_QUEUE by
 * default), run and shut down as one. `activities` replaces some of the real activities (tests hand in failing or
 * slow providers this way); `queues` overrides WORKER_QUEUES.
 */
/** dist/workflow-bundle.js when this module runs compiled from dist/ (scripts/compile.mjs writes both); else none. */
function compiledWorkflowBundle(): string | undefined {
  const beside = fileURLToPath(new URL("./workflow-bundle.js", import.meta.url));
  return path.basename(path.dirname(beside)) === "dist" && fs.existsSync(beside) ? beside : undefined;
}

export async function createWorker(
  options: {
    connection?: NativeConnection;
    taskQueue?: string;
    activities?: Record<string, (...args: never[]) => unknown>;
    queues?: readonly WorkClass[];
    /** A bundle made beforehand (scripts/lib/workflow-bundle.mjs); the tests hand in one per run. */
    workflowBundlePath?: string;
  } = {},
): Promise<QueueWorkers> {
  const env = getEnv();
  const connection = options.connection ?? (await NativeConnection.connect({ address: env.TEMPORAL_ADDRESS }));
  return createQueueWorkers({
    connection,
    taskQueue: options.taskQueue ?? env.TEMPORAL_TASK_QUEUE,
    // the sources, found from the project's root; the compiled worker (dist/worker.js) loads the bundle compiled beside
    // it instead (decision 257): webpack at every start took ~15 s on a quiet machine and minutes on a busy first run
    workflowsPath: projectFile("workflows/index.ts"),
    workflowBundlePath: options.workflowBundlePath ?? compiledWorkflowBundle(),
    activities: { ...activities, ...options.activities },
    queues: options.queues,
  });
}

async function main() {
  // JSON log lines with workflow and activity ids, /metrics, traces; before the first connection (issue 54)
  const telemetry = await startWorkerTelemetry(getEnv());
  // renders, speech and images yield the cores to the web server, PostgreSQL and Temporal (decision 130)
  const nice = workerNiceness();
  lowerProcessPriority(nice);
  // in a session of its own (npm start), the session's scheduling group too: threads' nice counts only within it
  const sessionLowered = lowerSessionPriority(nice);
  // older videos and what crashed or cancelled renders left behind: now, then every hour (decision 051)
  const stopSweeps = startLeftoverSweeps();
  // the composition is bundled while the worker starts, not when the first render arrives (that render awaits it)
  const started = performance.now();
  getCompositionBundle().then(
    () => console.log(`video composition bundled in ${((performance.now() - started) / 1000).toFixed(1)} s`),
    (e: unknown) => console.error("bundling the video composition failed (the next render tries again):", e),
  );
  const worker = await createWorker();
  lowerProcessPriority(nice); // the threads the Temporal core just started
  const env = getEnv();
  const queues = Object.entries(worker.taskQueues).map(([work, queue]) => `"${queue}" (${work}, ${queueSlots(work as WorkClass)} at once)`);
  console.log(`worker polling task queues ${queues.join(", ")} on ${env.TEMPORAL_ADDRESS} at niceness ${nice}${sessionLowered ? " (its session's too)" : ""}`);
  const stopAliveFile = keepAliveFile(env.WORKER_ALIVE_FILE, worker);
  // run() ends on SIGINT/SIGTERM after in-flight activities get a chance to finish.
  await worker.run();
  stopAliveFile();
  stopSweeps();
  await closeBrowser();
  await telemetry.close();
}

// the program's entry (tsx, or dist/worker.js), not a module another one imports
if (import.meta.main) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
