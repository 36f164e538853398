// Installs what is missing before anything else runs: npm packages and the generated Prisma client.
// Only node built-ins here, since node_modules may not exist yet.
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ROOT } from "./paths.mjs";
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

// `npm install`, not `npm ci`: the registry our machines use lacks some optional platform packages (other
// operating systems' builds of Remotion's compositor and swc), so the lock file cannot list them and
// `npm ci` refuses it as out of sync. `npm install` follows the lock for everything it does list.
export function ensureNodeModules() {
  const marker = fs.existsSync(INSTALLED_MARKER) ? fs.readFileSync(INSTALLED_MARKER, "utf8") : "";
  if (marker === manifestHash()) return;
  log.info("installing npm packages (first run, or package.json / package-lock.json changed)...");
  // onnxruntime-node's install script fetches GPU libraries from another host and fails here; skipped, the package
  // keeps its CPU binaries (the neural voice's runtime, decision 205)
  run("npm", ["install", "--no-audit", "--no-fund"], { ONNXRUNTIME_NODE_INSTALL: "skip" });
  fs.writeFileSync(INSTALLED_MARKER, manifestHash());
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
