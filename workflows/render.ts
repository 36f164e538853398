// The render stage: the storyboard becomes an MP4, one workflow per project (`render-<projectId>`).
// The plan (scenes, real audio lengths, music) is collected first; the render activity heartbeats while
// Chromium renders, so a worker killed mid-render is noticed within the heartbeat timeout and the render is
// retried on a live worker. Progress arrives from the activity by signal and is read with renderProgressQuery.
import { ApplicationFailure, defineQuery, defineSignal, proxyActivities, setHandler } from "@temporalio/workflow";
import type * as activities from "./activities";

export type RenderWorkflowInput = {
  /** The RenderedVideo row this run fills in. */
  renderId: string;
  userId: string;
  projectId: string;
  width: number;
  height: number;
  captions: boolean;
};

export type RenderStatus = "preparing" | "rendering" | "saving" | "completed" | "failed";

/** The spec's render progress fields, less isRendering/isActive/elapsedTime, which the web side derives. */
export type RenderProgressState = {
  status: RenderStatus;
  totalScenes: number;
  completedScenes: number;
  currentScene: number;
  stage: string;
  /** 0 to 100 */
  progress: number;
  step: string;
  details: string;
  /** ms since the epoch */
  startedAt: number;
  error: string | null;
};

export type RenderProgressUpdate = Partial<Omit<RenderProgressState, "startedAt">>;

export type RenderResult = { mediaFileId: string; videoUrl: string; durationSeconds: number; width: number; height: number };

export const renderProgressQuery = defineQuery<RenderProgressState>("renderProgress");
export const renderProgressSignal = defineSignal<[RenderProgressUpdate]>("renderProgressUpdate");
export const renderWorkflowId = (projectId: string) => `render-${projectId}`;
/** Errors a retry cannot fix (a scene without media, a missing project). */
export const RENDER_INPUT_ERROR = "RenderInputError";

const { prepareRenderPlan, recordRenderFailure } = proxyActivities<typeof activities>({
  startToCloseTimeout: "2 minutes",
  retry: { initialInterval: "1 second", maximumAttempts: 5, nonRetryableErrorTypes: [RENDER_INPUT_ERROR] },
});

const { renderStoryboardVideo } = proxyActivities<typeof activities>({
  // an hour of 1080p video on two cores takes a few hours; the heartbeat notices a dead worker much sooner
  startToCloseTimeout: "8 hours",
  heartbeatTimeout: "30 seconds",
  retry: { initialInterval: "2 seconds", backoffCoefficient: 2, maximumAttempts: 4, nonRetryableErrorTypes: [RENDER_INPUT_ERROR] },
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
    const result = await renderStoryboardVideo(plan);
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
    const message = failureMessage(e);
    Object.assign(state, { status: "failed", stage: "Render failed", step: "Stopped", details: message, error: message });
    await recordRenderFailure({ renderId: input.renderId, message });
    throw ApplicationFailure.nonRetryable(message, "RenderFailed");
  }
}

function failureMessage(e: unknown): string {
  // an ActivityFailure wraps the activity's own error: that one says what went wrong
  let error = e as { message?: string; cause?: unknown } | undefined;
  while (error?.cause && typeof error.cause === "object") error = error.cause as typeof error;
  return error?.message || "The render failed for an unknown reason";
}
