// npm start (production build) and npm run dev (hot reload): everything Reelsmith needs, in one command.
// Installs what is missing, starts PostgreSQL and Temporal (with its Web UI) unless DATABASE_URL /
// TEMPORAL_ADDRESS point elsewhere, with STORAGE=s3 an object store (versitygw, decision 150) unless S3_ENDPOINT
// points elsewhere, applies migrations, builds, then runs the web server (WEB_PROCESSES of them
// on one port, default 1; decision 133) and the worker.
// Everything a render needs (ffmpeg, the headless shell, the caption font) is installed or reported before
// anything starts. The web server, the worker, PostgreSQL and Temporal are supervised: a crashed one is started
// again with back-off, its last lines in the log (an interrupted render resumes through Temporal's retry; the web
// and the worker reconnect by themselves). Ctrl-C stops every child; nothing is left running.
import fs from "node:fs";
import path from "node:path";
import { ensureDependencies } from "./lib/dependencies.mjs";
import { ensureSupportedNode } from "./lib/node-runtime.mjs";
import { DATA_DIR, ROOT } from "./lib/paths.mjs";
import { logger } from "./lib/log.mjs";
import { webProcessCount } from "./lib/web-cluster.mjs";
import { WORKER_MALLOC_ENV } from "./lib/worker-malloc.mjs";

const dev = process.argv.includes("--dev");
const log = logger("reelsmith");
const started = performance.now();
const seconds = () => ((performance.now() - started) / 1000).toFixed(1);

// on an older Node, runs this script again under Node 24 from the npm registry (issue 31)
await ensureSupportedNode();
ensureDependencies();
// every setting checked before anything starts (the web server's and the worker's schema): a bad one stops this
// command, named, instead of a web server or worker the supervisor would restart again and again (issue 47)
{
  const { spawnSync } = await import("node:child_process");
  const check = spawnSync(process.execPath, ["--import", "tsx", "scripts/check-settings.ts"], { cwd: ROOT, stdio: "inherit" });
  if (check.status !== 0) {
    log.error("fix the setting(s) above and start again");
    process.exit(1);
  }
}
const { ensureSystemPackages } = await import("./lib/system-packages.mjs");
try {
  ensureSystemPackages({ for: "render" });
} catch (e) {
  log.error(`cannot render videos: ${e.message}`);
  process.exit(1);
}
// the neural voice, once per machine; without it the offline voices are Flite and eSpeak NG (decision 205)
await (await import("./lib/voices.mjs")).ensureTestVoice();
// Only now can modules that need npm packages be loaded.
const { openDatabase } = await import("./lib/database.mjs");
const { applyMigrations } = await import("./lib/migrations.mjs");
const { startTemporalDevServer } = await import("./lib/temporal-server.mjs");
const { OBJECT_STORE_PORT, startObjectStore } = await import("./lib/object-store.mjs");
const { superviseChild, stopChildren } = await import("./lib/processes.mjs");
const { httpProbe, waitUntilReady } = await import("./lib/readiness.mjs");
const { ensureTemporalCli } = await import("./lib/temporal-cli.mjs");
const { ensureVersitygw } = await import("./lib/versitygw.mjs");
const { ensureBuild } = await import("./lib/build.mjs");

const PORT = Number(process.env.PORT ?? 3000);
let webProcesses = 1;
try {
  webProcesses = webProcessCount();
} catch (e) {
  log.error(e.message);
  process.exit(1);
}
if (dev && webProcesses > 1) {
  log.info("WEB_PROCESSES is ignored with --dev (one process, with hot reload)");
  webProcesses = 1;
}
const TEMPORAL_UI_PORT = 8233;
let database;
let stopping = false;

async function shutdown(code = 0) {
  if (stopping) return;
  stopping = true;
  log.info("stopping...");
  await stopChildren();
  await database?.stop().catch((e) => log.error("postgres did not stop cleanly:", e?.message ?? e));
  log.info("stopped");
  process.exit(code);
}
process.on("SIGINT", () => shutdown(0));
process.on("SIGTERM", () => shutdown(0));

