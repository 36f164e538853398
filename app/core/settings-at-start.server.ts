// Imported first by the web server (server.ts) and the worker (workflows/worker.ts), before any module that reads a
// setting while it loads (db.server.ts does): every setting is checked here, and a bad one stops the process with
// exit code 1 and a line naming it and saying what it must be, not a stack from whichever module read it first
// (issue 47). The worker's settings are the web's: one schema, app/core/env.server.ts.
import { EnvError, getEnv } from "./env.server";

try {
  getEnv();
} catch (e) {
  if (!(e instanceof EnvError)) throw e;
  const who = /worker\.[jt]s$/.test(process.argv[1] ?? "") ? "worker" : "web";
  console.error(`${who}: refusing to start. ${e.message}`);
  process.exit(1);
}
