// Reelsmith runs on Node 24 LTS (package.json "engines"; issue 31). On a machine whose installed Node is older,
// `npm start`, `npm test` and the other scripts that call ensureSupportedNode() fetch Node 24 from the npm
// registry (the official builds, published there as `node-<platform>-<arch>`, the package the `node` package
// installs) into the per-machine cache, and run themselves again under it with that Node first on PATH, so every
// child (npm install, tsc, vitest, the web server, the worker) runs under Node 24 too.
// Only node built-ins here: this runs before anything is installed.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { MACHINE_CACHE } from "./paths.mjs";
import { logger } from "./log.mjs";

/** The Node this project runs on when the installed one is older. Bump with package.json's "engines". */
export const NODE_VERSION = "24.21.0";
export const REQUIRED_MAJOR = 24;
const log = logger("reelsmith");

const major = (version) => Number(String(version).replace(/^v/, "").split(".")[0]);

/** Where the cached Node lives: <cache>/node/<version>/node_modules/node-<platform>-<arch>/bin/node */
export function cachedNodeDir(version = NODE_VERSION) {
  const pkg = `node-${process.platform === "win32" ? "win" : process.platform}-${process.arch}`;
  const prefix = path.join(MACHINE_CACHE, "node", version);
  return { prefix, pkg, bin: path.join(prefix, "node_modules", pkg, "bin") };
}

function installCachedNode() {
  const { prefix, pkg, bin } = cachedNodeDir();
  const nodeBin = path.join(bin, "node");
  if (fs.existsSync(nodeBin)) return nodeBin;
  log.info(`installing Node ${NODE_VERSION} from the npm registry (${pkg}) into ${prefix} (once per machine)...`);
  // into a temporary folder first, then renamed: an interrupted download never looks like a cached Node
  const partial = `${prefix}.partial-${process.pid}`;
  fs.rmSync(partial, { recursive: true, force: true });
  fs.mkdirSync(partial, { recursive: true });
  const r = spawnSync("npm", ["install", "--prefix", partial, "--no-save", "--no-package-lock", "--no-audit", "--no-fund", "--loglevel=error", `${pkg}@${NODE_VERSION}`], {
    stdio: "inherit",
  });
  if (r.status !== 0) {
    fs.rmSync(partial, { recursive: true, force: true });
    throw new Error(`could not install Node ${NODE_VERSION} (npm install ${pkg}@${NODE_VERSION} exited with ${r.status ?? r.signal}). Install Node ${REQUIRED_MAJOR} LTS yourself (https://nodejs.org) and run this again.`);
  }
  const check = spawnSync(path.join(partial, "node_modules", pkg, "bin", "node"), ["--version"], { encoding: "utf8" });
  if (check.status !== 0 || major(check.stdout.trim()) !== REQUIRED_MAJOR) {
    fs.rmSync(partial, { recursive: true, force: true });
    throw new Error(`the downloaded Node ${NODE_VERSION} does not run on this machine (${check.stderr || check.error?.message || check.stdout})`);
  }
  try {
    fs.renameSync(partial, prefix);
  } catch (e) {
    // another run on this machine installed it meanwhile: use theirs
    fs.rmSync(partial, { recursive: true, force: true });
    if (!fs.existsSync(nodeBin)) throw e;
  }
  return nodeBin;
}

/**
 * Returns when this process runs on Node 24 or later. Otherwise runs this same script again under the cached
 * Node 24 (installed on first use), passes its exit code on, and never returns.
 */
export async function ensureSupportedNode() {
  if (major(process.versions.node) >= REQUIRED_MAJOR) return;
  if (process.env.REELSMITH_NODE_REEXEC) {
    throw new Error(`still on Node ${process.versions.node} after switching to Node ${NODE_VERSION}: PATH or NODE_OPTIONS overrides it`);
  }
  const nodeBin = installCachedNode();
  log.info(`Node ${process.versions.node} is older than Node ${REQUIRED_MAJOR} LTS: running under Node ${NODE_VERSION} from ${path.dirname(nodeBin)}`);
  const child = spawn(nodeBin, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: "inherit",
    env: { ...process.env, PATH: `${path.dirname(nodeBin)}${path.delimiter}${process.env.PATH ?? ""}`, REELSMITH_NODE_REEXEC: NODE_VERSION },
  });
  // a signal to this process is passed on (the scripts stop once however many Ctrl-Cs reach them)
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
  await new Promise(() => {
    child.on("exit", (code, signal) => process.exit(code ?? 128 + (os.constants.signals[signal] ?? 1)));
    child.on("error", (e) => {
      log.error(`could not run Node ${NODE_VERSION}: ${e.message}`);
      process.exit(1);
    });
  });
}
