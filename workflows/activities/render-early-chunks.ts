// A make-video run's render chunks drawn while Generate All still makes the later scenes' media (issue 53, decisions
// 261 and 292). Each chunk of a render cut by length (cutByLength: for reuse, decision 260, or the pipeline's shorter
// cut of a video under the reuse length) depends only on its own scenes and the ones before it, so as soon as a run
// of leading scenes has its pictures and voiceovers, the chunks among them that are final can be drawn and kept
// under their keys. The run looks on the light queue (lookForEarlyChunk) and draws each chunk it finds on the render
// queue (drawEarlyChunk), side by side; the render, started once every scene is ready, is cut the same way, waits
// for the chunks still being drawn, takes them as kept and draws only the rest. A chunk drawn early whose key the
// render does not ask for (a scene changed meanwhile) is simply not used, and goes with the next join's clean-up.
import { Context } from "@temporalio/activity";
import { prisma } from "~/core/db.server";
import { getEnv } from "~/core/env.server";
import { renderSettingsFor } from "~/core/render-input.server";
import { getTransitions } from "~/core/transitions.server";
import { brandShows, storedBrand } from "~/lib/brand";
import type { MakeVideoOptions } from "~/lib/make-video-options";
import { transitionProps } from "~/lib/transitions";
import { VIDEO_FPS, sceneBoundaries } from "../../app/lib/timeline/timing";
import { chunkCountFor, type RenderChunk } from "../engine/render-chunks";
import { cutByLength, earlyChunkSeconds } from "../engine/render-chunk-key";
import type { MakeVideoTuning } from "../shared/make-video";
import type { RenderPlan, RenderPlanScene } from "../shared/render";
import { chooseRenderer, planScene } from "./render";
import { drawChunk, renderQueuePollers } from "./render-chunked";
import { chunkKeyOf, chunkKeysOf, keptChunkPart } from "./render-chunk-parts";

/** Scenes planned at earlier looks, by cell and its last change: a worker's looks at a long video measure each once. */
const plannedScenes = new Map<string, RenderPlanScene>();
const PLANNED_SCENES_KEPT = 5000;
function remember(known: string, scene: RenderPlanScene) {
  plannedScenes.delete(known);
  plannedScenes.set(known, scene);
  if (plannedScenes.size > PLANNED_SCENES_KEPT) plannedScenes.delete(plannedScenes.keys().next().value!);
}

export type EarlyChunkInput = { runId: string; userId: string; projectId: string; tuning?: MakeVideoTuning };

export type EarlyChunks = {
  /** Scenes with their picture and voiceover, from the first on, of `scenes`. */
  ready: number;
  scenes: number;
  /** Chunks drawn by this call, and chunks found kept already. */
  drawn: number;
  kept: number;
  /** Why nothing can be drawn early for this run (the render will not be cut for reuse); null otherwise. */
  never: string | null;
};

/** A run's render as far as its ready scenes go: the chunks among them that are final, and the cut that made them. */
type EarlyPlan =
  | { never: string | null; ready: number; scenes: number }
  | { never: null; ready: number; scenes: number; plan: RenderPlan; targetFrames: number; final: RenderChunk[] };

/**
 * Plans the run's coming render over the scenes that have their picture and voiceover, from the first on. `baseQueue`:
 * the deployment's light queue, whose render queue's pollers set the cut of a long video.
 */
