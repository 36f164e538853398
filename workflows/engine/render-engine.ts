// The Remotion side of the worker: the composition bundle (built once per machine and sources, decision 280; looked
// up at the worker's start, reused by every render), the one browser per worker process (Debian's
// chromium-headless-shell, reused by every selectComposition / renderMedia / renderStill, relaunched when it dies)
// and the encoding settings shared by both renderers and the benchmark's ffmpeg baseline.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openBrowser, type HeadlessBrowser } from "@remotion/renderer";
import { getEnv } from "~/core/env.server";
import { PROJECT_ROOT, projectFile } from "~/lib/project-files.server";
import { isProcessRunning } from "~/lib/process-running.server";
import { cachedBundle, compositionSourceHash } from "./composition-bundle-cache";
import { DELIVERY } from "./delivery-encoding";

const ENTRY_POINT = projectFile("remotion/index.ts");
const BUNDLER = projectFile("workflows/engine/bundle-composition.mjs");
// the headless shell first: it captures frames as fast as full Chromium with a quarter less memory (decision 061)
const CHROMIUM_CANDIDATES = [
  "/usr/bin/chromium-headless-shell",
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
];

/**
 * The browser binary a launcher script runs as its child. Debian's /usr/bin/chromium-headless-shell is such a
 * script (`/usr/lib/chromium/chromium-headless-shell "$@"`, no exec). Remotion starts the browser under `setpriv
 * --pdeathsig SIGKILL` so that it dies with a killed worker; with the script in between only the shell dies and
 * the browser lives on, orphaned, with its memory and profile folder (found by the drills, decision 182). A
 * script that execs its browser (Debian's /usr/bin/chromium) or a binary is returned as it is.
 */
export function browserBinaryBehind(executable: string): string {
  try {
    if (fs.statSync(executable).size > 4096) return executable;
    const script = fs.readFileSync(executable, "utf8");
    if (!script.startsWith("#!")) return executable;
    const child = /^\s*"?(\/[^\s"]+)"?\s+"\$@"\s*$/m.exec(script)?.[1];
    return child && fs.existsSync(child) ? child : executable;
  } catch {
    return executable;
  }
}

/** CHROMIUM_PATH when set, else the first browser installed at a usual place. Never lets Remotion download one. */
export function chromiumExecutable(): string {
  const configured = getEnv().CHROMIUM_PATH;
  if (configured) {
    if (!fs.existsSync(configured)) throw new Error(`CHROMIUM_PATH=${configured} does not exist. Point it at a Chromium or Chrome binary.`);
    return browserBinaryBehind(configured);
  }
  const found = CHROMIUM_CANDIDATES.find((candidate) => fs.existsSync(candidate));
  if (!found) throw new Error("No Chromium found for rendering. Install it (apt-get install chromium) or set CHROMIUM_PATH.");
  return browserBinaryBehind(found);
}

let bundled: Promise<string> | undefined;
const BUNDLE_PREFIX = "reelsmith-remotion-bundle-";

/**
 * A bundle per worker process, as workers made them before decision 280: those of workers that were killed (and so
 * never ran their exit handler) are removed by the next one.
 */
function removeOrphanedBundles() {
  for (const name of fs.readdirSync(os.tmpdir())) {
    const pid = Number(name.startsWith(BUNDLE_PREFIX) ? name.slice(BUNDLE_PREFIX.length) : NaN);
    if (Number.isInteger(pid) && pid !== process.pid && !isProcessRunning(pid)) {
      fs.rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true });
    }
  }
}

/** Runs webpack in a child process (bundle-composition.mjs), so its memory goes back to the system when done. */
function bundleInChildProcess(outDir: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [BUNDLER, ENTRY_POINT, outDir], { maxBuffer: 16 * 2 ** 20 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`Bundling the video composition failed: ${stderr.trim() || error.message}`));
      // the last line: anything webpack or Remotion print comes before it
      const last = stdout.trim().split("\n").at(-1) ?? "";
      resolve((JSON.parse(last) as { serveUrl: string }).serveUrl);
    });
  });
}

/**
 * The served bundle's location: the one this machine already built from the same sources (composition-bundle-cache.ts,
 * decision 280), else one bundled now. A failed bundle is not cached, so the next render tries again.
 */
export function getCompositionBundle(): Promise<string> {
  bundled ??= (async () => {
    removeOrphanedBundles();
    return cachedBundle(compositionSourceHash(PROJECT_ROOT), bundleInChildProcess);
  })().catch((e) => {
    bundled = undefined;
    throw e;
  });
  return bundled;
}

/** How Remotion drives the browser: Debian's build, never a download; Chrome's own choice of GL (decision 061). */
export function chromiumOptions() {
  const browserExecutable = chromiumExecutable();
  const chromeMode = path.basename(browserExecutable).includes("headless-shell") ? ("headless-shell" as const) : ("chrome-for-testing" as const);
  return { browserExecutable, chromeMode, chromiumOptions: {} };
}

let browser: Promise<HeadlessBrowser> | undefined;

/** The worker's browser, launched on first use and kept for every later render. */
export function getBrowser(): Promise<HeadlessBrowser> {
  browser ??= openBrowser("chrome", { ...chromiumOptions(), logLevel: "error" }).catch((e) => {
    browser = undefined;
    throw e;
  });
  return browser;
}

/**
 * Runs `work` with the shared browser. When it fails the browser may be the cause (crashed, hung, killed by the
 * OOM killer): it is closed and forgotten, so the retry launches a fresh one.
 */
export async function withBrowser<T>(work: (browser: HeadlessBrowser) => Promise<T>): Promise<T> {
  const current = getBrowser();
  try {
    return await work(await current);
  } catch (e) {
    if (browser === current) {
      browser = undefined;
      await (await current.catch(() => null))?.close({ silent: true }).catch(() => {});
    }
    throw e;
  }
}

export async function closeBrowser(): Promise<void> {
  const current = browser;
  browser = undefined;
  await (await current?.catch(() => null))?.close({ silent: true }).catch(() => {});
}

/** Constant quality and speed for every encode: the exact renderer, the fast renderer and the bench's baseline (delivery-encoding.ts). */
export const ENCODING = { crf: DELIVERY.crf, x264Preset: DELIVERY.x264Preset, pixelFormat: DELIVERY.pixelFormat, audioBitrate: DELIVERY.audioBitrate, audioSampleRate: DELIVERY.audioSampleRate } as const;

/**
 * The exact renderer's settings: JPEG frames are quicker to capture; yuv420p/bt709 is what every player expects;
 * the tab count comes from RENDER_CONCURRENCY (measured with `npx remotion benchmark`, decision 061).
 */
export function renderSettings() {
  return {
    codec: "h264",
    audioCodec: "aac",
    // Remotion refuses more tabs than cores ("Maximum for --concurrency is 2"): a larger setting is capped. The
    // cores this process may use, not the machine's: a worker pinned to one core (taskset, a cpuset) gets one tab.
    concurrency: Math.min(getEnv().RENDER_CONCURRENCY, os.availableParallelism()),
    imageFormat: "jpeg",
    jpegQuality: 90,
    pixelFormat: ENCODING.pixelFormat,
    colorSpace: "bt709",
    crf: ENCODING.crf,
    x264Preset: ENCODING.x264Preset,
    audioBitrate: ENCODING.audioBitrate,
  } as const;
}
