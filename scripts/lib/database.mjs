// Which database a command talks to: DATABASE_URL when set (nothing is started), otherwise the
// embedded server under .data/postgres (started, or attached to when `npm start` already runs it).
import path from "node:path";
import { DATA_DIR } from "./paths.mjs";
import { EMBEDDED_PG_PORT, ensureDatabase, startEmbeddedPostgres } from "./postgres.mjs";

export const EMBEDDED_DATABASE = "reelsmith";

export async function openDatabase({ onLog } = {}) {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, embedded: false, stop: async () => {} };
  const port = Number(process.env.EMBEDDED_PG_PORT ?? EMBEDDED_PG_PORT);
  const { server, stop } = await startEmbeddedPostgres({ dataDir: path.join(DATA_DIR, "postgres"), port, onLog });
  const url = await ensureDatabase(port, EMBEDDED_DATABASE);
  return { url, embedded: true, started: Boolean(server), stop };
}
