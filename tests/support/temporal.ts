// A worker for one integration test file, on the file's own task queue, against the test Temporal server.
import { Client, Connection } from "@temporalio/client";
import { NativeConnection, type Worker } from "@temporalio/worker";
import { createWorker } from "../../workflows/worker";

export async function startTestWorker(
  options: { activities?: Parameters<typeof createWorker>[0] extends infer O ? O extends { activities?: infer A } ? A : never : never } = {},
): Promise<{ worker: Worker; client: Client; taskQueue: string; stop: () => Promise<void> }> {
  const address = process.env.TEMPORAL_ADDRESS!;
  const taskQueue = process.env.TEMPORAL_TASK_QUEUE!;
  const nativeConnection = await NativeConnection.connect({ address });
  const worker = await createWorker({ connection: nativeConnection, taskQueue, activities: options.activities });
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
