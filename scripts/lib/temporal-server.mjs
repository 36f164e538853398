// The Temporal dev server (`temporal server start-dev`): the real server and its Web UI in one binary.
import fs from "node:fs";
import path from "node:path";
import { ensureTemporalCli } from "./temporal-cli.mjs";
import { isPortOpen, startChild, superviseChild, waitForPort } from "./processes.mjs";

/**
 * New tasks go to one partition of each task queue (decision 195). With the default four, a task that waited in a
 * partition's backlog while the one worker was busy (a render's next chunk, its sound) reached that worker only when
 * its poll landed on that partition: the worker's render slot stood free for one to four long polls of 60 s
 * (bench:long, 20 minutes: two minutes of 950 s). Every partition is still read, so tasks an older server wrote to
 * the others (a persisted .data/temporal/temporal.db) are still dispatched; a poll on an empty partition is
 * forwarded to the one that holds the tasks. docker-compose.yml gives the Temporal cluster the same setting.
 */
export const TEMPORAL_DYNAMIC_CONFIG = ["matching.numTaskqueueWritePartitions=1"];

/**
 * Starts the dev server unless one already listens on `port`. `dbFile` keeps history across restarts;
 * without it the server keeps everything in memory (tests). `supervise`: started again when it dies, with
 * back-off and its last lines in the log (issue 31); clients and workers reconnect by themselves.
 */
export async function startTemporalDevServer({ port = 7233, uiPort = 8233, dbFile = /** @type {string | undefined} */ (undefined), headless = false, name = "temporal", supervise = false } = {}) {
  if (await isPortOpen(port)) return { address: `127.0.0.1:${port}`, attached: true };
  const cli = ensureTemporalCli();
  const args = ["server", "start-dev", "--ip", "127.0.0.1", "--port", String(port), "--namespace", "default", "--log-level", "warn"];
  for (const value of TEMPORAL_DYNAMIC_CONFIG) args.push("--dynamic-config-value", value);
  if (dbFile) {
    fs.mkdirSync(path.dirname(dbFile), { recursive: true });
    args.push("--db-filename", dbFile);
  }
  args.push(...(headless ? ["--headless"] : ["--ui-port", String(uiPort)]));
  const child = supervise ? superviseChild(name, cli, args, { quiet: true }).child : startChild(name, cli, args, { quiet: true });
  await waitForPort(port, { what: "the Temporal server", child, timeoutMs: 60_000 });
  if (!headless) await waitForPort(uiPort, { what: "the Temporal Web UI", child, timeoutMs: 30_000 });
  return { address: `127.0.0.1:${port}`, attached: false, child };
}