try {
  // the Go programs this run needs are built first, alone, never beside a starting server (issue 47)
  if (!process.env.TEMPORAL_ADDRESS) await ensureTemporalCli();
  if (process.env.STORAGE === "s3" && !process.env.S3_ENDPOINT) await ensureVersitygw();
  fs.mkdirSync(path.join(DATA_DIR, "logs"), { recursive: true });
  const pgLog = fs.createWriteStream(path.join(DATA_DIR, "logs/postgres.log"), { flags: "a" });
  // PostgreSQL and Temporal are supervised like the web and the worker (issue 31)
  database = await openDatabase({ onLog: (line) => pgLog.write(line), supervise: true });
  log.info(
    database.embedded
      ? `PostgreSQL (embedded, data in ${path.relative(process.cwd(), DATA_DIR)}/postgres) ${database.started ? "started" : "already running: attached"}`
      : "PostgreSQL: using DATABASE_URL",
  );

  let temporalAddress = process.env.TEMPORAL_ADDRESS;
  if (!temporalAddress) {
    const temporal = await startTemporalDevServer({ dbFile: path.join(DATA_DIR, "temporal/temporal.db"), uiPort: TEMPORAL_UI_PORT, supervise: true });
    temporalAddress = temporal.address;
    log.info(`Temporal dev server ${temporal.attached ? "already running: attached" : "started"} at ${temporalAddress}`);
  }

  // STORAGE=s3 without S3_ENDPOINT: the development object store under DATA_DIR (decision 150)
  let storageEnv = {};
  if (process.env.STORAGE === "s3" && !process.env.S3_ENDPOINT) {
    const store = await startObjectStore({ dir: path.join(DATA_DIR, "object-store"), supervise: true });
    storageEnv = store.env;
    log.info(`object store (versitygw, data in ${path.relative(process.cwd(), DATA_DIR)}/object-store) ${store.attached ? "already running: attached" : "started"} at ${store.url}, bucket ${store.env.S3_BUCKET}`);
  } else if (process.env.STORAGE === "s3") {
    log.info(`media storage: the bucket ${process.env.S3_BUCKET ?? "(S3_BUCKET unset)"} at ${process.env.S3_ENDPOINT}`);
  }

  const applied = await applyMigrations(database.url);
  log.info(applied.length ? `migrations applied: ${applied.join(", ")}` : "database schema up to date");

  // production: the built web app and the compiled web server and worker (dist/, decision 204), run by node alone
  if (!dev && ensureBuild({ server: true })) log.info("web app built, web server and worker compiled");

  const env = {
    DATABASE_URL: database.url,
    TEMPORAL_ADDRESS: temporalAddress,
    PORT: String(PORT),
    NODE_ENV: dev ? "development" : "production",
    DATA_DIR,
    // readable log lines in this terminal; JSON lines (the default) where a log collector reads them (issue 54)
    LOG_FORMAT: process.env.LOG_FORMAT ?? "pretty",
    ...storageEnv,
  };
  const tsx = ["--import", "tsx"];
  const [webArgs, workerArgs] = dev ? [[...tsx, "server.ts"], [...tsx, "--watch", "workflows/worker.ts"]] : [["dist/server.js"], ["dist/worker.js"]];
  // WEB_PROCESSES > 1: that many web server processes share PORT through node's cluster (decision 133)
  if (webProcesses > 1) superviseChild("web", process.execPath, ["scripts/lib/web-cluster.mjs"], { env: { ...env, WEB_PROCESSES: String(webProcesses) } });
  else superviseChild("web", process.execPath, webArgs, { env });
  // the worker's pool: its activity slots and heartbeats need about 10 connections (decision 130)
  const workerEnv = { ...env, ...WORKER_MALLOC_ENV, DATABASE_POOL_SIZE: process.env.WORKER_DATABASE_POOL_SIZE ?? "10" };
  superviseChild("worker", process.execPath, workerArgs, { env: workerEnv });
  // the web server's own health answer (database and Temporal reachable), with the patience of a busy first start
  await waitUntilReady({ what: "the web server", probe: httpProbe(`http://127.0.0.1:${PORT}/healthz`), log });

  log.info(`ready in ${seconds()} s`);
  log.info(`  Reelsmith:        http://localhost:${PORT}${webProcesses > 1 ? ` (${webProcesses} web processes)` : ""}`);
  if (!process.env.TEMPORAL_ADDRESS) log.info(`  Temporal Web UI:  http://localhost:${TEMPORAL_UI_PORT}`);
  if (storageEnv.S3_ENDPOINT) log.info(`  Object store:     ${storageEnv.S3_ENDPOINT} (bucket ${storageEnv.S3_BUCKET}; port ${OBJECT_STORE_PORT}, OBJECT_STORE_PORT moves it)`);
  log.info(`  Health:           http://localhost:${PORT}/healthz`);
  // Who can sign in (issue 20): the built-in provider checks nothing, so say so every time.
  if (!process.env.OIDC_ISSUER) {
    if (process.env.DANGEROUSLY_EXPOSE_BUILTIN_SIGNIN) {
      log.error("!!! DANGER: the built-in sign-in is EXPOSED (DANGEROUSLY_EXPOSE_BUILTIN_SIGNIN is set): anyone who reaches");
      log.error("!!! this server can sign in as ANY e-mail and take over that account. Set OIDC_ISSUER to use a real provider.");
    } else {
      log.info("  Sign-in:          built-in, for this computer only (listening on 127.0.0.1): anyone here can sign in as any e-mail.");
      log.info("                    To open Reelsmith to other machines, set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET.");
      if (process.env.OWNER_EMAIL && process.env.BUILTIN_SIGNIN_ALLOWS_OWNER !== "true") {
        log.info(`                    The owner account (${process.env.OWNER_EMAIL}) cannot be claimed here (BUILTIN_SIGNIN_ALLOWS_OWNER=true allows it).`);
      }
    }
  } else {
    log.info(`  Sign-in:          ${process.env.OIDC_ISSUER} (verified e-mails only)`);
  }
  log.info("Press Ctrl-C to stop.");
} catch (e) {
  log.error(e?.message ?? e);
  await shutdown(1);
}
