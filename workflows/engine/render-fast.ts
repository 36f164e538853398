// The fast renderer: the timeline compiled to one ffmpeg run (render-fast-compile.ts). The only browser work is
// rasterising each distinct caption once, with the composition's own caption component: one Remotion renderFrames
// pass over the CaptionSheet composition (a caption per frame, transparent PNG, in the worker's shared browser),
// each frame cropped to the band every caption fits in, so they play as one picture stream of one size.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { Writable } from "node:stream";
import { renderFrames, renderStill, selectComposition } from "@remotion/renderer";
import sharp from "sharp";
import { getEnv } from "~/core/env.server";
import { BRAND_CARD_ID, type BrandCardStillProps } from "../../remotion/BrandCard";
import { CAPTION_SHEET_ID, type CaptionSheetProps } from "../../remotion/Caption";
import type { Move, Timeline } from "../../app/lib/timeline/timeline";
import { captionConcat, compileTimeline, movingImageScenes } from "./render-fast-compile";
import { feedFrames } from "./frame-feed";
import { framePicture, PanZoom } from "./pan-zoom";
import { renderCommand } from "../worker-priority";
import { chromiumOptions, ENCODING, getCompositionBundle, renderSettings, withBrowser } from "./render-engine";

export type FastProgress = { phase: "captions"; done: number; total: number } | { phase: "encoding"; frame: number; total: number };

/** A caption's picture and where its top-left corner goes on the frame. */
export type CaptionImage = { png: string; x: number; y: number; width: number; height: number };

const TRANSPARENT = { r: 0, g: 0, b: 0, alpha: 0 };

/** A transparent full-frame PNG cropped to its visible box, the box widened to even coordinates (4:2:0 chroma). */
async function cropToCaption(full: Buffer, target: string, width: number, height: number): Promise<CaptionImage> {
  const { info } = await sharp(full).trim({ threshold: 0 }).toBuffer({ resolveWithObject: true });
  const left0 = -(info.trimOffsetLeft ?? 0);
  const top0 = -(info.trimOffsetTop ?? 0);
  const left = Math.max(0, Math.floor(left0 / 2) * 2);
  const top = Math.max(0, Math.floor(top0 / 2) * 2);
  const right = Math.min(width, Math.ceil((left0 + info.width) / 2) * 2);
  const bottom = Math.min(height, Math.ceil((top0 + info.height) / 2) * 2);
  await sharp(full).extract({ left, top, width: right - left, height: bottom - top }).ensureAlpha().png({ compressionLevel: 1 }).toFile(target);
  return { png: target, x: left, y: top, width: right - left, height: bottom - top };
}

/** The smallest box holding every caption (even coordinates, as each box is). */
function bandOf(images: readonly CaptionImage[]) {
  const x = Math.min(...images.map((i) => i.x));
  const y = Math.min(...images.map((i) => i.y));
  const right = Math.max(...images.map((i) => i.x + i.width));
  const bottom = Math.max(...images.map((i) => i.y + i.height));
  return { x, y, width: right - x, height: bottom - y };
}

/** The caption's picture widened with transparent pixels to the band, in place. */
async function extendToBand(image: CaptionImage, band: ReturnType<typeof bandOf>): Promise<CaptionImage> {
  const top = image.y - band.y;
  const left = image.x - band.x;
  const bottom = band.height - image.height - top;
  const right = band.width - image.width - left;
  if (top || left || bottom || right) {
    const png = await sharp(image.png).extend({ top, left, bottom, right, background: TRANSPARENT }).png({ compressionLevel: 1 }).toBuffer();
    await fs.promises.writeFile(image.png, png);
  }
  return { png: image.png, ...band };
}

/** Runs `work` over `items`, `limit` at a time. */
async function eachLimited<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

type SheetCaption = CaptionSheetProps["captions"][number];
const sheetCaption = (overlay: Timeline["overlays"][number]): SheetCaption => ({ lines: overlay.lines, highlightWord: overlay.highlightWord, style: overlay.style });

