// The Temporal dev server (`temporal server start-dev`): the real server and its Web UI in one binary.
import fs from "node:fs";
import path from "node:path";
import { ensureTemporalCli } from "./temporal-cli.mjs";
import { logger } from "./log.mjs";
import { isPortOpen, startChild, superviseChild } from "./processes.mjs";
import { httpProbe, waitUntilReady } from "./readiness.mjs";

/**
 * New tasks go to one partition of each task queue (decision 195). With the default four, a task that waited in a
 * partition's backlog while the one worker was busy (a render's next chunk, its sound) reached that worker only when
 * its poll landed on that partition: the worker's render slot stood free for one to four long polls of 60 s
 * (bench:long, 20 minutes: two minutes of 950 s). Every partition is still read, so tasks an older server wrote to
 * the others (a persisted .data/temporal/temporal.db) are still dispatched; a poll on an empty partition is
 * forwarded to the one that holds the tasks. docker-compose.yml gives the Temporal cluster the same setting.
 */
// and the matcher that dispatches a queue's backlog by priority (decision 298: long work marked LONG_WORK waits behind
// the short steps; the older matcher, this server version's default, ignores priorities)
export const TEMPORAL_DYNAMIC_CONFIG = ["matching.numTaskqueueWritePartitions=1", "matching.useNewMatcher=true"];

/** The gRPC health check's SERVING (grpc.health.v1.HealthCheckResponse.ServingStatus). */
const SERVING = 1;

/**
 * A readiness probe for waitUntilReady: the server's own gRPC health check answers SERVING for the workflow service
 * and `namespace` is registered, so a client or a worker that connects now is served (an open port is not enough:
 * the frontend listens before the namespace exists). Resolves to true, or to why not.
 */
export async function temporalReady(address, namespace = "default") {
  const { Connection } = await import("@temporalio/client");
  let connection;
  try {
    connection = await Connection.connect({ address, connectTimeout: 2000 });
    const health = await connection.healthService.check({ service: "temporal.api.workflowservice.v1.WorkflowService" });
    if (health.status !== SERVING) return `health check: status ${health.status}`;
    await connection.workflowService.describeNamespace({ namespace });
    return true;
  } catch (e) {
    return String(e?.message ?? e).split("\n")[0];
  } finally {
    await connection?.close().catch(() => {});
  }
}

/**
 * Starts the dev server unless one already listens on `port` (then waits for that one to be ready). `dbFile` keeps
 * history across restarts; without it the server keeps everything in memory (tests). `supervise`: started again when
 * it dies, with back-off and its last lines in the log (issue 31); clients and workers reconnect by themselves.
 * Ready means its gRPC health check answers SERVING and the namespace exists (temporalReady), with the patience of a
 * busy first run (waitUntilReady): the CLI is built before, never while it starts (issue 47).
 */
export async function startTemporalDevServer({ port = 7233, uiPort = 8233, dbFile = /** @type {string | undefined} */ (undefined), headless = false, name = "temporal", supervise = false } = {}) {
  const address = `127.0.0.1:${port}`;
  const log = logger(name);
  if (await isPortOpen(port)) {
    await waitUntilReady({ what: `the Temporal server at ${address}`, probe: () => temporalReady(address), log });
    return { address, attached: true };
  }
  const cli = await ensureTemporalCli();
  const args = ["server", "start-dev", "--ip", "127.0.0.1", "--port", String(port), "--namespace", "default", "--log-level", "warn"];
  for (const value of TEMPORAL_DYNAMIC_CONFIG) args.push("--dynamic-config-value", value);
  if (dbFile) {
    fs.mkdirSync(path.dirname(dbFile), { recursive: true });
    args.push("--db-filename", dbFile);
  }
  args.push(...(headless ? ["--headless"] : ["--ui-port", String(uiPort)]));
  const child = supervise ? superviseChild(name, cli, args, { quiet: true }).child : startChild(name, cli, args, { quiet: true });
  await waitUntilReady({ what: "the Temporal server", child, probe: () => temporalReady(address), log });
  if (!headless) await waitUntilReady({ what: "the Temporal Web UI", child, probe: httpProbe(`http://127.0.0.1:${uiPort}/`), log });
  return { address, attached: false, child };
}