async function planEarly(input: EarlyChunkInput, baseQueue: string, pipelineCut = true): Promise<EarlyPlan> {
  const none = (never: string | null, ready = 0, scenes = 0) => ({ never, ready, scenes });
  const run = await prisma.videoRun.findFirst({ where: { id: input.runId, userId: input.userId, projectId: input.projectId } });
  const project = await prisma.project.findFirst({
    where: { id: input.projectId, userId: input.userId },
    include: {
      storyboard: { include: { cells: { orderBy: { cellIndex: "asc" } } } },
    },
  });
  if (!run || !project) return none("the run or its project is gone");
  const env = getEnv();
  // the length asked for stands for the length the video will have: a long video's cut is the one kept for reuse
  // (decision 260), a shorter one's the pipeline's (decision 292); a video too short to be cut renders in one piece
  const workers = await renderQueuePollers(baseQueue);
  const count = chunkCountFor({
    durationSeconds: project.durationSeconds,
    scenes: project.storyboard?.cells.length ?? 1,
    renderWorkers: workers,
    minSeconds: env.RENDER_CHUNKED_MIN_SECONDS,
    maxChunkSeconds: env.RENDER_CHUNK_MAX_SECONDS,
  });
  const longest = earlyChunkSeconds({
    reuseSeconds: env.RENDER_REUSE_CHUNK_SECONDS,
    durationSeconds: project.durationSeconds,
    fleetChunks: count,
    // runs started before decision 292 cut only for reuse
    minSeconds: pipelineCut ? env.RENDER_CHUNKED_MIN_SECONDS : null,
  });
  if (longest === null) return none("the video is too short to be cut into chunks");
  if (brandShows(storedBrand(project.brand))) return none("a video with the channel's cards renders in one piece");
  const cells = project.storyboard?.cells ?? [];
  const options = run.options as unknown as MakeVideoOptions;
  const settings = await renderSettingsFor(input.userId, project, options.quality, input.tuning?.renderSize);

  const transitions = transitionProps(await getTransitions(project.id), cells.length);
  const scenes: RenderPlanScene[] = [];
  for (const [i, cell] of cells.entries()) {
    if (!(cell.imageFileId ?? cell.imageUrl) || !(cell.audioFileId ?? cell.audioUrl)) break;
    // a scene planned at an earlier look, unchanged since, is not measured again (the voiceover's length is a probe)
    const known = `${cell.id}:${cell.updatedAt.getTime()}:${i}:${transitions.perScene[i] ?? ""}`;
    const scene = plannedScenes.get(known) ?? (await planScene(input.userId, cell, i, transitions.perScene[i]).catch(() => null));
    if (!scene) break;
    remember(known, scene);
    scenes.push(scene);
  }
  // every scene ready: the render itself starts now and draws what is left
  if (scenes.length === 0 || scenes.length === cells.length) return none(null, scenes.length, cells.length);

  const brand = storedBrand(project.brand);
  const partial = {
    ...settings,
    renderId: `early-${input.runId}`,
    fps: VIDEO_FPS,
    scenes,
    music: null,
    ...(transitions.transition ? { transition: transitions.transition } : {}),
    ...(brand ? { brand } : {}),
  };
  const renderer = chooseRenderer(partial);
  if (renderer.engine !== "fast") return none(`the exact renderer draws this video (${renderer.reason})`, scenes.length, cells.length);
  const plan: RenderPlan = { ...partial, renderer };
  const bounds = sceneBoundaries(
    scenes.map((s) => s.audioDurationInSeconds),
    plan.fps,
  );
  const sceneFrames = bounds.slice(1).map((end, i) => end - bounds[i]!);
  // a run that reached the length is final; the last run of the ready scenes may still grow
  const targetFrames = Math.max(1, Math.round(longest * plan.fps));
  const final = cutByLength(sceneFrames, targetFrames).filter((chunk) => chunk.frames >= targetFrames);
  return { never: null, ready: scenes.length, scenes: cells.length, plan, targetFrames, final };
}

/** Draws one chunk (not kept already) in a render slot, heartbeating; true when drawn, false when found kept. */
async function drawEarly(plan: RenderPlan, chunk: RenderChunk, key: string): Promise<boolean> {
  if (await keptChunkPart(plan, key, chunk.frames)) return false;
  const ctx = Context.current();
  const heartbeat = setInterval(() => ctx.heartbeat(), 3000);
  const abort = new AbortController();
  const onCancel = () => abort.abort();
  ctx.cancellationSignal.addEventListener("abort", onCancel);
  try {
    await drawChunk(plan, chunk, key, { signal: abort.signal, onFrames: () => ctx.heartbeat() });
    return true;
  } finally {
    clearInterval(heartbeat);
    ctx.cancellationSignal.removeEventListener("abort", onCancel);
  }
}

