// The render stage: the storyboard becomes an MP4, one workflow per project (`render-<projectId>`).
// The plan (scenes, real audio lengths, music) is collected first, with the renderer chosen for it: the fast
// renderer (one ffmpeg run) whenever the timeline holds only what it draws, the exact one (Remotion) otherwise.
// The choice and its reason are on the render's row and in the run's memo (Temporal UI: the workflow's Memo);
// a fast render that still fails after its retries, for a reason other than the input, falls back to the exact
// renderer, saying so. The render activity heartbeats, so a worker killed mid-render is noticed within the
// heartbeat timeout and the render is retried on a live worker. Progress arrives from the activity by signal and
// is read with renderProgressQuery.
// Renders run on the render queue, the rest on the light and heavy queues (decision 155). A fast render of a long
// enough video, with more than one worker polling the render queue, is cut into chunks at scene boundaries
// (decision 156): each chunk an activity of its own that any worker may take and that is retried alone, the sound
// mixed once and brought to the platform's loudness, then the parts joined without re-encoding; the chunks'
// progress adds up to the one number shown.
import { ActivityFailure, ApplicationFailure, condition, isCancellation, patched, proxyActivities, setHandler, upsertMemo, type ActivityOptions } from "@temporalio/workflow";
import type { RenderActivities } from "./activities/render";
import type { ChunkedRenderActivities, MixedSound } from "./activities/render-chunked";
import type { RenderChunk } from "./engine/render-chunks";
import { innermostMessage, isDiskFullFailure } from "./shared/errors";
import { recordStageFailure } from "./shared/failures";
import { LONG_WORK } from "./shared/priorities";
import { proxyActivitiesOn } from "./shared/queues";
import { chunkedPercent } from "./shared/render-percent";
import {
  RENDER_FAILED,
  RENDER_INPUT_ERROR,
  renderChunkProgressSignal,
  renderEarlyChunkSettledSignal,
  renderSoundProgressSignal,
  renderProgressQuery,
  renderProgressSignal,
  sceneCountOf,
  type RenderProgressState,
  type RenderPlanInput,
  type RenderProgressUpdate,
  type RenderResult,
  type RenderWorkflowInput,
} from "./shared/render";

const { prepareRenderPlan, prepareStoredRenderPlan, recordRenderFailure, recordRendererChoice } = proxyActivities<RenderActivities>({
  startToCloseTimeout: "2 minutes",
  retry: { initialInterval: "1 second", maximumAttempts: 5, nonRetryableErrorTypes: [RENDER_INPUT_ERROR] },
});

// renders and chunks are long work: a render's own short steps on these queues go first (decision 298)
const { renderVideoExact } = proxyActivitiesOn<RenderActivities>("render", {
  priority: LONG_WORK,
  // an hour of 1080p video on two cores takes a few hours; the heartbeat notices a dead worker much sooner
  startToCloseTimeout: "8 hours",
  heartbeatTimeout: "30 seconds",
  retry: { initialInterval: "2 seconds", backoffCoefficient: 2, maximumAttempts: 4, nonRetryableErrorTypes: [RENDER_INPUT_ERROR] },
});

// a fast render's steps: fewer attempts, after a third failure the exact renderer takes over
const renderStepOptions: ActivityOptions = {
  startToCloseTimeout: "1 hour",
  heartbeatTimeout: "30 seconds",
  retry: { initialInterval: "2 seconds", backoffCoefficient: 2, maximumAttempts: 3, nonRetryableErrorTypes: [RENDER_INPUT_ERROR] },
};
const fastRenderOptions: ActivityOptions = { ...renderStepOptions, startToCloseTimeout: "4 hours", priority: LONG_WORK };
const { renderVideoFast } = proxyActivitiesOn<RenderActivities>("render", fastRenderOptions);

// a chunked render: the plan and the clean-up are light, each chunk is a render, the sound and the join are heavy
const { planRenderChunks, discardRenderChunks } = proxyActivities<ChunkedRenderActivities>({
  startToCloseTimeout: "2 minutes",
  retry: { initialInterval: "1 second", maximumAttempts: 5, nonRetryableErrorTypes: [RENDER_INPUT_ERROR] },
});
const { renderVideoChunk } = proxyActivitiesOn<ChunkedRenderActivities>("render", fastRenderOptions);
const { mixRenderSound, joinRenderChunks } = proxyActivitiesOn<ChunkedRenderActivities>("heavy", renderStepOptions);
// the sound's loudness after its mix, on the heavy queue beside the chunks (decision 298); runs started before that
// took it on the render queue, where it waited for a chunk to end (decision 156): 35 s for a lone 60 s render, and
// 104 s behind another video's chunks
const normaliseOn = { heavy: proxyActivitiesOn<ChunkedRenderActivities>("heavy", renderStepOptions), render: proxyActivitiesOn<ChunkedRenderActivities>("render", renderStepOptions) };

