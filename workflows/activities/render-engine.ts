// The Remotion side of the worker: the composition bundle (built once per worker start, reused by every
// render) and the Chromium the renderer drives.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { bundle } from "@remotion/bundler";
import { getEnv } from "~/server/env.server";

const ENTRY_POINT = fileURLToPath(new URL("../../remotion/index.ts", import.meta.url));
const CHROMIUM_CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/usr/bin/google-chrome-stable"];

/** CHROMIUM_PATH when set, else the first browser installed at a usual place. Never lets Remotion download one. */
export function chromiumExecutable(): string {
  const configured = getEnv().CHROMIUM_PATH;
  if (configured) {
    if (!fs.existsSync(configured)) throw new Error(`CHROMIUM_PATH=${configured} does not exist. Point it at a Chromium or Chrome binary.`);
    return configured;
  }
  const found = CHROMIUM_CANDIDATES.find((candidate) => fs.existsSync(candidate));
  if (!found) throw new Error("No Chromium found for rendering. Install it (apt-get install chromium) or set CHROMIUM_PATH.");
  return found;
}

let bundled: Promise<string> | undefined;
const BUNDLE_PREFIX = "reelsmith-remotion-bundle-";

const processAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
};

/** Bundles of workers that were killed (and so never ran their exit handler) are removed by the next one. */
function removeOrphanedBundles() {
  for (const name of fs.readdirSync(os.tmpdir())) {
    const pid = Number(name.startsWith(BUNDLE_PREFIX) ? name.slice(BUNDLE_PREFIX.length) : NaN);
    if (Number.isInteger(pid) && pid !== process.pid && !processAlive(pid)) {
      fs.rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true });
    }
  }
}

/** The served bundle's location. A failed bundle is not cached, so the next render tries again. */
export function getCompositionBundle(): Promise<string> {
  bundled ??= (async () => {
    removeOrphanedBundles();
    // named by process id, so a later worker can tell whether its owner is still alive
    const outDir = path.join(os.tmpdir(), `${BUNDLE_PREFIX}${process.pid}`);
    fs.rmSync(outDir, { recursive: true, force: true });
    fs.mkdirSync(outDir, { recursive: true });
    process.once("exit", () => fs.rmSync(outDir, { recursive: true, force: true }));
    return bundle({ entryPoint: ENTRY_POINT, outDir, enableCaching: true });
  })().catch((e) => {
    bundled = undefined;
    throw e;
  });
  return bundled;
}

/**
 * How Chromium is driven: Debian's build, never a download. GL "angle" captured frames about 1.7x faster than
 * "swangle" (SwiftShader behind ANGLE) on our GPU-less two-core machines: 80 against 140 ms a 720p frame.
 */
export function chromiumOptions() {
  return { browserExecutable: chromiumExecutable(), chromeMode: "chrome-for-testing" as const, chromiumOptions: { gl: "angle" as const } };
}

/**
 * The encoding settings of every render (the worker's and the benchmark's): one tab is fastest on two cores,
 * more only fight over them; JPEG frames are quicker to capture; yuv420p/bt709 is what every player expects.
 */
export const RENDER_SETTINGS = {
  codec: "h264",
  audioCodec: "aac",
  concurrency: 1,
  imageFormat: "jpeg",
  jpegQuality: 90,
  pixelFormat: "yuv420p",
  colorSpace: "bt709",
  x264Preset: "veryfast",
} as const;
