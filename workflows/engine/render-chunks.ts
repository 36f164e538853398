// A chunked fast render (issue 30, decision 156): the timeline cut at scene boundaries into chunks, each chunk's
// picture its own ffmpeg run (any worker may render it: the same delivery settings, and a fresh encode always
// starts on a key frame), the sound mixed once for the whole timeline, and the chunks joined by the concat
// demuxer without re-encoding (stream copy), the sound muxed beside them. Pure parts (the cut, the slice, the
// join's list) are unit-tested; the ffmpeg runs are in the activities (render-chunked.ts) and the parity test.
import fs from "node:fs";
import path from "node:path";
import type { Timeline } from "../../app/lib/timeline/timeline";
import { renderTimelineFast, runFfmpeg, type FastProgress } from "./render-fast";

/**
 * How far over RENDER_CHUNK_MAX_SECONDS a video may run and still render in one piece: a video comes out within a few
 * seconds of the length asked (issue 38 allows 5 %), and the default 5-minute video, at 299.9 s one time and 300.8 s
 * the next, was cut in two by a second over the default bound: on one worker 7 % slower, with a worse time left.
 */
export const CHUNK_LENGTH_SLACK = 0.05;

/** A chunk: the scenes [fromScene, toScene) of the timeline, and the frames they cover. */
export type RenderChunk = { index: number; fromScene: number; toScene: number; fromFrame: number; frames: number };

/**
 * How many chunks a render is cut into: one when the video is shorter than `minSeconds` (RENDER_CHUNKED_MIN_SECONDS:
 * below it the fixed cost of a chunked render, a browser pass and an ffmpeg start per chunk, moving the parts
 * through storage and the join, eats what another worker saves; decision 156), when at most one worker polls the
 * render queue, or when it has one scene. Otherwise one per polling worker, bounded by the scenes and by chunks of
 * at least half `minSeconds`, so a video just over the threshold goes to two workers at most. Whatever the fleet,
 * a video longer than `maxChunkSeconds` (RENDER_CHUNK_MAX_SECONDS) is cut into chunks no longer than that, which a
 * single worker renders one after another: a render's memory grows with its scenes, a chunk's stays bounded. A video
 * at most `CHUNK_LENGTH_SLACK` over the bound is not cut for length (decision 194).
 */
export function chunkCountFor(options: { durationSeconds: number; scenes: number; renderWorkers: number; minSeconds: number; maxChunkSeconds?: number }): number {
  const { durationSeconds, scenes, renderWorkers, minSeconds, maxChunkSeconds = 0 } = options;
  const overBound = maxChunkSeconds > 0 && durationSeconds > maxChunkSeconds * (1 + CHUNK_LENGTH_SLACK);
  const bounded = overBound ? Math.min(scenes, Math.ceil(durationSeconds / maxChunkSeconds)) : 1;
  if (durationSeconds < minSeconds || renderWorkers <= 1 || scenes <= 1) return Math.max(1, bounded);
  const longEnough = minSeconds > 0 ? Math.floor(durationSeconds / (minSeconds / 2)) : Infinity;
  return Math.max(1, bounded, Math.min(renderWorkers, scenes, longEnough));
}

/**
 * Cuts scenes (their frame counts, in order) into `count` runs of whole scenes as even in frames as the scene
 * boundaries allow: each boundary is the scene edge nearest the even share, never leaving a chunk empty.
 */
export function cutAtScenes(sceneFrames: readonly number[], count: number): RenderChunk[] {
  const n = Math.max(1, Math.min(count, sceneFrames.length));
  const starts = [0];
  for (const frames of sceneFrames) starts.push(starts.at(-1)! + frames);
  const total = starts.at(-1)!;
  const edges = [0];
  for (let k = 1; k < n; k++) {
    const target = (total * k) / n;
    const lowest = edges.at(-1)! + 1; // at least one scene in the chunk before
    const highest = sceneFrames.length - (n - k); // at least one scene in each chunk after
    let best = lowest;
    for (let s = lowest; s <= highest; s++) if (Math.abs(starts[s]! - target) < Math.abs(starts[best]! - target)) best = s;
    edges.push(best);
  }
  edges.push(sceneFrames.length);
  return edges.slice(0, -1).map((fromScene, index) => {
    const toScene = edges[index + 1]!;
    return { index, fromScene, toScene, fromFrame: starts[fromScene]!, frames: starts[toScene]! - starts[fromScene]! };
  });
}