/** The longest a render waits for a chunk the make-video run is drawing (its activity's own limit); then it draws it. */
const EARLY_CHUNK_WAIT = "1 hour";

export async function renderVideoWorkflow(input: RenderWorkflowInput): Promise<RenderResult> {
  const state: RenderProgressState = {
    status: "preparing",
    totalScenes: 0,
    completedScenes: 0,
    currentScene: 0,
    stage: "Preparing render...",
    progress: 0,
    step: "Step 1 of 3: Collecting scenes",
    details: "Checking every scene's image and voiceover",
    startedAt: Date.now(),
    error: null,
  };
  setHandler(renderProgressQuery, () => state);
  setHandler(renderProgressSignal, (update) => {
    // a late signal from an attempt that already ended must not move a finished render back
    if (state.status === "completed" || state.status === "failed") return;
    Object.assign(state, update);
  });

  // the chunks the make-video run was drawing as this render started, by their scenes, once each is over
  const earlySettled = new Set<string>();
  setHandler(renderEarlyChunkSettledSignal, ({ fromScene, toScene }) => void earlySettled.add(`${fromScene}-${toScene}`));
  const { early, ...renderInput } = input;

  try {
    // the scenes wait in the database and each activity reads them: a 60-minute plan is half a megabyte, too much
    // to hand to every chunk (decision 140); runs started before that carry the plan whole
    const plan: RenderPlanInput = patched("render-plan-by-reference") ? await prepareStoredRenderPlan(renderInput) : await prepareRenderPlan(renderInput);
    const sceneCount = sceneCountOf(plan);
    state.totalScenes = sceneCount;
    state.currentScene = 1;
    state.progress = 2;
    upsertMemo({ renderer: plan.renderer.engine, rendererReason: plan.renderer.reason });
    let result: RenderResult;
    if (plan.renderer.engine === "fast") {
      try {
        // runs started before chunked renders existed render in one piece
        // a make-video run's chunks drawn while the scenes were made: the render is cut as they were (decision 292)
        const chunks = patched("chunked-render") ? await (early ? planRenderChunks(plan, early.cutFrames) : planRenderChunks(plan)) : [];
        // a chunk still being drawn is taken once it is over: drawing it here too would race the same work
        const drawnFirst = (chunk: RenderChunk) =>
          early?.drawing.some((d) => d.fromScene === chunk.fromScene && d.toScene === chunk.toScene)
            ? condition(() => earlySettled.has(`${chunk.fromScene}-${chunk.toScene}`), EARLY_CHUNK_WAIT).then(() => {})
            : undefined;
        result = chunks.length > 1 ? await renderInChunks(plan, chunks, state, drawnFirst) : await renderVideoFast(plan);
      } catch (e) {
        // a full disk fails the exact renderer too, and far slower: the creator is told at once (decision 182)
        if (isCancellation(e) || !(e instanceof ActivityFailure) || isInputError(e) || (isDiskFullFailure(e) && patched("no-fallback-on-full-disk"))) throw e;
        const reason = `the fast renderer failed (${innermostMessage(e, "no reason given")}), so the exact renderer took over`;
        upsertMemo({ renderer: "exact", rendererReason: reason });
        await recordRendererChoice({ renderId: input.renderId, engine: "exact", reason });
        result = await renderVideoExact({ ...plan, renderer: { engine: "exact", reason } });
      }
    } else {
      result = await renderVideoExact(plan);
    }
    Object.assign(state, {
      status: "completed",
      completedScenes: sceneCount,
      currentScene: sceneCount,
      stage: "Render complete",
      progress: 100,
      step: "Done",
      details: `${sceneCount} scenes, ${result.durationSeconds.toFixed(1)} s at ${result.width}x${result.height}`,
    } satisfies RenderProgressUpdate);
    return result;
  } catch (e) {
    return await recordStageFailure(e, {
      userId: input.userId,
      projectId: input.projectId,
      logType: "render",
      failureType: RENDER_FAILED,
      fallbackMessage: "The render failed for an unknown reason",
      cancelledMessage: "The render was cancelled",
      recordOnRow: async ({ message }) => {
        Object.assign(state, { status: "failed", stage: "Render failed", step: "Stopped", details: message, error: message });
        await recordRenderFailure({ renderId: input.renderId, message });
      },
    });
  }
}

/**
 * Every chunk's picture on the render queue and the sound on the heavy queue at once; once the sound is mixed, its
 * loudness on the render queue (taken by the first worker to finish its chunk); then the join, a stream copy. The
 * chunks' progress signals (the latest attempt of each counts) make the render's one progress figure. When a part
 * fails for good, the parts already stored are deleted and the failure goes on (the exact renderer may take over).
 */
