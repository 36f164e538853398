// Which database a command talks to: DATABASE_URL when set (nothing is started), otherwise the
// embedded server under .data/postgres (started, or attached to when `npm start` already runs it).
import path from "node:path";
import { DATA_DIR } from "./paths.mjs";
import { EMBEDDED_PG_PORT, ensureDatabase, startEmbeddedPostgres } from "./postgres.mjs";
import { superviseService } from "./processes.mjs";

export const EMBEDDED_DATABASE = "reelsmith";

/**
 * `supervise`: the embedded server we started is started again when it dies (SIGKILL, OOM), with back-off and
 * its last lines in the log (issue 31); the web and the worker reconnect by themselves.
 */
export async function openDatabase({ onLog, supervise = false, dataDir = path.join(DATA_DIR, "postgres"), port = Number(process.env.EMBEDDED_PG_PORT ?? EMBEDDED_PG_PORT) } = {}) {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, embedded: false, stop: async () => {} };
  let current = await startEmbeddedPostgres({ dataDir, port, onLog });
  const url = await ensureDatabase(port, EMBEDDED_DATABASE);
  const started = Boolean(current.server);
  if (supervise && started) {
    const first = current;
    let firstStart = true;
    await superviseService("postgres", async () => {
      if (firstStart) {
        firstStart = false;
        return first;
      }
      current = await startEmbeddedPostgres({ dataDir, port, onLog });
      if (!current.server) throw new Error(`another PostgreSQL took port ${port}`);
      return current;
    });
  }
  return { url, embedded: true, started, stop: () => current.stop() };
}
