// A worker process for the YouTube upload tests: the whole worker (createWorker) on the test file's task queue,
// run as a script (`node --import tsx tests/integration/youtube-worker.ts`) so a test can kill it mid-upload.
import { NativeConnection } from "@temporalio/worker";
import { createWorker } from "../../workflows/worker";

const connection = await NativeConnection.connect({ address: process.env.TEMPORAL_ADDRESS! });
const worker = await createWorker({ connection, taskQueue: process.env.TEMPORAL_TASK_QUEUE! });
console.log("youtube worker ready");
await worker.run();