async function renderInChunks(
  plan: RenderPlanInput,
  chunks: RenderChunk[],
  state: RenderProgressState,
  drawnFirst: (chunk: RenderChunk) => Promise<void> | undefined = () => undefined,
): Promise<RenderResult> {
  const sceneCount = sceneCountOf(plan);
  const totalFrames = chunks.reduce((sum, c) => sum + c.frames, 0);
  const latest = new Map<number, { frames: number; attempt: number }>();
  // the sound's step, 0 to 1 (its latest attempt's word; 1 once it is at the platform's loudness)
  let sound = { done: 0, attempt: 0 };
  const showProgress = () => {
    if (state.status === "completed" || state.status === "failed" || state.status === "saving") return;
    const framesDone = [...latest.values()].reduce((sum, c) => sum + c.frames, 0);
    const attempts = Math.max(...[...latest.values()].map((c) => c.attempt));
    const completedScenes = chunks.reduce((sum, c) => sum + (latest.get(c.index)?.frames === c.frames ? c.toScene - c.fromScene : 0), 0);
    Object.assign(state, {
      status: "rendering",
      attempt: attempts,
      completedScenes,
      currentScene: Math.min(sceneCount, completedScenes + 1),
      stage: "Rendering scenes",
      step: "Step 2 of 3: Rendering frames",
      details: `Frame ${framesDone} of ${totalFrames}, in ${chunks.length} parts rendered side by side (fast renderer)${attempts > 1 ? ` (a part restarted after an interruption, attempt ${attempts})` : ""}`,
      // the frames, and the sound once it is at the platform's loudness (shared/render-percent.ts)
      progress: chunkedPercent(framesDone / Math.max(1, totalFrames), sound.done),
    } satisfies RenderProgressUpdate);
  };
  setHandler(renderChunkProgressSignal, ({ chunk, frames, attempt }) => {
    if (state.status === "completed" || state.status === "failed") return;
    const seen = latest.get(chunk);
    if (seen && attempt < seen.attempt) return; // a late word from an attempt that was replaced
    latest.set(chunk, { frames, attempt });
    showProgress();
  });
  setHandler(renderSoundProgressSignal, ({ done, attempt }) => {
    if (state.status === "completed" || state.status === "failed" || sound.done >= 1 || attempt < sound.attempt) return;
    sound = { done: Math.max(attempt > sound.attempt ? 0 : sound.done, Math.min(0.99, done)), attempt };
    if (latest.size) showProgress();
  });
  Object.assign(state, { status: "rendering", stage: "Rendering scenes", step: "Step 2 of 3: Rendering frames", details: `Rendering the video in ${chunks.length} parts`, progress: 4 });

  // runs started before the sound was normalised on its own have the join normalise the joined video
  const soundStep = (patched("chunked-sound-loudness") ? mixedAtLoudness(plan) : mixRenderSound({ plan })).then((mixed) => {
    sound = { done: 1, attempt: sound.attempt };
    if (latest.size) showProgress();
    return mixed;
  });
  const [soundDone, ...partsDone] = await Promise.allSettled([soundStep, ...chunks.map((chunk) => drawnFirst(chunk)?.then(() => renderVideoChunk({ plan, chunk })) ?? renderVideoChunk({ plan, chunk }))]);
  const stored = [soundDone, ...partsDone].flatMap((r) => (r.status === "fulfilled" ? [r.value.mediaFileId, ...("mixFileId" in r.value && r.value.mixFileId ? [r.value.mixFileId] : [])] : []));
  const failed = [soundDone, ...partsDone].find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) {
    await discardRenderChunks({ userId: plan.userId, fileIds: stored }).catch(() => {});
    throw failed.reason;
  }
  const parts = partsDone.map((r) => (r as PromiseFulfilledResult<{ mediaFileId: string }>).value.mediaFileId);
  return joinRenderChunks({ plan, chunks: parts, sound: (soundDone as PromiseFulfilledResult<MixedSound>).value });
}

/**
 * The sound mixed (PCM) and measured, then brought to the platform's loudness (AAC); the mix is deleted when the
 * second step fails for good.
 */
async function mixedAtLoudness(plan: RenderPlanInput): Promise<MixedSound> {
  const mixed = await mixRenderSound({ plan, forLoudness: true });
  try {
    return await normaliseOn[patched("sound-loudness-beside-the-chunks") ? "heavy" : "render"].normaliseRenderSound({ plan, sound: mixed });
  } catch (e) {
    await discardRenderChunks({ userId: plan.userId, fileIds: [mixed.mediaFileId] }).catch(() => {});
    throw e;
  }
}

function isInputError(e: ActivityFailure): boolean {
  return e.cause instanceof ApplicationFailure && e.cause.type === RENDER_INPUT_ERROR;
}
