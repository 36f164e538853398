// The activities of a chunked fast render (issue 30, decision 156): how many chunks (light queue: the video's
// length and the workers polling the render queue), one chunk's picture (render queue: any worker may take it, a
// failed or orphaned one is retried alone), the whole timeline's sound (heavy queue, once, beside the chunks), the
// sound brought to the platform's loudness (render queue, once the mix is stored: the first worker done with its
// chunk takes it), and the join (heavy queue: stream copy of picture and sound, then stored as the render's video).
// Chunks and the sound travel between workers as stored media files (kind "video", the project's; deleted after
// the join or when the render fails, and by the leftover sweep if a render dies), so workers on other hosts meet
// through storage, never through a shared folder. A chunk's picture is kept after the join under the key of what it
// draws (render-chunk-parts.ts, decision 260): the project's next render takes every unchanged chunk as it is.
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Context } from "@temporalio/activity";
import protos from "@temporalio/proto";
import type { SignalDefinition } from "@temporalio/workflow";
import { deleteMedia, findMediaForUser, localMediaSet, saveMediaFromPath } from "~/core/storage.server";
import { getEnv } from "~/core/env.server";
import { brandShows } from "~/lib/brand";
import { buildTimeline, type Timeline } from "../../app/lib/timeline/timeline";
import { sceneBoundaries } from "../../app/lib/timeline/timing";
import { JOIN_PERCENT } from "../shared/render-percent";
import { renderChunkProgressSignal, renderSoundProgressSignal, renderWorkflowId, type RenderPlan, type RenderPlanInput, type RenderResult } from "../shared/render";
import { taskQueueFor } from "../shared/queue-names";
import { prescaleImage } from "../engine/render-assets";
import { chunkCountFor, cutAtScenes, joinChunks, renderChunkPicture, renderTimelineSound, type RenderChunk } from "../engine/render-chunks";
import { cutByLength, reuseChunkSeconds } from "../engine/render-chunk-key";
import { chunkKeyOf, keepChunkPart, keptChunkFiles, keptChunkPart, pruneChunkParts } from "./render-chunk-parts";
import { fastRenderDone } from "../engine/render-fast-progress";
import { withRenderSlot } from "../engine/render-slots";
import { inputError, loadRenderPlan, planProps, planSeconds, progressReporter, storedEarlier, storeRenderedVideo } from "./render";
import { signalPace } from "../engine/render-signal-pace";
import { analyseLoudness, applyLoudness, storedLoudness, type LoudnessAnalysis, type StoredLoudness } from "../engine/loudness";
import { recordRender } from "~/core/observability/metrics.server";
import { closeIdleVoicesSoon } from "~/providers/speech/piper-session.server";

// @temporalio/proto is CommonJS: its enums come from the default export
const { TaskQueueType } = protos.temporal.api.enums.v1;

/**
 * A poller last seen longer ago than this is not counted: an idle worker polls again within a minute (Temporal's
 * long poll), so this drops a worker that died (the server keeps listing it for minutes) and keeps one that is
 * busy with a render for up to two minutes after it took it.
 */
const LIVE_POLLER_MS = 120_000;

/**
 * Worker processes polling the render queue (Temporal's DescribeTaskQueue), counted by identity: each holds
 * WORKER_RENDERS slots (two by default on two cores or more; decision 266).
 */
export async function renderQueuePollers(baseQueue: string, now = Date.now()): Promise<number> {
  const queue = await Context.current().client.workflowService.describeTaskQueue({
    namespace: getEnv().TEMPORAL_NAMESPACE,
    taskQueue: { name: taskQueueFor(baseQueue, "render") },
    taskQueueType: TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY,
  });
  const live = (queue.pollers ?? []).filter((p) => {
    const seenAt = Number(p.lastAccessTime?.seconds ?? 0) * 1000 + Math.floor((p.lastAccessTime?.nanos ?? 0) / 1e6);
    return now - seenAt < LIVE_POLLER_MS;
  });
  return new Set(live.map((p) => p.identity)).size;
}

/**
 * The chunks a fast render is cut into: one (the one-piece render) for short videos on a single worker. `cutFrames`:
 * the length, in frames, of the cut a make-video run drew chunks by while the scenes were made (decision 292): the
 * render is cut the same way, so it finds them.
 */