/**
 * Every caption overlay of the timeline as a PNG (identical captions are drawn once), in timeline order, all of one
 * size and place (the band every caption fits in, transparent around each), so they make one stream. With the
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
  const band = bandOf(images);
  const banded = await eachLimited(images, 4, (image) => extendToBand(image, band));
  return sheetIndex.map((i) => banded[i]!);
}

/** A still picture: no pan, no zoom. */
const STILL: Move = { scale: [1, 1], x: [0, 0], y: [0, 0] };

/**
 * The timeline with each brand card (issue 52) drawn once by the composition's own BrandCard, in the worker's shared
 * browser, as a frame-sized PNG, and shown as a still image scene: the same picture the exact renderer draws. A
 * logo given as a local file goes to the browser as a data: URL (the render activity made it a small PNG).
 */
export async function rasteriseCards(timeline: Timeline, workDir: string): Promise<Timeline> {
  if (!timeline.scenes.some((scene) => scene.layer.kind === "card")) return timeline;
  const { width, height } = timeline;
  const serveUrl = await getCompositionBundle();
  const chromium = chromiumOptions();
  const asUrl = async (src: string) => (/^(https?:|data:)/.test(src) ? src : `data:image/png;base64,${(await sharp(src).png().toBuffer()).toString("base64")}`);
  return withBrowser(async (browser) => {
    const scenes = [];
    for (const [i, scene] of timeline.scenes.entries()) {
      const layer = scene.layer;
      if (layer.kind !== "card") {
        scenes.push(scene);
        continue;
      }
      const card = { ...layer, ...(layer.logoSrc ? { logoSrc: await asUrl(layer.logoSrc) } : {}) };
      const inputProps: BrandCardStillProps = { width, height, card };
      const composition = await selectComposition({ serveUrl, id: BRAND_CARD_ID, inputProps, puppeteerInstance: browser, logLevel: "error", ...chromium });
      const output = path.join(workDir, `card-${i + 1}.png`);
      await renderStill({ serveUrl, composition, inputProps, output, imageFormat: "png", puppeteerInstance: browser, logLevel: "error", ...chromium });
      scenes.push({ ...scene, layer: { kind: "image" as const, src: output, move: STILL } });
    }
    return { ...timeline, scenes };
  });
}

/** Frames drawn and not yet taken by ffmpeg's pipe: each is a slot of the moving image's memory (pan-zoom.ts). */
const FEED_SLOTS = 3;

/**
 * The image scenes' frames, in the order the compiled graph reads them (movingImageScenes): each scene's picture
 * decoded once (the next one while this one is drawn), then moved frame by frame (pan-zoom.ts). Frame k of a scene
 * is the composition's frame k (the perspective filter it replaces drew frame k + 1's motion: its frame counter
 * starts at 1). Each frame is a view of one of `slots` frames' memory, drawn over `slots` frames later.
 */
async function* movingImageFrames(timeline: Timeline, signal?: AbortSignal, slots = FEED_SLOTS): AsyncGenerator<Buffer> {
  const scenes = movingImageScenes(timeline);
  if (scenes.length === 0) return;
  const { width, height } = timeline;
  const panZoom = new PanZoom(width, height, slots);
  const read = (k: number) => {
    const picture = framePicture(scenes[k]!.layer.src, width, height, signal);
    picture.catch(() => undefined); // awaited in its turn; a failure is thrown there
    return picture;
  };
  let next = read(0);
  for (const [k, scene] of scenes.entries()) {
    panZoom.setPicture(await next);
    if (k + 1 < scenes.length) next = read(k + 1);
    for (let frame = 0; frame < scene.durationInFrames; frame++) yield panZoom.frame(scene.layer.move, frame, scene.durationInFrames);
  }
}

/** What a compiled render's ffmpeg reads from IMAGE_FRAMES_INPUT; none when the timeline has no image scene. */
export function movingImagesFeed(timeline: Timeline, signal?: AbortSignal): ((input: Writable) => Promise<void>) | undefined {
  if (movingImageScenes(timeline).length === 0) return undefined;
  return (input) => feedFrames(movingImageFrames(timeline, signal, FEED_SLOTS), input, FEED_SLOTS);
}

/**
 * Runs ffmpeg with `args`, reporting the frame it reached (from -progress on stdout). Aborts kill it. `feed` writes
 * what ffmpeg reads from its fourth file descriptor (pipe:3); when it fails, ffmpeg is stopped and its error is the
 * run's.
 */
