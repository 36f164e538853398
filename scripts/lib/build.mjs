// Builds the web app (remix vite:build, into build/) and compiles the web server and the worker (scripts/compile.mjs,
// into dist/; decision 204) when their sources are newer than the last build.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ROOT } from "./paths.mjs";
import { logger } from "./log.mjs";

const INPUTS = ["app", "workflows", "remotion", "public", "remix.config.js", "vite.config.ts", "tailwind.config.ts", "postcss.config.js", "package-lock.json"];
const OUTPUT = path.join(ROOT, "build/server/index.js");
/** What the compiled server and worker are made of, and the file written last. */
const COMPILE_INPUTS = ["app", "workflows", "server.ts", "scripts/check-settings.ts", "scripts/compile.mjs", "scripts/lib/external-packages.mjs", "tsconfig.json", "package-lock.json"];
const COMPILED = path.join(ROOT, "dist/worker.js");

function newestMtime(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

export function buildIsStale() {
  if (!fs.existsSync(OUTPUT)) return true;
  const built = fs.statSync(OUTPUT).mtimeMs;
  return INPUTS.some((input) => newestMtime(path.join(ROOT, input)) > built);
}

export function compiledIsStale() {
  if (!fs.existsSync(COMPILED)) return true;
  const built = fs.statSync(COMPILED).mtimeMs;
  return COMPILE_INPUTS.some((input) => newestMtime(path.join(ROOT, input)) > built);
}

/** The web app, unless it is up to date; with `server`, the compiled web server and worker too. Whether it built. */
export function ensureBuild({ force = false, server = false } = {}) {
  let built = false;
  if (force || buildIsStale()) {
    logger("reelsmith").info("building the web app...");
    const r = spawnSync(path.join(ROOT, "node_modules/.bin/remix"), ["vite:build"], { cwd: ROOT, stdio: "inherit" });
    if (r.status !== 0) throw new Error(`remix vite:build failed (exit ${r.status})`);
    built = true;
  }
  if (server && (force || compiledIsStale())) {
    logger("reelsmith").info("compiling the web server and the worker...");
    const r = spawnSync(process.execPath, [path.join(ROOT, "scripts/compile.mjs")], { cwd: ROOT, stdio: "inherit" });
    if (r.status !== 0) throw new Error(`scripts/compile.mjs failed (exit ${r.status})`);
    built = true;
  }
  return built;
}

/**
 * The node arguments that start the web server ("server") or the worker ("worker") as `npm start` does in production:
 * the compiled file in dist/, compiled first when its sources changed. The tests' app, drill stack and web processes
 * start these (decision 284): started through tsx, each loaded the app's TypeScript through tsx's hooks (about 5 CPU
 * seconds) and the worker then bundled its workflows with webpack, at every start and every restart after a kill.
 */
export function compiledEntry(name) {
  ensureBuild({ server: true });
  return ["--enable-source-maps", path.join(ROOT, "dist", `${name}.js`)];
}
