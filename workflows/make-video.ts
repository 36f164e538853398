// The whole video in one workflow (issue 32), `make-video-<projectId>`: the stages run as child workflows, the very
// workflows the pages start (script, storyboard, Generate All, music, render, mix, thumbnail, metadata and the
// YouTube upload), under the ids the pages use, so the pages show each stage while it runs and the Temporal UI
// shows one tree per video. Stages that do not depend on each other run at the same time (issue 53, decision 252):
// the music is made beside the script and the scene media, the render waits for both (it mixes the finished track
// in its own sound step, so the mix stage has nothing left to do), the thumbnail is made and the upload's
// description written while the video renders, and the upload starts once the file is stored. A stage that fails
// cancels the others and fails the run, named. A stage already done is skipped, so a run started again after a
// failure (retry from the API, "Reset" in the Temporal UI) goes on from the stage that failed. The run's VideoRun
// row holds the stage of the main line (script, storyboard, media, render, mix, upload), the percent and the error
// in words; the progress query's `stages` says what runs at once. A scene the creator edits while the video renders
// is rendered again once the render ends, only its chunk drawn again (decision 267). The render's chunks are drawn
// while the later scenes' media are still being made, side by side, and the render takes them (decision 292).
import {
  ApplicationFailure,
  CancellationScope,
  condition,
  patched,
  executeChild,
  isCancellation,
  proxyActivities,
  setHandler,
  sleep,
  startChild,
  workflowInfo,
} from "@temporalio/workflow";
import type { MakeVideoActivities, MakeVideoPlan } from "./activities/make-video";
import type { EarlyChunkActivities, EarlyChunkRange } from "./activities/render-early-chunks";
import type { RenderAfterEditActivities } from "./activities/render-after-edit";
import { generateAllContentWorkflow } from "./scene-media";
import { backgroundMusicWorkflow, musicTracksWorkflow } from "./music";
import { renderVideoWorkflow } from "./render";
import { scriptWorkflow } from "./script";
import { storyboardWorkflow } from "./storyboard";
import { thumbnailWorkflow, uploadMetadataWorkflow } from "./thumbnail";
import { startWebhookDeliveries } from "./webhooks";
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
import { renderEarlyChunkSettledSignal, renderWorkflowId } from "./shared/render";
import { generateAllWorkflowId } from "./shared/scene-media";
import { scriptWorkflowId } from "./shared/script";
import { storyboardWorkflowId } from "./shared/storyboard";
import { thumbnailWorkflowId, uploadMetadataWorkflowId } from "./shared/thumbnail";
import type { WebhookEvent } from "./shared/webhooks";
import { youtubeUploadWorkflowId } from "./shared/youtube-upload";
import { LONG_WORK } from "./shared/priorities";
import { proxyActivitiesOn } from "./shared/queues";

const acts = proxyActivities<MakeVideoActivities>({
  startToCloseTimeout: "2 minutes",
  retry: { initialInterval: "1 second", backoffCoefficient: 2, maximumAttempts: 5, nonRetryableErrorTypes: [MAKE_VIDEO_INPUT_ERROR, "SceneMediaMissing"] },
});

// a render's first chunks drawn while the later scenes' media are made (decision 261): best effort, one attempt a call
// (the next call, a few seconds on, is the retry; the render draws whatever is missing)
const { drawReadyChunks, drawEarlyChunk } = proxyActivitiesOn<EarlyChunkActivities>("render", {
  priority: LONG_WORK,
  startToCloseTimeout: "1 hour",
  heartbeatTimeout: "30 seconds",
  retry: { maximumAttempts: 1 },
});
// the look for the next chunk that can be drawn (decision 292): light, a few database reads
const { lookForEarlyChunk } = proxyActivities<EarlyChunkActivities>({
  startToCloseTimeout: "1 minute",
  retry: { maximumAttempts: 1 },
});

/** A stage's end as a flag, however it ends (the loops beside it read it between their steps). */
function endOf(stage: Promise<void>): { over: boolean } {
  const flag = { over: false };
  stage.then(
    () => (flag.over = true),
    () => (flag.over = true),
  );
  return flag;
}

/** How long the run waits between two looks for scenes whose chunk can be drawn early. */
const EARLY_CHUNK_LOOK_MS = 2000;
/** The same since decision 292: a look costs a few database reads, and a voiceover takes about a second and a half. */
const EARLY_CHUNK_LOOK_ASIDE_MS = 1000;
/** Chunks drawn early at once (decision 292): a worker's render slots (WORKER_RENDERS, two by default). */
const EARLY_DRAWS_AT_ONCE = 2;

