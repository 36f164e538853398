// Debian packages the tests need: Chromium (Playwright and Remotion drive it) and ffmpeg (ffprobe checks
// the rendered videos). Installed with apt-get when missing and we are root; otherwise we say what to install.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { logger } from "./log.mjs";

const log = logger("reelsmith");
const REQUIRED = [
  { pkg: "chromium", file: "/usr/bin/chromium" },
  { pkg: "ffmpeg", file: "/usr/bin/ffprobe" },
];

export function ensureSystemPackages() {
  const missing = REQUIRED.filter((r) => !fs.existsSync(r.file)).map((r) => r.pkg);
  if (!missing.length) return;
  if (process.getuid?.() !== 0 || !fs.existsSync("/usr/bin/apt-get")) {
    throw new Error(`Missing system packages: ${missing.join(", ")}. Install them, e.g. sudo apt-get install -y ${missing.join(" ")}`);
  }
  log.info(`installing ${missing.join(", ")} with apt-get...`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [["update"], ["install", "-y", "--no-install-recommends", ...missing]]) {
    const r = spawnSync("apt-get", args, { stdio: "inherit", env });
    if (r.status !== 0) throw new Error(`apt-get ${args.join(" ")} failed (exit ${r.status})`);
  }
}
