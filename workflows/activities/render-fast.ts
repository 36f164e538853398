// The fast renderer: the timeline compiled to one ffmpeg run (render-fast-compile.ts). The only browser work is
// rasterising each distinct caption line once, with the composition's own caption component (Remotion
// renderStill on a transparent frame, in the worker's shared browser), cropped to its box.
import { spawn } from "node:child_process";
import fsp from "node:fs/promises";
import path from "node:path";
import { renderStill, selectComposition } from "@remotion/renderer";
import sharp from "sharp";
import { CAPTION_OVERLAY_ID, type CaptionOverlayProps } from "../../remotion/Caption";
import type { Timeline } from "../../remotion/timeline";
import { compileTimeline } from "./render-fast-compile";
import { chromiumOptions, ENCODING, getCompositionBundle, withBrowser } from "./render-engine";

export const FFMPEG = process.env.FFMPEG_PATH ?? "/usr/bin/ffmpeg";

export type FastProgress = { phase: "captions"; done: number; total: number } | { phase: "encoding"; frame: number; total: number };

export type CaptionImage = { png: string; x: number; y: number };

/** A transparent full-frame PNG cropped to its visible box, the box widened to even coordinates (4:2:0 chroma). */
async function cropToCaption(full: string, target: string, width: number, height: number): Promise<CaptionImage> {
  const { info } = await sharp(full).trim({ threshold: 0 }).toBuffer({ resolveWithObject: true });
  const left0 = -(info.trimOffsetLeft ?? 0);
  const top0 = -(info.trimOffsetTop ?? 0);
  const left = Math.max(0, Math.floor(left0 / 2) * 2);
  const top = Math.max(0, Math.floor(top0 / 2) * 2);
  const right = Math.min(width, Math.ceil((left0 + info.width) / 2) * 2);
  const bottom = Math.min(height, Math.ceil((top0 + info.height) / 2) * 2);
  await sharp(full).extract({ left, top, width: right - left, height: bottom - top }).png({ compressionLevel: 1 }).toFile(target);
  return { png: target, x: left, y: top };
}

/** The CaptionOverlay composition's props that draw an overlay. */
function overlayProps(overlay: Timeline["overlays"][number], width: number, height: number): CaptionOverlayProps {
  return { width, height, text: overlay.text, lines: overlay.lines, highlightWord: overlay.highlightWord, style: overlay.style };
}

/**
 * Every caption overlay of the timeline as a PNG (identical captions are drawn once), in timeline order. With the
 * word-highlight preset that is one picture per spoken word (decision 100 measured it).
 */
export async function rasteriseCaptions(timeline: Timeline, workDir: string, onProgress?: (p: FastProgress) => void): Promise<CaptionImage[]> {
  if (timeline.overlays.length === 0) return [];
  const serveUrl = await getCompositionBundle();
  const chromium = chromiumOptions();
  const { width, height } = timeline;
  const byKey = new Map<string, CaptionImage>();
  return withBrowser(async (browser) => {
    const first = overlayProps(timeline.overlays[0]!, width, height);
    const composition = await selectComposition({ serveUrl, id: CAPTION_OVERLAY_ID, inputProps: first, puppeteerInstance: browser, logLevel: "error", ...chromium });
    const images: CaptionImage[] = [];
    for (const [k, overlay] of timeline.overlays.entries()) {
      const props = overlayProps(overlay, width, height);
      const key = JSON.stringify(props);
      let image = byKey.get(key);
      if (!image) {
        const full = path.join(workDir, `caption-${k + 1}-full.png`);
        await renderStill({
          serveUrl,
          composition: { ...composition, props },
          inputProps: props,
          output: full,
          imageFormat: "png",
          puppeteerInstance: browser,
          logLevel: "error",
          ...chromium,
        });
        image = await cropToCaption(full, path.join(workDir, `caption-${k + 1}.png`), width, height);
        await fsp.rm(full, { force: true });
        byKey.set(key, image);
      }
      images.push(image);
      onProgress?.({ phase: "captions", done: k + 1, total: timeline.overlays.length });
    }
    return images;
  });
}

/** Runs ffmpeg with `args`, reporting the frame it reached (from -progress on stdout). Aborts kill it. */
export function runFfmpeg(args: string[], { onFrame, signal }: { onFrame?: (frame: number) => void; signal?: AbortSignal } = {}): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(FFMPEG, args, { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    let buffered = "";
    child.stdout.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) {
        const match = /^frame=(\d+)/.exec(line);
        if (match) onFrame?.(Number(match[1]));
      }
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    const abort = () => child.kill("SIGKILL");
    signal?.addEventListener("abort", abort);
    child.on("error", reject);
    child.on("close", (code, killedBy) => {
      signal?.removeEventListener("abort", abort);
      if (code === 0) resolve();
      else if (signal?.aborted) reject(new Error("The render was cancelled"));
      else reject(new Error(`ffmpeg failed (${killedBy ?? `exit ${code}`}): ${stderr.trim().split("\n").slice(-3).join(" | ")}`));
    });
  });
}

/**
 * Renders the timeline (whose image and audio sources are local files) to `output`: captions rasterised first,
 * then one ffmpeg run for the picture, the overlays and the audio mix.
 */
export async function renderTimelineFast(options: {
  timeline: Timeline;
  workDir: string;
  output: string;
  signal?: AbortSignal;
  onProgress?: (p: FastProgress) => void;
}): Promise<void> {
  const { timeline, workDir, output, signal, onProgress } = options;
  const captions = await rasteriseCaptions(timeline, workDir, onProgress);
  const args = compileTimeline(timeline, { fileFor: (src) => src, captions, output, encoding: ENCODING });
  await runFfmpeg(args, { signal, onFrame: (frame) => onProgress?.({ phase: "encoding", frame, total: timeline.durationInFrames }) });
}