// the scenes edited while the render drew them (decision 267): light, read from the database
const { scenesEditedSinceRender } = proxyActivities<RenderAfterEditActivities>({
  startToCloseTimeout: "2 minutes",
  retry: { initialInterval: "1 second", backoffCoefficient: 2, maximumAttempts: 5 },
});
/** How many times a run renders again for scenes edited while it rendered. */
const RENDERS_AFTER_EDITS = 2;

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

  /**
   * Generate All under the project's one id, the one the storyboard page starts and shows. When the creator's own run
   * holds it (Generate All pressed after an edit while this run rendered), that run is left to finish and this one
   * starts after it: it makes only what is still missing, so nothing is made twice, and this run does not fail.
   */
  async function generateAll() {
    for (;;) {
      try {
        return await executeChild(generateAllContentWorkflow, {
          ...child(generateAllWorkflowId(input.projectId)),
          args: [{ projectId: input.projectId, userId: input.userId, pauses: input.tuning?.generateAllPauses }],
        });
      } catch (e) {
        if (!(e instanceof Error && e.name === "WorkflowExecutionAlreadyStartedError")) throw e;
        await sleep("5 seconds");
      }
    }
  }

  // the first stage that failed (a cancelled sibling is not it); the run's error names it
  let failed: MakeVideoStage | null = null;
  let plan: MakeVideoPlan | undefined;
  let metadata: Promise<{ description: string; tags: string[] } | null> = Promise.resolve(null);
  // the picture the run's thumbnail was made from (null until it is made)
  let thumbnailPicture: string | null = null;
  // chunks drawn while the scenes are made, side by side (decision 292): the cut's length, the chunks being drawn by
  // their scenes, and every draw's end (none fails the run: the render draws what is missing)
  let earlyCutFrames: number | null = null;
  const earlyDrawing = new Map<string, { range: EarlyChunkRange; settled: Promise<void> }>();
  const earlyDraws: Promise<void>[] = [];
  // chunks whose early draw failed: not drawn early again (the render draws them), so a failing draw cannot spin
  const earlyFailed: EarlyChunkRange[] = [];
  // whether the render stage itself began (tracked): until then a render shown running is its early chunks alone
  let renderBegan = false;
  try {
    plan = await acts.planMakeVideo(ref);
    for (const stage of MAKE_VIDEO_STAGES) if (plan.skip[stage]) stageState(stage).state = plan.skip[stage] === "done" ? "done" : "skipped";
    await CancellationScope.cancellable(async () => {
      const script = tracked("script");
      // the upload's description and tags need only the script: written beside everything after it
      metadata = script
        .then(() => (plan!.skip.upload ? null : uploadMetadata()))
        .catch((error: unknown) => {
          if (!isCancellation(error)) failed ??= "upload"; // its failure is the upload's
          throw error;
        });
      const storyboard = script.then(() => tracked("storyboard"));
      const media = storyboard.then(() => tracked("media"));
      const music = tracked("music");
      // runs started before early chunks existed go straight from the media to the render; runs started before
      // decision 292 draw them one look at a time and start the render once the chunk in hand is drawn
      const aside = patched("make-video-early-chunks-aside");
      const early = aside
        ? storyboard.then(() => drawChunksAside(media))
        : patched("make-video-early-chunks")
          ? storyboard.then(() => drawChunksEarly(media))
          : Promise.resolve();
      const video = Promise.all([media, music, ...(aside ? [] : [early])])
        .then(() => tracked("render"))
        .then(() => tracked("mix"));
      const thumbnail = media.then(() => tracked("thumbnail"));
      try {
        await Promise.all([video, thumbnail, metadata, early]);
        await Promise.all(earlyDraws);
      } catch (error) {
        // one branch failed: the others stop (their children are cancelled), and the failure is the run's
        CancellationScope.current().cancel();
        throw error;
      }
      // the first picture changed while the video rendered (a scene edited, decision 278): the thumbnail, made beside
      // the render from the picture before, is made again from the one the video shows (runs started before: as made)
      if (thumbnailPicture !== null && patched("make-video-thumbnail-after-edit") && (await acts.prepareThumbnailStage(ref)).imageUrl !== thumbnailPicture) {
        await tracked("thumbnail");
      }
      await tracked("upload");
    });
    progress.stage = "done";
    progress.percent = 100;
    progress.status = "completed";
    const result = await acts.finishMakeVideo({ ...ref, outcome: "completed", stage: "done", percent: 100, stages: progress.stages });
    // listeners hear of what this run made: a new video (not a publish-only run), and an upload
    if (!plan.skip.render || !plan.skip.thumbnail) await announce("video.ready");
    if (stageState("upload").state === "done" && !plan.skip.upload) await announce("video.published");
    return result;
  } catch (error) {
    // chunks drawn early for a render that never began: the render did not run (nor fail)
    const render = stageState("render");
    if (!renderBegan && render.state === "running") Object.assign(render, { state: "pending", startedAt: null, endedAt: null });
    const cancelled = failed === null && isCancellation(error);
    const current: MakeVideoStage = failed ?? (progress.stage === "queued" || progress.stage === "done" ? "script" : progress.stage);
    const message = cancelled ? "Cancelled" : `${MAKE_VIDEO_STAGE_LABELS[current]} failed: ${innermostMessage(error, "no reason given")}`;
    progress.status = cancelled ? "cancelled" : "failed";
    progress.error = message;
    stageState(current).state = "failed";
    await CancellationScope.nonCancellable(async () => {
      await acts.finishMakeVideo({ ...ref, outcome: cancelled ? "cancelled" : "failed", stage: current, error: message, percent: progress.percent, stages: progress.stages });
      if (!cancelled) await announce("video.failed");
    });
    if (cancelled) throw error;
    throw ApplicationFailure.nonRetryable(message, MAKE_VIDEO_FAILED);
  }

  /** Runs a stage unless the plan skips it, keeping its state, the run's stage and percent; records the first failure. */
  async function tracked(stage: MakeVideoStage): Promise<void> {
    if (plan!.skip[stage]) return;
    const state = stageState(stage);
    // when it ran, for the progress every door shows (decision 262); workflow time, so a replay gives the same. A
    // render whose first chunks were drawn while the scenes were made began with them (decision 297)
    const drawnEarly = stage === "render" && state.state === "running" && state.startedAt != null;
    if (stage === "render") renderBegan = true;
    state.state = "running";
    if (!drawnEarly) state.startedAt = Date.now();
    state.endedAt = null;
    // the run's stage is its main line (script, storyboard, media, render, mix, upload); the music and the
    // thumbnail run beside it and show in `stages` only
    const beside = stage === "music" || stage === "thumbnail";
    if (!beside) {
      progress.stage = stage;
      progress.percent = Math.max(progress.percent, overallPercent(stage));
    }
    try {
      if (!beside) await acts.recordMakeVideoStage({ runId: input.runId, stage, percent: progress.percent });
      const ran = await runStage(stage, state);
      state.state = ran ? "done" : "skipped";
      state.endedAt = Date.now();
    } catch (error) {
      state.endedAt = Date.now();
      if (!isCancellation(error)) failed ??= stage;
      else if (failed !== null) {
        // stopped because another stage failed: it runs on a retry
        state.state = "pending";
        state.startedAt = state.endedAt = null;
      }
      throw error;
    }
  }

  /**
   * While the scene media are made, draws the render's chunks whose scenes are all ready (decision 261), looking
   * again every few seconds and at once after a chunk was drawn; ends when the media stage ends (after the chunk in
   * hand). Best effort: a failed look is not the run's failure (the render draws what is missing); a cancellation is.
   */
  async function drawChunksEarly(media: Promise<void>): Promise<void> {
    if (plan!.skip.render || plan!.skip.media) return;
    const mediaStage = endOf(media);
    while (!mediaStage.over) {
      let drew = false;
      try {
        const looked = await drawReadyChunks({ ...ref, tuning: input.tuning });
        if (looked.never) return;
        drew = looked.drawn > 0;
      } catch (error) {
        if (isCancellation(error)) throw error;
      }
      if (!drew) await condition(() => mediaStage.over, EARLY_CHUNK_LOOK_MS);
    }
  }

  /**
   * While the scene media are made, looks (every EARLY_CHUNK_LOOK_ASIDE_MS, and at once after a chunk was started) for
   * the render's next chunk whose scenes are all ready, and draws each one found beside the others, up to
   * EARLY_DRAWS_AT_ONCE at a time (decision 292). Ends when the media stage ends; the chunks still being drawn go on,
   * and the render waits for them. Best effort: a failed look or draw is not the run's failure; a cancellation is.
   */
  async function drawChunksAside(media: Promise<void>): Promise<void> {
    if (plan!.skip.render || plan!.skip.media) return;
    const mediaStage = endOf(media);
    while (!mediaStage.over) {
      if (earlyDrawing.size >= EARLY_DRAWS_AT_ONCE) {
        await condition(() => mediaStage.over || earlyDrawing.size < EARLY_DRAWS_AT_ONCE);
        continue;
      }
      let look: Awaited<ReturnType<typeof lookForEarlyChunk>> | undefined;
      try {
        look = await lookForEarlyChunk({ ...ref, tuning: input.tuning, drawing: [...[...earlyDrawing.values()].map((d) => d.range), ...earlyFailed] });
      } catch (error) {
        if (isCancellation(error)) throw error;
      }
      if (look?.never) return;
      if (look?.next && look.targetFrames !== null && !mediaStage.over) {
        earlyCutFrames = look.targetFrames;
        const range = look.next;
        const key = `${range.fromScene}-${range.toScene}`;
        // a failed or cancelled draw settles all the same: the render draws that chunk (a cancelled run stops anyway)
        const settled = drawEarlyChunk({ ...ref, tuning: input.tuning, chunk: range }).then(
          () => void earlyDrawing.delete(key),
          () => {
            earlyDrawing.delete(key);
            earlyFailed.push(range);
          },
        );
        earlyDrawing.set(key, { range, settled });
        earlyDraws.push(settled);
        // the render stage shows running from its first chunk, beside the scenes (decision 297)
        const render = stageState("render");
        if (render.state === "pending") Object.assign(render, { state: "running", startedAt: Date.now(), endedAt: null });
        continue;
      }
      await condition(() => mediaStage.over, EARLY_CHUNK_LOOK_ASIDE_MS);
    }
  }

  /** The upload's description and tags, written from the script. */
  async function uploadMetadata(): Promise<{ description: string; tags: string[] }> {
    const text = await acts.scriptTextOf(ref);
    return executeChild(uploadMetadataWorkflow, {
      ...child(uploadMetadataWorkflowId(input.userId, `make-video-${workflowInfo().runId}`)),
      args: [{ userId: input.userId, title: text.title, script: text.script, language: text.language }],
    });
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
        await acts.checkSceneMedia({ ...ref, summary: await generateAll() });
        return true;
      }
      case "music": {
        const music = await acts.prepareMusicStage({ ...ref, tuning: input.tuning });
        state.workflowId = music.workflowId;
        await executeChild(musicTracksWorkflow, { ...child(music.workflowId), args: [music.input] });
        return true;
      }
      case "render": {
        for (let renders = 1; ; renders++) {
          const renderInput = await acts.prepareRenderStage({ ...ref, tuning: input.tuning });
          state.workflowId = renderWorkflowId(projectId);
          if (renders === 1 && earlyCutFrames !== null) {
            // cut as the chunks drawn early were; the ones still being drawn are the render's once they are over
            const drawing = [...earlyDrawing.values()];
            const early = { cutFrames: earlyCutFrames, drawing: drawing.map((d) => d.range) };
            const render = await startChild(renderVideoWorkflow, { ...child(state.workflowId), args: [{ ...renderInput, early }] });
            for (const d of drawing) void d.settled.then(() => render.signal(renderEarlyChunkSettledSignal, d.range)).catch(() => {});
            await render.result();
          } else {
            await executeChild(renderVideoWorkflow, { ...child(state.workflowId), args: [renderInput] });
          }
          // a scene edited while it rendered (decision 267): rendered again, which draws only the edited scenes'
          // chunks (the others are kept under their keys); bounded, so a creator still editing cannot hold the run
          // (runs started before this go on with the render as it is)
          if (renders > RENDERS_AFTER_EDITS || !patched("make-video-render-after-edit")) return true;
          const edited = await scenesEditedSinceRender({ userId: input.userId, projectId, renderId: renderInput.renderId });
          if (edited.length === 0) return true;
          // new words drop a scene's voiceover (a scene added has none yet): Generate All makes only what is missing,
          // so the render after the edit has every scene's media (runs started before this render as they did)
          if (patched("make-video-media-after-edit")) await acts.checkSceneMedia({ ...ref, summary: await generateAll() });
        }
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
        thumbnailPicture = thumbInput.imageUrl;
        state.workflowId = thumbnailWorkflowId(projectId, `make-video-${workflowInfo().runId}`);
        const made = await executeChild(thumbnailWorkflow, { ...child(state.workflowId), args: [thumbInput] });
        await acts.approveRunThumbnail({ ...ref, thumbnailId: made.thumbnailId });
        return true;
      }
      case "upload": {
        const written = (await metadata) ?? (await uploadMetadata());
        const uploadInput = await acts.prepareUploadStage({ ...ref, description: written.description, tags: written.tags });
        state.workflowId = youtubeUploadWorkflowId(projectId);
        await executeChild(youtubeUploadWorkflow, { ...child(state.workflowId), args: [uploadInput] });
        return true;
      }
    }
  }

  /** Records the event for the creator's webhook endpoints; each delivery is its own workflow that outlives this one. */
  async function announce(event: WebhookEvent) {
    await startWebhookDeliveries(await acts.queueVideoEvent({ ...ref, event }), event, input.userId);
  }
}