/**
 * The chunk's part of the timeline, starting at frame 0: its scenes and the captions on them, moved back by the
 * chunk's first frame; no sound (mixed once for the whole timeline). Each scene keeps its own motion (chosen by
 * its index in the whole video), so the chunk draws exactly the frames the one-piece render draws.
 */
export function sliceTimeline(timeline: Timeline, chunk: Pick<RenderChunk, "fromScene" | "toScene">): Timeline {
  const scenes = timeline.scenes.slice(chunk.fromScene, chunk.toScene);
  const first = scenes[0];
  const last = scenes.at(-1);
  if (!first || !last) throw new Error(`chunk of scenes ${chunk.fromScene}-${chunk.toScene} is empty`);
  const start = first.fromFrame;
  const end = last.fromFrame + last.durationInFrames;
  return {
    ...timeline,
    durationInFrames: end - start,
    // a chunk cuts hard into its first scene: the scene before it, which a transition would draw under it, is
    // another chunk's (decision 225)
    scenes: scenes.map(({ transitionIn, ...scene }, i) => ({ ...scene, fromFrame: scene.fromFrame - start, ...(transitionIn && i > 0 ? { transitionIn } : {}) })),
    overlays: timeline.overlays
      .filter((overlay) => overlay.fromFrame >= start && overlay.fromFrame < end)
      .map((overlay) => ({ ...overlay, fromFrame: overlay.fromFrame - start, durationInFrames: Math.min(overlay.durationInFrames, end - overlay.fromFrame) })),
    audio: [],
  };
}

/** The whole timeline's sound only: no captions to draw (the picture is not encoded). */
export function soundOf(timeline: Timeline): Timeline {
  return { ...timeline, overlays: [] };
}

/** Renders one chunk's picture (no sound) to `output`, an MP4 that starts on a key frame. */
export async function renderChunkPicture(options: {
  timeline: Timeline;
  chunk: Pick<RenderChunk, "fromScene" | "toScene">;
  workDir: string;
  output: string;
  signal?: AbortSignal;
  onProgress?: (p: FastProgress) => void;
}): Promise<void> {
  await renderTimelineFast({ ...options, timeline: sliceTimeline(options.timeline, options.chunk), streams: "video" });
}

/**
 * Mixes the whole timeline's sound once (voiceovers and music, the one-piece render's own graph) to `output`: the
 * delivery's AAC in an .m4a, or with `format: "wav"` PCM in a .wav (to be brought to the platform's loudness and
 * encoded once, not twice).
 */
export async function renderTimelineSound(options: { timeline: Timeline; workDir: string; output: string; signal?: AbortSignal; format?: "m4a" | "wav" }): Promise<void> {
  const { format, ...rest } = options;
  await renderTimelineFast({ ...rest, timeline: soundOf(options.timeline), streams: "audio", audioFormat: format === "wav" ? "pcm" : "delivery" });
}

/** The concat demuxer's list of the chunk files, in order (paths quoted as ffconcat wants). */
export function chunkConcatList(files: readonly string[]): string {
  const quote = (file: string) => `'${file.replace(/'/g, "'\\''")}'`;
  return `ffconcat version 1.0\n${files.map((file) => `file ${quote(file)}`).join("\n")}\n`;
}

/**
 * Joins the chunk pictures end to end and muxes the sound beside them, without re-encoding either (stream copy):
 * the chunks share every encoding setting and each starts on a key frame, so the joined stream plays as one.
 */
export async function joinChunks(options: { chunks: readonly string[]; sound: string; workDir: string; output: string; signal?: AbortSignal }): Promise<void> {
  const list = path.join(options.workDir, "chunks.ffconcat");
  await fs.promises.writeFile(list, chunkConcatList(options.chunks.map((c) => path.resolve(c))));
  await runFfmpeg(
    [
      "-hide_banner",
      "-nostdin",
      "-y",
      "-v",
      "error",
      "-f",
      "concat",
      "-safe",
      "0",
      "-i",
      list,
      "-i",
      options.sound,
      "-map",
      "0:v:0",
      "-map",
      "1:a:0",
      "-c",
      "copy",
      "-movflags",
      "+faststart",
      options.output,
    ],
    { signal: options.signal },
  );
}
