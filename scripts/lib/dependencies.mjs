// Installs what is missing before anything else runs: npm packages and the generated Prisma client.
// Only node built-ins here, since node_modules may not exist yet.
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { MACHINE_CACHE, ROOT } from "./paths.mjs";
import { logger } from "./log.mjs";

const log = logger("reelsmith");
const mtime = (f) => (fs.existsSync(f) ? fs.statSync(f).mtimeMs : 0);

function run(cmd, args, env = {}) {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: "inherit", env: { ...process.env, ...env } });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed with exit code ${r.status}`);
}

const INSTALLED_MARKER = path.join(ROOT, "node_modules/.reelsmith-installed");

/** package.json's fields that decide what npm installs (a new "scripts" line or "bin" installs nothing). */
const INSTALL_FIELDS = ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies", "overrides", "allowScripts", "engines"];

/** What the installed packages were installed from: package.json's install fields and package-lock.json. */
function manifestHash() {
  const hash = crypto.createHash("sha256");
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
  hash.update(JSON.stringify(INSTALL_FIELDS.map((field) => [field, manifest[field] ?? null])));
  const lock = path.join(ROOT, "package-lock.json");
  if (fs.existsSync(lock)) hash.update(fs.readFileSync(lock));
  return hash.digest("hex");
}

/**
 * Installed packages kept in the machine's cache, one folder per manifest hash (and Node's version and platform, for
 * the native builds): a fresh clone (CI's) copies them in about 20 s where `npm install` took 2 minutes and 200 CPU
 * seconds of extracting 1,573 packages. A copy, not links: npm and the tools write into node_modules in place.
 */
const NODE_MODULES_CACHE = path.join(MACHINE_CACHE, "node-modules");
const KEPT_INSTALLS = 2;
const cacheKey = (hash) => `${hash.slice(0, 24)}-${process.platform}-${process.arch}-node${process.versions.node.split(".")[0]}`;

/** Copies `from` to `to` whole, or not at all: through a sibling folder renamed when the copy is complete. */
function copyWhole(from, to) {
  const partial = `${to}.partial-${process.pid}`;
  fs.rmSync(partial, { recursive: true, force: true });
  run("cp", ["-a", from, partial]);
  fs.rmSync(to, { recursive: true, force: true });
  fs.renameSync(partial, to);
}

function restoreCachedInstall(hash) {
  const cached = path.join(NODE_MODULES_CACHE, cacheKey(hash));
  if (!fs.existsSync(path.join(cached, ".reelsmith-installed"))) return false;
  log.info("copying the npm packages installed before on this machine...");
  try {
    copyWhole(cached, path.join(ROOT, "node_modules"));
    fs.utimesSync(cached, new Date(), new Date());
    return true;
  } catch (e) {
    log.info(`could not copy the installed packages (${e.message}): installing them`);
    return false;
  }
}

function cacheInstall(hash) {
  try {
    fs.mkdirSync(NODE_MODULES_CACHE, { recursive: true });
    const target = path.join(NODE_MODULES_CACHE, cacheKey(hash));
    if (!fs.existsSync(path.join(target, ".reelsmith-installed"))) copyWhole(path.join(ROOT, "node_modules"), target);
    // the two most recently used installs stay; copies cut short (a run killed while copying) go after an hour
    const entries = fs.readdirSync(NODE_MODULES_CACHE).map((name) => path.join(NODE_MODULES_CACHE, name));
    const installs = entries.filter((dir) => fs.existsSync(path.join(dir, ".reelsmith-installed"))).sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
    const abandoned = entries.filter((dir) => dir.includes(".partial-") && Date.now() - fs.statSync(dir).mtimeMs > 3_600_000);
    for (const old of [...installs.slice(KEPT_INSTALLS), ...abandoned]) fs.rmSync(old, { recursive: true, force: true });
  } catch (e) {
    log.info(`could not keep the installed packages in ${NODE_MODULES_CACHE}: ${e.message}`);
  }
}

// `npm install`, not `npm ci`: the registry our machines use lacks some optional platform packages (other
// operating systems' builds of Remotion's compositor and swc), so the lock file cannot list them and
// `npm ci` refuses it as out of sync. `npm install` follows the lock for everything it does list.
export function ensureNodeModules() {
  const marker = fs.existsSync(INSTALLED_MARKER) ? fs.readFileSync(INSTALLED_MARKER, "utf8") : "";
  const hash = manifestHash();
  if (marker === hash) return;
  if (!fs.existsSync(path.join(ROOT, "node_modules")) && restoreCachedInstall(hash)) {
    fs.writeFileSync(INSTALLED_MARKER, hash);
    return;
  }
  log.info("installing npm packages (first run, or package.json / package-lock.json changed)...");
  // onnxruntime-node's install script fetches GPU libraries from another host and fails here; skipped, the package
  // keeps its CPU binaries (the neural voice's runtime, decision 205). `--include=dev` whatever NODE_ENV says: both
  // npm start and npm test build with the dev tools, and under NODE_ENV=production npm would remove them (a test that
  // starts start.mjs so, on a fresh machine, took vitest away from the run it was part of; decision 288).
  run("npm", ["install", "--no-audit", "--no-fund", "--include=dev"], { ONNXRUNTIME_NODE_INSTALL: "skip" });
  // the marker holds what npm left, which may differ from what it was given: npm can write into package-lock.json (a
  // missing "resolved" field, say), and a lock changed by the install itself must not call for another. The kept copy
  // goes under what it was given: a fresh clone of the same commit asks for that.
  fs.writeFileSync(INSTALLED_MARKER, manifestHash());
  cacheInstall(hash);
}

/** `prisma generate` needs no schema engine, but the CLI insists on one: point it at a stub. */
export function ensurePrismaClient({ force = false } = {}) {
  const client = path.join(ROOT, "app/generated/prisma/client.ts");
  const schema = path.join(ROOT, "prisma/schema.prisma");
  if (!force && mtime(client) >= mtime(schema)) return;
  log.info("generating the Prisma client...");
  run(path.join(ROOT, "node_modules/.bin/prisma"), ["generate"], {
    PRISMA_SCHEMA_ENGINE_BINARY: "/bin/false",
    PRISMA_HIDE_UPDATE_MESSAGE: "1",
  });
}

export function ensureDependencies() {
  ensureNodeModules();
  ensurePrismaClient();
}
