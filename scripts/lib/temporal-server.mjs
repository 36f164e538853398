// The Temporal dev server (`temporal server start-dev`): the real server and its Web UI in one binary.
import fs from "node:fs";
import path from "node:path";
import { ensureTemporalCli } from "./temporal-cli.mjs";
import { isPortOpen, startChild, waitForPort } from "./processes.mjs";

/**
 * Starts the dev server unless one already listens on `port`. `dbFile` keeps history across restarts;
 * without it the server keeps everything in memory (tests).
 */
export async function startTemporalDevServer({ port = 7233, uiPort = 8233, dbFile, headless = false, name = "temporal" } = {}) {
  if (await isPortOpen(port)) return { address: `127.0.0.1:${port}`, attached: true };
  const cli = ensureTemporalCli();
  const args = ["server", "start-dev", "--ip", "127.0.0.1", "--port", String(port), "--namespace", "default", "--log-level", "warn"];
  if (dbFile) {
    fs.mkdirSync(path.dirname(dbFile), { recursive: true });
    args.push("--db-filename", dbFile);
  }
  args.push(...(headless ? ["--headless"] : ["--ui-port", String(uiPort)]));
  const child = startChild(name, cli, args, { quiet: true });
  await waitForPort(port, { what: "the Temporal server", child, timeoutMs: 60_000 });
  if (!headless) await waitForPort(uiPort, { what: "the Temporal Web UI", child, timeoutMs: 30_000 });
  return { address: `127.0.0.1:${port}`, attached: false, child };
}
