// Runs one of the TypeScript scripts (benchmarks, backup, restore, drills) the way npm start and npm test run: on
// Node 24 (installed on first use; issue 31), with the npm packages and the Prisma client in place (a fresh clone's
// bench builds the app, which imports the generated client), and tsx loading the TypeScript.
//   node scripts/run-ts.mjs scripts/bench-render.ts [its arguments]
import { spawn } from "node:child_process";
import os from "node:os";
import { ensureSupportedNode } from "./lib/node-runtime.mjs";

await ensureSupportedNode();
const { ensureDependencies } = await import("./lib/dependencies.mjs");
ensureDependencies();
const child = spawn(process.execPath, ["--import", "tsx", ...process.argv.slice(2)], { stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? 128 + (os.constants.signals[signal] ?? 1)));
