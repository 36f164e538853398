// The app a benchmark measures, started as the browser tests start it (scripts/lib/test-app.mjs: the built web
// server and a worker against a fresh database, the test servers on TEST_PG_PORT / TEST_TEMPORAL_PORT / E2E_PORT),
// with this process pointed at the same database, media folder and task queue, for the server functions a
// benchmark calls directly. stopBenchApp() stops all of it.
import { ensureBuild } from "./build.mjs";
import { stopChildren } from "./processes.mjs";
import { startAppForTests } from "./test-app.mjs";
import { startTestServers } from "./test-servers.mjs";

let servers: Awaited<ReturnType<typeof startTestServers>> | undefined;

export async function startBenchApp() {
  ensureBuild();
  servers = await startTestServers();
  const app = await startAppForTests(servers.env);
  Object.assign(process.env, {
    DATABASE_URL: process.env.E2E_DATABASE_URL,
    DATA_DIR: process.env.E2E_DATA_DIR,
    TEMPORAL_ADDRESS: servers.env.TEMPORAL_ADDRESS,
    TEMPORAL_TASK_QUEUE: process.env.E2E_TASK_QUEUE,
  });
  return app;
}

export async function stopBenchApp() {
  await stopChildren(5000).catch(() => {});
  await servers?.stop().catch(() => {});
}
