// The worker process: runs Reelsmith's workflows and activities on one task queue.
import os from "node:os";
import { fileURLToPath } from "node:url";
import { workerSlots } from "~/lib/limits";
import { NativeConnection, Worker } from "@temporalio/worker";
import { getEnv } from "~/server/env.server";
import { startLeftoverSweeps } from "~/server/render-cleanup.server";
import * as activities from "./activities";
import { activityInterceptors } from "./activities/interruptions";
import { closeBrowser, getCompositionBundle } from "./activities/render-engine";
import { lowerProcessPriority, workerNiceness } from "./activities/process-priority";

/** `activities` replaces some of the real activities (tests hand in failing or slow providers this way). */
export async function createWorker(
  options: { connection?: NativeConnection; taskQueue?: string; activities?: Record<string, (...args: never[]) => unknown> } = {},
) {
  const env = getEnv();
  const connection = options.connection ?? (await NativeConnection.connect({ address: env.TEMPORAL_ADDRESS }));
  return Worker.create({
    connection,
    namespace: env.TEMPORAL_NAMESPACE,
    taskQueue: options.taskQueue ?? env.TEMPORAL_TASK_QUEUE,
    workflowsPath: fileURLToPath(new URL("./index.ts", import.meta.url)),
    activities: { ...activities, ...options.activities },
    // a full disk and a restarting database, handled the same way for every activity (decision 182)
    interceptors: { activity: activityInterceptors },
    // Sized to the machine (workerSlots in app/lib/limits.ts): a render is worth two cores.
    maxConcurrentActivityTaskExecutions: workerSlots(os.availableParallelism()).activities,
  });
}

async function main() {
  // renders, speech and images yield the cores to the web server, PostgreSQL and Temporal (decision 130)
  const nice = workerNiceness();
  lowerProcessPriority(nice);
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
  console.log(`worker polling task queue "${env.TEMPORAL_TASK_QUEUE}" on ${env.TEMPORAL_ADDRESS} at niceness ${nice}`);
  // Worker.run() ends on SIGINT/SIGTERM after in-flight activities get a chance to finish.
  await worker.run();
  stopSweeps();
  await closeBrowser();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