/**
 * Draws (on the render queue) the chunks of the run's coming render whose scenes all have their media and whose cut
 * is final, each kept under its key; chunks already kept are left as they are. Heartbeats while it draws. The runs
 * started before decision 292 call it; newer ones look on the light queue and draw one chunk a call, side by side.
 */
export async function drawReadyChunks(input: EarlyChunkInput): Promise<EarlyChunks> {
  const early = await planEarly(input, Context.current().info.taskQueue.replace(/-render$/, ""), false);
  if (!("plan" in early)) return { ...early, drawn: 0, kept: 0 };
  let drawn = 0;
  let kept = 0;
  const keys = chunkKeysOf(early.plan, early.final);
  for (const [k, chunk] of early.final.entries()) {
    if (await drawEarly(early.plan, chunk, keys[k]!)) drawn++;
    else kept++;
  }
  return { ready: early.ready, scenes: early.scenes, drawn, kept, never: null };
}

/** A chunk by its scenes: the first and the one after its last. */
export type EarlyChunkRange = { fromScene: number; toScene: number };

export type EarlyChunkLook = EarlyChunks & {
  /** The first final chunk neither kept nor in `drawing` (being drawn, or failed), to draw next; null when there is none. */
  next: EarlyChunkRange | null;
  /** The cut's length in frames (cutByLength's target): the render is cut the same way to find the chunks. */
  targetFrames: number | null;
};

/** Looks (light queue, no drawing) for the next chunk of the run's coming render that can be drawn now. */
export async function lookForEarlyChunk(input: EarlyChunkInput & { drawing: EarlyChunkRange[] }): Promise<EarlyChunkLook> {
  const early = await planEarly(input, Context.current().info.taskQueue);
  if (!("plan" in early)) return { ...early, drawn: 0, kept: 0, next: null, targetFrames: null };
  const keys = chunkKeysOf(early.plan, early.final);
  let kept = 0;
  let next: EarlyChunkRange | null = null;
  for (const [k, chunk] of early.final.entries()) {
    if (input.drawing.some((d) => d.fromScene === chunk.fromScene && d.toScene === chunk.toScene)) continue;
    if (await keptChunkPart(early.plan, keys[k]!, chunk.frames)) kept++;
    else next ??= { fromScene: chunk.fromScene, toScene: chunk.toScene };
  }
  return { ready: early.ready, scenes: early.scenes, drawn: 0, kept, never: null, next, targetFrames: early.targetFrames };
}

/**
 * Draws (render queue) the one chunk a look chose, when the ready scenes still cut it so (a scene changed since, and
 * it is left for the render); heartbeats while it draws. Its answer counts it as drawn or found kept.
 */
export async function drawEarlyChunk(input: EarlyChunkInput & { chunk: EarlyChunkRange }): Promise<EarlyChunks> {
  const early = await planEarly(input, Context.current().info.taskQueue.replace(/-render$/, ""));
  if (!("plan" in early)) return { ...early, drawn: 0, kept: 0 };
  const chunk = early.final.find((c) => c.fromScene === input.chunk.fromScene && c.toScene === input.chunk.toScene);
  if (!chunk) return { ready: early.ready, scenes: early.scenes, drawn: 0, kept: 0, never: null };
  const drew = await drawEarly(early.plan, chunk, chunkKeyOf(early.plan, chunk));
  return { ready: early.ready, scenes: early.scenes, drawn: drew ? 1 : 0, kept: drew ? 0 : 1, never: null };
}

export type EarlyChunkActivities = { drawReadyChunks: typeof drawReadyChunks; lookForEarlyChunk: typeof lookForEarlyChunk; drawEarlyChunk: typeof drawEarlyChunk };