export async function planRenderChunks(given: RenderPlanInput, cutFrames?: number | null): Promise<RenderChunk[]> {
  const plan = await loadRenderPlan(given);
  // a channel's cards and watermark span the scenes' boundaries: such a video renders in one piece (decision 249)
  if (brandShows(plan.brand)) return [];
  const bounds = sceneBoundaries(
    plan.scenes.map((s) => s.audioDurationInSeconds),
    plan.fps,
  );
  const sceneFrames = bounds.slice(1).map((end, i) => end - bounds[i]!);
  if (cutFrames) return cutByLength(sceneFrames, cutFrames);
  const durationSeconds = bounds.at(-1)! / plan.fps;
  const env = getEnv();
  // the render slots polling the queue: every worker is taken to hold as many as this one (decision 266), so a lone
  // worker with two slots renders a video long enough in two chunks side by side
  const renderWorkers = (await renderQueuePollers(Context.current().info.taskQueue)) * env.WORKER_RENDERS;
  const count = chunkCountFor({ durationSeconds, scenes: plan.scenes.length, renderWorkers, minSeconds: env.RENDER_CHUNKED_MIN_SECONDS, maxChunkSeconds: env.RENDER_CHUNK_MAX_SECONDS });
  // chunks kept for the next render (decision 260): cut by length from the first scene on, so an edit moves the cut
  // only from its own chunk on; as many chunks as the fleet asks at least
  const length = reuseChunkSeconds({ reuseSeconds: env.RENDER_REUSE_CHUNK_SECONDS, durationSeconds, fleetChunks: count });
  if (length !== null) return cutByLength(sceneFrames, Math.max(1, Math.round(length * plan.fps)));
  return cutAtScenes(sceneFrames, count);
}

/**
 * A folder of this attempt's own in the worker's temp dir (what earlier attempts of the same work left is removed),
 * and the local copies of stored media it reads (decision 150), released with the folder.
 */
async function attemptFolder(name: string): Promise<{ dir: string; media: ReturnType<typeof localMediaSet>; remove: () => Promise<void> }> {
  const parent = path.join(os.tmpdir(), name);
  const dir = path.join(parent, `attempt-${Context.current().info.attempt}`);
  for (const entry of await fsp.readdir(parent).catch(() => [] as string[])) {
    if (entry !== path.basename(dir)) await fsp.rm(path.join(parent, entry), { recursive: true, force: true });
  }
  await fsp.mkdir(dir, { recursive: true });
  const media = localMediaSet();
  return {
    dir,
    media,
    remove: async () => {
      media.release();
      await fsp.rm(dir, { recursive: true, force: true });
      await fsp.rmdir(parent).catch(() => {});
    },
  };
}

/** The plan's stored file, as a local path for ffmpeg (the same storage calls the one-piece render makes). */
async function localFile(plan: RenderPlan, media: ReturnType<typeof localMediaSet>, fileId: string, what: string): Promise<string> {
  const file = await findMediaForUser(plan.userId, fileId);
  if (!file) throw inputError(`${what} was deleted during the render. Generate it again.`);
  return media.path(file);
}

/** A scene or track no part of this run reads: its timeline entry keeps a name, never opened. */
const unread = (kind: string, i: number) => `unread-${kind}-${i}`;

/**
 * The plan's timeline with local files for the scenes of the chunk (their pictures scaled to the frame in `dir`),
 * other scenes' sources left unread (a slice never opens them), and no sound sources.
 */
async function chunkTimeline(plan: RenderPlan, dir: string, media: ReturnType<typeof localMediaSet>, chunk: RenderChunk): Promise<Timeline> {
  const src = new Map<string, string>();
  for (let i = chunk.fromScene; i < chunk.toScene; i++) {
    const scene = plan.scenes[i]!;
    const scaled = path.join(dir, `scene-${i + 1}.png`);
    await prescaleImage(await localFile(plan, media, scene.imageFileId, `Scene ${i + 1}'s image`), scaled, plan.width, plan.height);
    src.set(`image-${i}`, scaled);
    if (scene.clip) src.set(`clip-${i}`, await localFile(plan, media, scene.clip.fileId, `Scene ${i + 1}'s clip`));
  }
  return buildTimeline(planProps(plan, (kind, i) => src.get(`${kind}-${i}`) ?? unread(kind, i)));
}

/**
 * Tells the render's workflow how far a part is (a chunk's frames, the sound's loudness step): the latest word at
 * once when forced, otherwise every 3 s as the signal pace allows (render-signal-pace.ts). Best effort: a lost update
 * never fails the part. `heartbeat`: each word is also the activity's heartbeat.
 */
