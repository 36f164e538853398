// A make-video run's render chunks drawn while Generate All still makes the later scenes' media (issue 53, decision
// 261). Each chunk of a render that will be cut for reuse (decision 260) depends only on its own scenes and the ones
// before it, so as soon as a run of leading scenes has its pictures and voiceovers, the chunks among them that are
// final are drawn and kept under their keys; the render, started once every scene is ready, finds them kept and
// draws only the rest. A chunk drawn early whose key the render does not ask for (a scene changed meanwhile, the
// video came out too short to be cut) is simply not used, and goes with the next join's clean-up.
import { Context } from "@temporalio/activity";
import { prisma } from "~/core/db.server";
import { getEnv } from "~/core/env.server";
import { renderSettingsFor } from "~/core/render-input.server";
import { getTransitions } from "~/core/transitions.server";
import { brandShows, storedBrand } from "~/lib/brand";
import type { MakeVideoOptions } from "~/lib/make-video-options";
import { transitionProps } from "~/lib/transitions";
import { VIDEO_FPS, sceneBoundaries } from "../../app/lib/timeline/timing";
import { chunkCountFor } from "../engine/render-chunks";
import { cutByLength, reuseChunkSeconds } from "../engine/render-chunk-key";
import type { MakeVideoTuning } from "../shared/make-video";
import type { RenderPlan, RenderPlanScene } from "../shared/render";
import { chooseRenderer, planScene } from "./render";
import { drawChunk, renderQueuePollers } from "./render-chunked";
import { chunkKeysOf, keptChunkPart } from "./render-chunk-parts";

/** Scenes planned at earlier looks, by cell and its last change: a worker's looks at a long video measure each once. */
const plannedScenes = new Map<string, RenderPlanScene>();
const PLANNED_SCENES_KEPT = 5000;
function remember(known: string, scene: RenderPlanScene) {
  plannedScenes.delete(known);
  plannedScenes.set(known, scene);
  if (plannedScenes.size > PLANNED_SCENES_KEPT) plannedScenes.delete(plannedScenes.keys().next().value!);
}

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

/**
 * Draws (on the render queue) the chunks of the run's coming render whose scenes all have their media and whose cut
 * is final, each kept under its key; chunks already kept are left as they are. Heartbeats while it draws.
 */
export async function drawReadyChunks(input: { runId: string; userId: string; projectId: string; tuning?: MakeVideoTuning }): Promise<EarlyChunks> {
  const none = (never: string | null, ready = 0, scenes = 0): EarlyChunks => ({
    ready,
    scenes,
    drawn: 0,
    kept: 0,
    never,
  });
  const run = await prisma.videoRun.findFirst({
    where: {
      id: input.runId,
      userId: input.userId,
      projectId: input.projectId,
    },
  });
  const project = await prisma.project.findFirst({
    where: { id: input.projectId, userId: input.userId },
    include: {
      storyboard: { include: { cells: { orderBy: { cellIndex: "asc" } } } },
    },
  });
  if (!run || !project) return none("the run or its project is gone");
  const env = getEnv();
  // the render cuts for reuse only a video long enough; the length asked for stands for the length it will have
  const cutForReuse = reuseChunkSeconds({
    reuseSeconds: env.RENDER_REUSE_CHUNK_SECONDS,
    durationSeconds: project.durationSeconds,
    fleetChunks: 1,
  });
  if (cutForReuse === null) return none("the video is not long enough to be cut into chunks kept for reuse");
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

  // the render's cut: chunks of the reuse length, or shorter when more workers poll the render queue (planRenderChunks)
  // this runs on the render queue: the pollers are counted on it, as planRenderChunks counts them from the light one
  const workers = await renderQueuePollers(Context.current().info.taskQueue.replace(/-render$/, ""));
  const count = chunkCountFor({
    durationSeconds: project.durationSeconds,
    scenes: cells.length,
    renderWorkers: workers,
    minSeconds: env.RENDER_CHUNKED_MIN_SECONDS,
    maxChunkSeconds: env.RENDER_CHUNK_MAX_SECONDS,
  });
  const longest =
    reuseChunkSeconds({
      reuseSeconds: env.RENDER_REUSE_CHUNK_SECONDS,
      durationSeconds: project.durationSeconds,
      fleetChunks: count,
    }) ?? cutForReuse;
  const bounds = sceneBoundaries(
    scenes.map((s) => s.audioDurationInSeconds),
    plan.fps
  );
  const sceneFrames = bounds.slice(1).map((end, i) => end - bounds[i]!);
  // a run that reached the length is final; the last run of the ready scenes may still grow
  const target = Math.max(1, Math.round(longest * plan.fps));
  const final = cutByLength(sceneFrames, target).filter((chunk) => chunk.frames >= target);

  const ctx = Context.current();
  const heartbeat = setInterval(() => ctx.heartbeat(), 3000);
  const abort = new AbortController();
  const onCancel = () => abort.abort();
  ctx.cancellationSignal.addEventListener("abort", onCancel);
  let drawn = 0;
  let kept = 0;
  const keys = chunkKeysOf(plan, final);
  try {
    for (const [k, chunk] of final.entries()) {
      const key = keys[k]!;
      if (await keptChunkPart(plan, key, chunk.frames)) {
        kept++;
        continue;
      }
      await drawChunk(plan, chunk, key, {
        signal: abort.signal,
        onFrames: () => ctx.heartbeat(),
      });
      drawn++;
    }
  } finally {
    clearInterval(heartbeat);
    ctx.cancellationSignal.removeEventListener("abort", onCancel);
  }
  return {
    ready: scenes.length,
    scenes: cells.length,
    drawn,
    kept,
    never: null,
  };
}

export type EarlyChunkActivities = { drawReadyChunks: typeof drawReadyChunks };
