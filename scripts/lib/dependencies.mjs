// Installs what is missing before anything else runs: npm packages and the generated Prisma client.
// Only node built-ins here, since node_modules may not exist yet.
import { spawnSync } from "node:child_process";
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

export function ensureNodeModules() {
  const installed = path.join(ROOT, "node_modules/.package-lock.json");
  const lock = path.join(ROOT, "package-lock.json");
  const manifest = path.join(ROOT, "package.json");
  if (mtime(installed) >= Math.max(mtime(lock), mtime(manifest))) return;
  log.info("installing npm packages (first run or package-lock.json changed)...");
  run("npm", fs.existsSync(lock) ? ["ci", "--no-audit", "--no-fund"] : ["install", "--no-audit", "--no-fund"]);
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
