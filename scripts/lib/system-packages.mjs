// Debian packages Reelsmith needs. To render (npm start and npm test): ffmpeg (the fast renderer, ffprobe),
// chromium-headless-shell (the exact renderer and the captions) and espeak-ng (offline voices beyond English).
// The tests also drive full Chromium with Playwright. Installed with apt-get when missing and we are root; otherwise we say what to install.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { logger } from "./log.mjs";

const log = logger("reelsmith");
const RENDER = [
  { pkg: "ffmpeg", file: "/usr/bin/ffmpeg" },
  { pkg: "ffmpeg", file: "/usr/bin/ffprobe" },
  { pkg: "chromium-headless-shell", file: "/usr/bin/chromium-headless-shell" },
  { pkg: "fonts-dejavu-core", file: "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf" },
  // captions and titles in the offered languages DejaVu lacks (Chromium falls back to these per glyph):
  // Chinese and Japanese, Korean, Hindi. Small packages (about 13 MB together), not the 57 MB Noto CJK.
  { pkg: "fonts-droid-fallback", file: "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf" },
  { pkg: "fonts-nanum", file: "/usr/share/fonts/truetype/nanum/NanumGothic.ttf" },
  { pkg: "fonts-lohit-deva", file: "/usr/share/fonts/truetype/lohit-devanagari/Lohit-Devanagari.ttf" },
  // offline voices in languages other than English (Flite's English voices ship in npm)
  { pkg: "espeak-ng", file: "/usr/bin/espeak-ng" },
  // offline machine translation for versions in other languages (issue 51, decision 230): Apertium and its pairs
  { pkg: "apertium", file: "/usr/bin/apertium" },
  { pkg: "apertium-en-es", file: "/usr/share/apertium/modes/eng-spa.mode" },
  { pkg: "apertium-en-ca", file: "/usr/share/apertium/modes/eng-cat.mode" },
  { pkg: "apertium-en-gl", file: "/usr/share/apertium/modes/en-gl.mode" },
  { pkg: "apertium-eo-en", file: "/usr/share/apertium/modes/en-eo.mode" },
];
// the observability test scrapes the web server and the worker with the real Prometheus (issue 54); only its binary
// is used (no system service is started: the test runs /usr/bin/prometheus with its own configuration)
const TEST = [...RENDER, { pkg: "chromium", file: "/usr/bin/chromium" }, { pkg: "prometheus", file: "/usr/bin/prometheus" }];

/** `for: "render"` is what npm start needs; `"test"` adds the browser the browser tests drive. */
export function ensureSystemPackages({ for: purpose = "test" } = {}) {
  const required = purpose === "render" ? RENDER : TEST;
  const missing = [...new Set(required.filter((r) => !fs.existsSync(r.file)).map((r) => r.pkg))];
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
