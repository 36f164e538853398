// Builds the web app when its sources are newer than the last build.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ROOT } from "./paths.mjs";
import { logger } from "./log.mjs";

const INPUTS = ["app", "workflows", "remotion", "public", "remix.config.js", "vite.config.ts", "tailwind.config.ts", "postcss.config.js", "package-lock.json"];
const OUTPUT = path.join(ROOT, "build/server/index.js");

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

export function ensureBuild({ force = false } = {}) {
  if (!force && !buildIsStale()) return false;
  logger("reelsmith").info("building the web app...");
  const r = spawnSync(path.join(ROOT, "node_modules/.bin/remix"), ["vite:build"], { cwd: ROOT, stdio: "inherit" });
  if (r.status !== 0) throw new Error(`remix vite:build failed (exit ${r.status})`);
  return true;
}