function pacedProgress<P extends { attempt: number }>(plan: RenderPlan, signal: SignalDefinition<[P]>, first: Omit<P, "attempt">, { heartbeat = false } = {}) {
  const ctx = Context.current();
  const handle = ctx.client.workflow.getHandle(renderWorkflowId(plan.projectId));
  const pace = signalPace(planSeconds(plan));
  let latest = first;
  const send = (force: boolean) => {
    if (heartbeat) ctx.heartbeat(latest);
    if (!pace.due(force)) return;
    handle.signal(signal, { ...latest, attempt: ctx.info.attempt } as P).catch(() => {});
  };
  send(true);
  const timer = setInterval(() => send(false), 3000);
  return {
    report(progress: Omit<P, "attempt">, force = false) {
      latest = progress;
      send(force);
    },
    stop: () => clearInterval(timer),
  };
}

export type RenderedChunk = {
  chunk: number;
  mediaFileId: string;
  frames: number;
  /** Taken as an earlier render kept it (the same key), not drawn by this render. */
  reused?: boolean;
};

/**
 * Renders one chunk's picture (no sound), stores it and returns its file. A chunk the project kept from an earlier
 * render with the same key (the same scenes, drawn the same way) is returned as it is, not drawn again; a chunk
 * drawn here is kept under its key (decision 260). Safe to retry; any worker may run it.
 */
export async function renderVideoChunk(input: { plan: RenderPlanInput; chunk: RenderChunk }): Promise<RenderedChunk> {
  const { chunk } = input;
  const plan = await loadRenderPlan(input.plan);
  const ctx = Context.current();
  const key = chunkKeyOf(plan, chunk);
  const kept = await keptChunkPart(plan, key, chunk.frames);
  if (kept) {
    // its frames are done: said at once, so the render's one figure counts them
    await ctx.client.workflow
      .getHandle(renderWorkflowId(plan.projectId))
      .signal(renderChunkProgressSignal, { chunk: chunk.index, frames: chunk.frames, attempt: ctx.info.attempt })
      .catch(() => {});
    return { chunk: chunk.index, mediaFileId: kept, frames: chunk.frames, reused: true };
  }
  // the scenes are made: a voice silent since gives its memory to this chunk's encoder (decision 296)
  closeIdleVoicesSoon();
  const reporter = pacedProgress(plan, renderChunkProgressSignal, { chunk: chunk.index, frames: 0 }, { heartbeat: true });
  const abort = new AbortController();
  const onCancel = () => abort.abort();
  ctx.cancellationSignal.addEventListener("abort", onCancel);
  try {
    const mediaFileId = await drawChunk(plan, chunk, key, { signal: abort.signal, onFrames: (frames) => reporter.report({ chunk: chunk.index, frames }) });
    reporter.report({ chunk: chunk.index, frames: chunk.frames }, true);
    return { chunk: chunk.index, mediaFileId, frames: chunk.frames };
  } finally {
    ctx.cancellationSignal.removeEventListener("abort", onCancel);
    reporter.stop();
  }
}

/**
 * Draws a chunk's picture (no sound) in a render slot, stores it and keeps it under `key` (decision 260); the id of
 * the kept file. `onFrames` hears how many of its frames are drawn.
 */
export async function drawChunk(plan: RenderPlan, chunk: RenderChunk, key: string, options: { signal: AbortSignal; onFrames: (frames: number) => void }): Promise<string> {
  // a folder per chunk and attempt: a chunk retried on the same host never meets what the killed attempt left
  const folder = await attemptFolder(`reelsmith-render-${plan.renderId}-chunk-${chunk.index + 1}`);
  try {
    return await withRenderSlot(
      async () => {
        const chunkStarted = performance.now();
        const timeline = await chunkTimeline(plan, folder.dir, folder.media, chunk);
        const output = path.join(folder.dir, "chunk.mp4");
        // the chunk's frames stand for its work: drawing its captions moves them as well (render-fast-progress.ts)
        const done = fastRenderDone();
        await renderChunkPicture({
          timeline,
          chunk,
          workDir: folder.dir,
          output,
          signal: options.signal,
          onProgress: (p) => options.onFrames(Math.min(chunk.frames, Math.floor(done(p) * chunk.frames))),
        });
        const file = await saveMediaFromPath({
          userId: plan.userId,
          projectId: plan.projectId,
          kind: "video",
          sourcePath: output,
          mimeType: "video/mp4",
          extension: "mp4",
          durationSeconds: chunk.frames / plan.fps,
          width: plan.width,
          height: plan.height,
        });
        const mediaFileId = await keepChunkPart(plan, key, file.id, chunk.frames);
        // render seconds per second of video: a chunk of a fast render (issue 54)
        recordRender("fast-chunk", (performance.now() - chunkStarted) / 1000, chunk.frames / plan.fps);
        return mediaFileId;
      },
      { signal: options.signal },
    );
  } finally {
    await folder.remove();
  }
}

