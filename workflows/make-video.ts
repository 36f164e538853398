// The whole video in one workflow (issue 32), `make-video-<projectId>`: the stages run in order as child workflows,
// the very workflows the pages start (script, storyboard, Generate All, music, render, mix, thumbnail, metadata and
// the YouTube upload), under the ids the pages use, so the pages show each stage while it runs and the Temporal UI
// shows one tree per video. A stage already done is skipped, so a run started again after a failure (retry from the
// API, "Reset" in the Temporal UI) goes on from the stage that failed. The run's VideoRun row
// holds the stage, percent and error in words;
import {
  ApplicationFailure,
  CancellationScope,
  ParentClosePolicy,
  startChild,
  executeChild,
  isCancellation,
  proxyActivities,
  setHandler,
  workflowInfo,
} from "@temporalio/workflow";
import type { MakeVideoActivities } from "./activities/make-video";
import { generateAllContentWorkflow } from "./scene-media";
import { backgroundMusicWorkflow, musicTracksWorkflow } from "./music";
import { renderVideoWorkflow } from "./render";
import { scriptWorkflow } from "./script";
import { storyboardWorkflow } from "./storyboard";
import { thumbnailWorkflow, uploadMetadataWorkflow } from "./thumbnail";
import { webhookDeliveryWorkflow } from "./webhooks";
import { youtubeUploadWorkflow } from "./youtube-upload";
import { innermostMessage } from "./shared/errors";
import {
  MAKE_VIDEO_FAILED,
  MAKE_VIDEO_INPUT_ERROR,
  MAKE_VIDEO_STAGE_LABELS,
  MAKE_VIDEO_STAGES,
  makeVideoProgressQuery,
  overallPercent,
  type MakeVideoProgress,
  type MakeVideoResult,
  type MakeVideoStage,
  type MakeVideoWorkflowInput,
} from "./shared/make-video";
import { backgroundMusicWorkflowId } from "./shared/music";
import { renderWorkflowId } from "./shared/render";
import { generateAllWorkflowId } from "./shared/scene-media";
import { scriptWorkflowId } from "./shared/script";
import { storyboardWorkflowId } from "./shared/storyboard";
import { thumbnailWorkflowId, uploadMetadataWorkflowId } from "./shared/thumbnail";
import { webhookDeliveryWorkflowId, type WebhookEvent } from "./shared/webhooks";
import { youtubeUploadWorkflowId } from "./shared/youtube-upload";

const acts = proxyActivities<MakeVideoActivities>({
  startToCloseTimeout: "2 minutes",
  retry: { initialInterval: "1 second", backoffCoefficient: 2, maximumAttempts: 5, nonRetryableErrorTypes: [MAKE_VIDEO_INPUT_ERROR, "SceneMediaMissing"] },
});

