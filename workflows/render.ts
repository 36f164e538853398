// The render stage: the storyboard becomes an MP4, one workflow per project (`render-<projectId>`).
// The plan (scenes, real audio lengths, music) is collected first, with the renderer chosen for it: the fast
// renderer (one ffmpeg run) whenever the timeline holds only what it draws, the exact one (Remotion) otherwise.
// The choice and its reason are on the render's row and in the run's memo (Temporal UI: the workflow's Memo);
// a fast render that still fails after its retries, for a reason other than the input, falls back to the exact
// renderer, saying so. The render activity heartbeats, so a worker killed mid-render is noticed within the
// heartbeat timeout and the render is retried on a live worker. Progress arrives from the activity by signal and
// is read with renderProgressQuery.
import { ActivityFailure, ApplicationFailure, isCancellation, proxyActivities, setHandler, upsertMemo } from "@temporalio/workflow";
import type { RenderActivities } from "./activities/render";
import { innermostMessage } from "./shared/errors";
import { recordStageFailure } from "./shared/failures";
import {
  RENDER_FAILED,
  RENDER_INPUT_ERROR,
  renderProgressQuery,
  renderProgressSignal,
  type RenderProgressState,
  type RenderProgressUpdate,
  type RenderResult,
  type RenderWorkflowInput,
} from "./shared/render";

const { prepareRenderPlan, recordRenderFailure, recordRendererChoice } = proxyActivities<RenderActivities>({
  startToCloseTimeout: "2 minutes",
  retry: { initialInterval: "1 second", maximumAttempts: 5, nonRetryableErrorTypes: [RENDER_INPUT_ERROR] },
});

const { renderVideoExact } = proxyActivities<RenderActivities>({
  // an hour of 1080p video on two cores takes a few hours; the heartbeat notices a dead worker much sooner
  startToCloseTimeout: "8 hours",
  heartbeatTimeout: "30 seconds",
  retry: { initialInterval: "2 seconds", backoffCoefficient: 2, maximumAttempts: 4, nonRetryableErrorTypes: [RENDER_INPUT_ERROR] },
});

const { renderVideoFast } = proxyActivities<RenderActivities>({
  startToCloseTimeout: "4 hours",
  heartbeatTimeout: "30 seconds",
  // fewer attempts: after a third failure the exact renderer takes over
  retry: { initialInterval: "2 seconds", backoffCoefficient: 2, maximumAttempts: 3, nonRetryableErrorTypes: [RENDER_INPUT_ERROR] },
});

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

  try {
    const plan = await prepareRenderPlan(input);
    state.totalScenes = plan.scenes.length;
    state.currentScene = 1;
    state.progress = 2;
    upsertMemo({ renderer: plan.renderer.engine, rendererReason: plan.renderer.reason });
    let result: RenderResult;
    if (plan.renderer.engine === "fast") {
      try {
        result = await renderVideoFast(plan);
      } catch (e) {
        if (isCancellation(e) || !(e instanceof ActivityFailure) || isInputError(e)) throw e;
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
      completedScenes: plan.scenes.length,
      currentScene: plan.scenes.length,
      stage: "Render complete",
      progress: 100,
      step: "Done",
      details: `${plan.scenes.length} scenes, ${result.durationSeconds.toFixed(1)} s at ${result.width}x${result.height}`,
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

function isInputError(e: ActivityFailure): boolean {
  return e.cause instanceof ApplicationFailure && e.cause.type === RENDER_INPUT_ERROR;
}