export type MixedSound = {
  mediaFileId: string;
  music: RenderPlan["music"];
  /** The mix's loudness as measured (the first pass), when it was mixed for normaliseRenderSound. */
  analysis?: LoudnessAnalysis;
  /**
   * The delivered figures, once the sound is at the platform's loudness (normaliseRenderSound): the join then copies
   * it as it is. Absent: the mix as it came out, which the join normalises with the joined video (runs scheduled
   * before the sound was normalised on its own).
   */
  loudness?: StoredLoudness;
  /** The mix the normalised sound was made from: deleted with the parts. */
  mixFileId?: string;
};

/**
 * Mixes the whole timeline's sound once (voiceovers and music, with the one-piece render's own graph) and stores
 * it: AAC in an .m4a, or, `forLoudness`, PCM in a .wav with its loudness measured (the first pass), for
 * normaliseRenderSound to apply and encode once. Music deleted meanwhile is left out, as the one-piece render
 * leaves it out.
 */
export async function mixRenderSound(input: { plan: RenderPlanInput; forLoudness?: boolean }): Promise<MixedSound> {
  const { forLoudness } = input;
  const plan = await loadRenderPlan(input.plan);
  closeIdleVoicesSoon(); // as a chunk does: the voiceovers are done
  const ctx = Context.current();
  const heartbeat = setInterval(() => ctx.heartbeat(), 3000);
  const folder = await attemptFolder(`reelsmith-render-${plan.renderId}-sound`);
  try {
    const src = new Map<string, string>();
    for (const [i, scene] of plan.scenes.entries()) src.set(`audio-${i}`, await localFile(plan, folder.media, scene.audioFileId, `Scene ${i + 1}'s voiceover`));
    const musicFile = plan.music ? await findMediaForUser(plan.userId, plan.music.fileId) : null;
    if (musicFile) src.set("music-0", await folder.media.path(musicFile));
    const music = musicFile ? plan.music : null;
    const timeline = buildTimeline(planProps({ ...plan, music }, (kind, i) => src.get(`${kind}-${i}`) ?? unread(kind, i)));
    const format = forLoudness ? "wav" : "m4a";
    const output = path.join(folder.dir, `sound.${format}`);
    await renderTimelineSound({ timeline, workDir: folder.dir, output, signal: ctx.cancellationSignal, format });
    const analysis = forLoudness ? await analyseLoudness(output, ctx.cancellationSignal) : undefined;
    // stored as the project's "video" kind (the sound track of one): the leftover sweep removes it if the render dies
    const file = await saveMediaFromPath({
      userId: plan.userId,
      projectId: plan.projectId,
      kind: "video",
      sourcePath: output,
      mimeType: forLoudness ? "audio/wav" : "audio/mp4",
      extension: format,
      durationSeconds: timeline.durationInFrames / plan.fps,
    });
    return { mediaFileId: file.id, music, ...(analysis ? { analysis } : {}) };
  } finally {
    clearInterval(heartbeat);
    await folder.remove();
  }
}

/**
 * Brings the mixed sound to the platform's loudness (decision 190: measured, then a gain and the true-peak limiter;
 * the loudness module the one-piece render's save step calls, its first pass already run by the mix) and stores it
 * as AAC in an .m4a, with the figures measured on it, which the joined video keeps: the join copies this sound packet
 * for packet, so its loudness is the delivered video's. On the render queue, scheduled once the mix is stored
 * (decision 156): every render slot is busy with a chunk by then, so the worker that finishes its chunk first takes
 * it, not the one that mixed the sound beside its chunk. Safe to retry: the mix is left for the join to delete.
 */