export function runFfmpeg(
  args: string[],
  { onFrame, signal, feed }: { onFrame?: (frame: number) => void; signal?: AbortSignal; feed?: (input: Writable) => Promise<void> } = {},
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const run = renderCommand(getEnv().FFMPEG_PATH, args);
    const child = spawn(run.command, run.args, { stdio: ["ignore", "pipe", "pipe", feed ? "pipe" : "ignore"] });
    let stderr = "";
    let buffered = "";
    let feedFailure: unknown;
    if (feed) {
      const input = child.stdio[3] as Writable;
      feed(input).catch((error: unknown) => {
        // a pipe ffmpeg closed by ending (EPIPE): its own exit tells why
        if (["EPIPE", "ERR_STREAM_PREMATURE_CLOSE", "ERR_STREAM_DESTROYED"].includes((error as NodeJS.ErrnoException).code ?? "")) return;
        feedFailure = error;
        child.kill("SIGKILL");
      });
    }
    child.stdout!.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) {
        const match = /^frame=(\d+)/.exec(line);
        if (match) onFrame?.(Number(match[1]));
      }
    });
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    const abort = () => child.kill("SIGKILL");
    signal?.addEventListener("abort", abort);
    child.on("error", reject);
    child.on("close", (code, killedBy) => {
      signal?.removeEventListener("abort", abort);
      if (code === 0) resolve();
      else if (signal?.aborted) reject(new Error("The render was cancelled"));
      else if (feedFailure !== undefined) reject(feedFailure);
      else reject(new Error(`ffmpeg failed (${killedBy ?? `exit ${code}`}): ${stderr.trim().split("\n").slice(-3).join(" | ")}`));
    });
  });
}

/**
 * Renders the timeline (whose image and audio sources are local files) to `output`: captions rasterised first,
 * then one ffmpeg run for the picture, the captions and the audio mix, its graph and caption list in `workDir`.
 * Returns the arguments ffmpeg ran with.
 */
export async function renderTimelineFast(options: {
  timeline: Timeline;
  workDir: string;
  output: string;
  signal?: AbortSignal;
  onProgress?: (p: FastProgress) => void;
  /** One stream only (a chunked render's picture or its whole sound, render-chunks.ts); both when unset. */
  streams?: "video" | "audio";
  /** Changes ffmpeg's arguments before the run: only `bench:render --legacy-encoding` (the earlier settings) uses it. */
  adjustArgs?: (args: string[]) => string[];
  /** The sound as the delivery's AAC (default) or as 24-bit PCM for the loudness step to encode once (compileTimeline). */
  audioFormat?: "delivery" | "pcm";
}): Promise<{ args: string[] }> {
  const { workDir, output, signal, onProgress, streams, audioFormat } = options;
  const timeline = streams === "audio" ? options.timeline : await rasteriseCards(options.timeline, workDir);
  const captions = await rasteriseCaptions(timeline, workDir, onProgress);
  const first = captions[0];
  let captionStream: { ffconcat: string; x: number; y: number } | undefined;
  if (first) {
    const blank = path.join(workDir, "caption-blank.png");
    await sharp({ create: { width: first.width, height: first.height, channels: 4, background: TRANSPARENT } }).png().toFile(blank);
    const ffconcat = path.join(workDir, "captions.ffconcat");
    const pictures = captions.map((c) => path.relative(workDir, c.png));
    await fs.promises.writeFile(ffconcat, captionConcat(timeline, pictures, path.basename(blank)));
    captionStream = { ffconcat, x: first.x, y: first.y };
  }
  const filterScript = path.join(workDir, "filter-graph.txt");
  const compiled = compileTimeline(timeline, { fileFor: (src) => src, filterScript, captionStream, output, encoding: ENCODING, streams, audioFormat });
  const { filterGraph } = compiled;
  const args = options.adjustArgs ? options.adjustArgs(compiled.args) : compiled.args;
  await fs.promises.writeFile(filterScript, filterGraph);
  await runFfmpeg(args, {
    signal,
    onFrame: (frame) => onProgress?.({ phase: "encoding", frame, total: timeline.durationInFrames }),
    feed: streams === "audio" ? undefined : movingImagesFeed(timeline, signal),
  });
  return { args };
}
