// A worker that runs only the render stage (its workflow and activities), on the test file's task queue.
// The render tests use it so that they test rendering alone, whatever state the other stages are in.
// Run as a script (`node --import tsx tests/integration/render-worker.ts`), it is a separate worker process
// that a test can kill mid-render.
import { fileURLToPath } from "node:url";
import { NativeConnection, Worker } from "@temporalio/worker";
import { prepareRenderPlan, recordRenderFailure, renderStoryboardVideo } from "../../workflows/activities/render";

export async function createRenderWorker(connection: NativeConnection, taskQueue: string): Promise<Worker> {
  return Worker.create({
    connection,
    namespace: "default",
    taskQueue,
    workflowsPath: fileURLToPath(new URL("../../workflows/render.ts", import.meta.url)),
    activities: { prepareRenderPlan, renderStoryboardVideo, recordRenderFailure },
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const connection = await NativeConnection.connect({ address: process.env.TEMPORAL_ADDRESS! });
  const worker = await createRenderWorker(connection, process.env.TEMPORAL_TASK_QUEUE!);
  console.log("render worker ready");
  await worker.run();
}