export async function normaliseRenderSound(input: { plan: RenderPlanInput; sound: MixedSound }): Promise<MixedSound> {
  const { sound } = input;
  const plan = await loadRenderPlan(input.plan);
  const ctx = Context.current();
  const heartbeat = setInterval(() => ctx.heartbeat(), 3000);
  const folder = await attemptFolder(`reelsmith-render-${plan.renderId}-loudness`);
  try {
    const mix = await findMediaForUser(plan.userId, sound.mediaFileId);
    if (!mix) throw inputError("The video's sound was deleted during the render.");
    const mixPath = await folder.media.path(mix);
    const output = path.join(folder.dir, "sound.m4a");
    const analysis = sound.analysis ?? (await analyseLoudness(mixPath, ctx.cancellationSignal));
    const reporter = pacedProgress(plan, renderSoundProgressSignal, { done: 0 });
    // the step's time is the sound's writing (AAC), then one more measure: 5-85 % as it is written, 90 % once written
    const seconds = mix.durationSeconds ?? planSeconds(plan);
    const measure = await applyLoudness(mixPath, output, analysis, ctx.cancellationSignal, undefined, {
      seconds: (s) => reporter.report({ done: 0.05 + 0.8 * Math.min(1, s / Math.max(1, seconds)) }),
      written: () => reporter.report({ done: 0.9 }, true),
    }).finally(reporter.stop);
    const file = await saveMediaFromPath({
      userId: plan.userId,
      projectId: plan.projectId,
      kind: "video",
      sourcePath: output,
      mimeType: "audio/mp4",
      extension: "m4a",
      durationSeconds: mix.durationSeconds,
    });
    return { mediaFileId: file.id, music: sound.music, loudness: storedLoudness(measure), mixFileId: mix.id };
  } finally {
    clearInterval(heartbeat);
    await folder.remove();
  }
}

/**
 * Joins the chunks (in order) and muxes the sound beside them, both copied as they are (a sound already at the
 * platform's loudness, with its figures; an older run's raw mix is normalised here), stores the MP4 as the render's
 * video and deletes the parts. Safe to retry: a video an earlier attempt stored is returned as it is.
 */
export async function joinRenderChunks(input: { plan: RenderPlanInput; chunks: string[]; sound: MixedSound }): Promise<RenderResult> {
  const { sound } = input;
  const plan = await loadRenderPlan(input.plan);
  const parts = [...input.chunks, sound.mediaFileId, ...(sound.mixFileId ? [sound.mixFileId] : [])];
  const earlier = await storedEarlier(plan);
  if (earlier) {
    await discardRenderChunks({ userId: plan.userId, fileIds: parts });
    await pruneChunkParts(plan.userId, plan.projectId, input.chunks);
    return earlier;
  }
  const ctx = Context.current();
  const progress = progressReporter(plan);
  const folder = await attemptFolder(`reelsmith-render-${plan.renderId}-join`);
  try {
    progress.report(
      { status: "saving", stage: "Saving video", step: "Step 3 of 3: Saving the video", details: `Joining the ${input.chunks.length} parts of the video`, progress: JOIN_PERCENT },
      true,
    );
    const chunks = await Promise.all(input.chunks.map((id, i) => localFile(plan, folder.media, id, `Part ${i + 1} of the video`)));
    const soundFile = await localFile(plan, folder.media, sound.mediaFileId, "The video's sound");
    const output = path.join(folder.dir, "video.mp4");
    await joinChunks({ chunks, sound: soundFile, workDir: folder.dir, output, signal: ctx.cancellationSignal });
    const durationInFrames = sceneBoundaries(
      plan.scenes.map((s) => s.audioDurationInSeconds),
      plan.fps,
    ).at(-1)!;
    const result = await storeRenderedVideo({ plan, output, engine: "fast", durationInFrames, music: sound.music, loudness: sound.loudness, signal: ctx.cancellationSignal });
    // the sound goes; the chunks stay for the project's next render, and the ones an earlier render kept go
    await discardRenderChunks({ userId: plan.userId, fileIds: parts });
    await pruneChunkParts(plan.userId, plan.projectId, input.chunks);
    return result;
  } finally {
    progress.stop();
    await folder.remove();
  }
}

/**
 * Deletes a chunked render's parts (after the join, or when the render failed), except the chunks kept for the
 * project's next render (decision 260: a retry after a failure draws only what is missing). Missing ones are fine.
 */
export async function discardRenderChunks(input: { userId: string; fileIds: string[] }): Promise<void> {
  const kept = await keptChunkFiles(input.fileIds);
  for (const id of input.fileIds) {
    if (kept.has(id)) continue;
    const file = await findMediaForUser(input.userId, id);
    if (file) await deleteMedia(file);
  }
}

export type ChunkedRenderActivities = {
  planRenderChunks: typeof planRenderChunks;
  renderVideoChunk: typeof renderVideoChunk;
  mixRenderSound: typeof mixRenderSound;
  normaliseRenderSound: typeof normaliseRenderSound;
  joinRenderChunks: typeof joinRenderChunks;
  discardRenderChunks: typeof discardRenderChunks;
};
