// The fast renderer: the timeline compiled to one ffmpeg run (render-fast-compile.ts). The only browser work is
// rasterising each distinct caption once, with the composition's own caption component: one Remotion renderFrames
// pass over the CaptionSheet composition (a caption per frame, transparent PNG, in the worker's shared browser),
// each frame cropped to its box.
import { spawn } from "node:child_process";
import path from "node:path";
import { renderFrames, selectComposition } from "@remotion/renderer";
import sharp from "sharp";
import { CAPTION_SHEET_ID, type CaptionSheetProps } from "../../remotion/Caption";
import type { Timeline } from "../../remotion/timeline";
import { compileTimeline } from "./render-fast-compile";
import { chromiumOptions, ENCODING, getCompositionBundle, renderSettings, withBrowser } from "./render-engine";

export const FFMPEG = process.env.FFMPEG_PATH ?? "/usr/bin/ffmpeg";

export type FastProgress = { phase: "captions"; done: number; total: number } | { phase: "encoding"; frame: number; total: number };

export type CaptionImage = { png: string; x: number; y: number };

/** A transparent full-frame PNG cropped to its visible box, the box widened to even coordinates (4:2:0 chroma). */
async function cropToCaption(full: Buffer, target: string, width: number, height: number): Promise<CaptionImage> {
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

type SheetCaption = CaptionSheetProps["captions"][number];
const sheetCaption = (overlay: Timeline["overlays"][number]): SheetCaption => ({ lines: overlay.lines, highlightWord: overlay.highlightWord, style: overlay.style });

/**
 * Every caption overlay of the timeline as a PNG (identical captions are drawn once), in timeline order. With the
 * word-highlight preset that is one picture per spoken word, so all of them are drawn in one renderFrames pass of
 * the CaptionSheet (pages opened once, a seek per caption) rather than a renderStill each (decision 100).
 */
export async function rasteriseCaptions(timeline: Timeline, workDir: string, onProgress?: (p: FastProgress) => void): Promise<CaptionImage[]> {
  if (timeline.overlays.length === 0) return [];
  const { width, height } = timeline;
  // the distinct captions, and which of them each overlay shows
  const keys = new Map<string, number>();
  const captions: SheetCaption[] = [];
  const sheetIndex = timeline.overlays.map((overlay) => {
    const caption = sheetCaption(overlay);
    const key = JSON.stringify(caption);
    if (!keys.has(key)) {
      keys.set(key, captions.length);
      captions.push(caption);
    }
    return keys.get(key)!;
  });
  const inputProps: CaptionSheetProps = { width, height, captions };
  const serveUrl = await getCompositionBundle();
  const chromium = chromiumOptions();
  const images: CaptionImage[] = new Array(captions.length);
  const cropping: Promise<void>[] = [];
  let cropFailure: unknown;
  let done = 0;
  await withBrowser(async (browser) => {
    const composition = await selectComposition({ serveUrl, id: CAPTION_SHEET_ID, inputProps, puppeteerInstance: browser, logLevel: "error", ...chromium });
    await renderFrames({
      serveUrl,
      composition,
      inputProps,
      imageFormat: "png",
      outputDir: null,
      puppeteerInstance: browser,
      concurrency: renderSettings().concurrency,
      logLevel: "error",
      ...chromium,
      onStart: () => {},
      onFrameUpdate: () => {},
      onFrameBuffer: (buffer, frame) => {
        cropping.push(
          cropToCaption(buffer, path.join(workDir, `caption-${frame + 1}.png`), width, height).then(
            (image) => {
              images[frame] = image;
              onProgress?.({ phase: "captions", done: ++done, total: captions.length });
            },
            // handled here, so a failure while frames are still coming is not an unhandled rejection
            (e: unknown) => void (cropFailure ??= e),
          ),
        );
      },
    });
  });
  await Promise.all(cropping);
  if (cropFailure !== undefined) throw cropFailure;
  return sheetIndex.map((i) => images[i]!);
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