export async function makeVideoWorkflow(input: MakeVideoWorkflowInput): Promise<MakeVideoResult> {
  const ref = { runId: input.runId, userId: input.userId, projectId: input.projectId };
  const progress: MakeVideoProgress = {
    status: "running",
    stage: "queued",
    percent: 0,
    stages: MAKE_VIDEO_STAGES.map((stage) => ({ stage, state: "pending", workflowId: null })),
    error: null,
  };
  setHandler(makeVideoProgressQuery, () => progress);
  const stageState = (stage: MakeVideoStage) => progress.stages.find((s) => s.stage === stage)!;
  // children carry who they are for in the memo (the Temporal UI's list), without the userId key that counts a
  // run against the creator's concurrency limit: the make-video run itself is the one counted
  const child = (workflowId: string) => ({
    workflowId,
    memo: { makeVideo: workflowInfo().workflowId, projectId: input.projectId, owner: input.userId },
  });

  let current: MakeVideoStage = "script";
  try {
    const plan = await acts.planMakeVideo(ref);
    for (const stage of MAKE_VIDEO_STAGES) {
      current = stage;
      const state = stageState(stage);
      if (plan.skip[stage]) {
        state.state = plan.skip[stage] === "done" ? "done" : "skipped";
        continue;
      }
      progress.stage = stage;
      progress.percent = overallPercent(stage);
      state.state = "running";
      await acts.recordMakeVideoStage({ runId: input.runId, stage, percent: progress.percent });
      const ran = await runStage(stage, state);
      state.state = ran ? "done" : "skipped";
    }
    progress.stage = "done";
    progress.percent = 100;
    progress.status = "completed";
    const result = await acts.finishMakeVideo({ ...ref, outcome: "completed", stage: "done", percent: 100 });
    // listeners hear of what this run made: a new video (not a publish-only run), and an upload
    if (!plan.skip.render || !plan.skip.thumbnail) await announce("video.ready");
    if (stageState("upload").state === "done" && !plan.skip.upload) await announce("video.published");
    return result;
  } catch (error) {
    const cancelled = isCancellation(error);
    const message = cancelled ? "Cancelled" : `${MAKE_VIDEO_STAGE_LABELS[current]} failed: ${innermostMessage(error, "no reason given")}`;
    progress.status = cancelled ? "cancelled" : "failed";
    progress.error = message;
    stageState(current).state = "failed";
    await CancellationScope.nonCancellable(async () => {
      await acts.finishMakeVideo({ ...ref, outcome: cancelled ? "cancelled" : "failed", stage: current, error: message, percent: progress.percent });
      if (!cancelled) await announce("video.failed");
    });
    if (cancelled) throw error;
    throw ApplicationFailure.nonRetryable(message, MAKE_VIDEO_FAILED);
  }

  /** Runs one stage's child workflow(s); false when there turned out to be nothing to do. */
  async function runStage(stage: MakeVideoStage, state: MakeVideoProgress["stages"][number]): Promise<boolean> {
    const projectId = input.projectId;
    switch (stage) {
      case "script": {
        const scriptInput = await acts.prepareScriptStage(ref);
        if (!scriptInput) return false; // the creator's own script, saved as written
        state.workflowId = scriptWorkflowId(projectId);
        await executeChild(scriptWorkflow, { ...child(state.workflowId), args: [scriptInput] });
        return true;
      }
      case "storyboard": {
        await acts.prepareStoryboardStage(ref);
        state.workflowId = storyboardWorkflowId(projectId);
        await executeChild(storyboardWorkflow, { ...child(state.workflowId), args: [{ projectId, userId: input.userId }] });
        return true;
      }
      case "media": {
        state.workflowId = generateAllWorkflowId(projectId);
        const summary = await executeChild(generateAllContentWorkflow, {
          ...child(state.workflowId),
          args: [{ projectId, userId: input.userId, pauses: input.tuning?.generateAllPauses }],
        });
        await acts.checkSceneMedia({ ...ref, summary });
        return true;
      }
      case "music": {
        const music = await acts.prepareMusicStage({ ...ref, tuning: input.tuning });
        state.workflowId = music.workflowId;
        await executeChild(musicTracksWorkflow, { ...child(music.workflowId), args: [music.input] });
        return true;
      }
      case "render": {
        const renderInput = await acts.prepareRenderStage({ ...ref, tuning: input.tuning });
        state.workflowId = renderWorkflowId(projectId);
        await executeChild(renderVideoWorkflow, { ...child(state.workflowId), args: [renderInput] });
        return true;
      }
      case "mix": {
        const mixInput = await acts.prepareMixStage(ref);
        if (!mixInput) return false; // the render already carries the music
        state.workflowId = backgroundMusicWorkflowId(projectId);
        await executeChild(backgroundMusicWorkflow, { ...child(state.workflowId), args: [mixInput] });
        return true;
      }
      case "thumbnail": {
        const thumbInput = await acts.prepareThumbnailStage(ref);
        state.workflowId = thumbnailWorkflowId(projectId, `make-video-${workflowInfo().runId}`);
        const made = await executeChild(thumbnailWorkflow, { ...child(state.workflowId), args: [thumbInput] });
        await acts.approveRunThumbnail({ ...ref, thumbnailId: made.thumbnailId });
        return true;
      }
      case "upload": {
        const text = await acts.scriptTextOf(ref);
        const metadata = await executeChild(uploadMetadataWorkflow, {
          ...child(uploadMetadataWorkflowId(input.userId, `make-video-${workflowInfo().runId}`)),
          args: [{ userId: input.userId, title: text.title, script: text.script, language: text.language }],
        });
        const uploadInput = await acts.prepareUploadStage({ ...ref, description: metadata.description, tags: metadata.tags });
        state.workflowId = youtubeUploadWorkflowId(projectId);
        await executeChild(youtubeUploadWorkflow, { ...child(state.workflowId), args: [uploadInput] });
        return true;
      }
    }
  }

  /** Records the event for the creator's webhook endpoints; each delivery is its own workflow that outlives this one. */
  async function announce(event: WebhookEvent) {
    const deliveries = await acts.queueVideoEvent({ ...ref, event });
    for (const deliveryId of deliveries) {
      await startChild(webhookDeliveryWorkflow, {
        workflowId: webhookDeliveryWorkflowId(deliveryId),
        args: [{ deliveryId }],
        parentClosePolicy: ParentClosePolicy.ABANDON,
        memo: { webhook: event, owner: input.userId },
      });
    }
  }
}
