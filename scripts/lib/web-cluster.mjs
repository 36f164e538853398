// The web tier as WEB_PROCESSES server.ts processes on one port (decision 133): node's cluster module. This
// primary opens no app of its own; each worker runs server.ts, and their listen() on PORT is shared through the
// primary, which hands new connections to the workers in turn (round-robin). The workers keep no state another
// would miss (sessions, rate limits and the built-in sign-in's state live in PostgreSQL), so any of them may
// answer any request. A worker that dies is started again with back-off; SIGTERM/SIGINT stop them all.
//   node scripts/lib/web-cluster.mjs        (scripts/start.mjs runs it when WEB_PROCESSES > 1; so does docker-compose.yml)
import cluster from "node:cluster";
import fs from "node:fs";
import path from "node:path";
import { ROOT } from "./paths.mjs";

/** WEB_PROCESSES as a count: 1 when unset, an error naming the variable when it is not 1..64. */
export function webProcessCount(value = process.env.WEB_PROCESSES) {
  if (value === undefined || value.trim() === "") return 1;
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1 || count > 64) throw new Error(`WEB_PROCESSES must be a whole number from 1 to 64, not "${value}"`);
  return count;
}

function runPrimary(count) {
  const log = (line) => console.log(`web-cluster: ${line}`);
  // in production the compiled server (dist/server.js: `npm run build`, the Docker image; decision 204), else the source
  const compiled = path.join(ROOT, "dist/server.js");
  const exec = process.env.NODE_ENV === "production" && fs.existsSync(compiled) ? { exec: compiled, execArgv: [] } : { exec: path.join(ROOT, "server.ts"), execArgv: ["--import", "tsx"] };
  cluster.setupPrimary({ ...exec, cwd: ROOT });
  let stopping = false;
  const backoff = new Map(); // slot -> next delay (ms)

  const fork = (slot) => {
    const startedAt = Date.now();
    const worker = cluster.fork();
    worker.on("exit", (code, signal) => {
      if (stopping) return;
      // a run that lasted a minute was healthy: start again quickly; else double the wait, up to 30 s
      const delay = Date.now() - startedAt >= 60_000 ? 1000 : (backoff.get(slot) ?? 1000);
      backoff.set(slot, Math.min(30_000, delay * 2));
      log(`web process ${slot} (pid ${worker.process.pid}) exited (${signal ?? `code ${code}`}); starting it again in ${delay / 1000} s`);
      setTimeout(() => !stopping && fork(slot), delay);
    });
  };

  const stop = () => {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter(Boolean);
    for (const worker of workers) worker.process.kill("SIGTERM");
    const done = () => Object.keys(cluster.workers ?? {}).length === 0 && process.exit(0);
    cluster.on("exit", done);
    done();
    setTimeout(() => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGKILL");
      process.exit(0);
    }, 10_000).unref();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);

  log(`starting ${count} web processes on one port`);
  for (let slot = 1; slot <= count; slot++) fork(slot);
}

if (cluster.isPrimary && process.argv[1] && path.resolve(process.argv[1]) === path.join(ROOT, "scripts/lib/web-cluster.mjs")) {
  try {
    runPrimary(webProcessCount());
  } catch (e) {
    console.error(`web-cluster: ${e.message}`);
    process.exit(1);
  }
}
