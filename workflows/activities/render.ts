// The render stage's activities: collect the scenes (with their real audio lengths), render them with Remotion
// in Debian's Chromium, store the MP4 as the project's latest video, or record why it failed.
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ApplicationFailure, Context } from "@temporalio/activity";
import { makeCancelSignal, renderMedia, selectComposition } from "@remotion/renderer";
import { prisma } from "~/server/db.server";
import { deleteMedia, findMediaForUser, mediaFilePath, mediaIdFromUrl, mediaSize, mediaUrl, saveMediaFromPath } from "~/server/storage.server";
import { COMPOSITION_ID, storyboardVideoSchema, type StoryboardVideoProps } from "../../remotion/props";
import { VIDEO_FPS, completedScenesAt, sceneBoundaries } from "../../remotion/timing";
import {
  RENDER_INPUT_ERROR,
  renderProgressSignal,
  renderWorkflowId,
  type RenderPlan,
  type RenderPlanScene,
  type RenderProgressUpdate,
  type RenderResult,
  type RenderWorkflowInput,
} from "../shared/render";
import { prescaleImage, serveRenderAssets } from "./render-assets";
import { chromiumOptions, getCompositionBundle, RENDER_SETTINGS } from "./render-engine";
import { probeDurationSeconds } from "./render-probe";


const inputError = (message: string) => ApplicationFailure.create({ message, type: RENDER_INPUT_ERROR, nonRetryable: true });

async function requireFile(userId: string, id: string | null, what: string) {
  const file = id ? await findMediaForUser(userId, id) : null;
  if (!file || (await mediaSize(file)) === null) throw inputError(`${what} is missing. Generate it again on the Storyboard page.`);
  return file;
}

/** Every scene's image and voiceover, in order, with the voiceover's measured length; and the music, if any. */
export async function prepareRenderPlan(input: RenderWorkflowInput): Promise<RenderPlan> {
  const project = await prisma.project.findFirst({
    where: { id: input.projectId, userId: input.userId },
    include: {
      storyboard: { include: { cells: { orderBy: { cellIndex: "asc" } } } },
      musicTracks: { where: { status: "completed" }, orderBy: { updatedAt: "desc" } },
    },
  });
  if (!project) throw inputError("The project no longer exists.");
  const cells = project.storyboard?.cells ?? [];
  if (cells.length === 0) throw inputError("The storyboard has no scenes. Generate the storyboard first.");

  const scenes: RenderPlanScene[] = [];
  for (const [i, cell] of cells.entries()) {
    const image = await requireFile(input.userId, cell.imageFileId ?? mediaIdFromUrl(cell.imageUrl), `Scene ${i + 1}'s image`);
    const audio = await requireFile(input.userId, cell.audioFileId ?? mediaIdFromUrl(cell.audioUrl), `Scene ${i + 1}'s voiceover`);
    const audioDurationInSeconds = await probeDurationSeconds(mediaFilePath(audio)).catch(() => {
      throw inputError(`Scene ${i + 1}'s voiceover is not a playable audio file. Generate it again on the Storyboard page.`);
    });
    const clipFile = cell.clipFileId ? await requireFile(input.userId, cell.clipFileId, `Scene ${i + 1}'s clip`) : null;
    const clip = clipFile ? { fileId: clipFile.id, durationInSeconds: cell.clipDuration ?? clipFile.durationSeconds ?? audioDurationInSeconds } : undefined;
    scenes.push({ imageFileId: image.id, audioFileId: audio.id, audioDurationInSeconds, text: cell.voiceoverText, ...(clip ? { clip } : {}) });
  }

  let music: RenderPlan["music"] = null;
  for (const track of project.musicTracks) {
    const id = track.mediaFileId ?? mediaIdFromUrl(track.audioUrl);
    const file = id ? await findMediaForUser(input.userId, id) : null;
    if (file && (await mediaSize(file)) !== null) {
      music = { fileId: file.id, volume: project.musicVolume / 100 };
      break;
    }
  }
  return { ...input, fps: VIDEO_FPS, scenes, music };
}

/** Keeps Temporal told that this attempt is alive (heartbeats) and the workflow told how far it got (signals). */
function progressReporter(plan: RenderPlan) {
  const ctx = Context.current();
  const handle = ctx.client.workflow.getHandle(renderWorkflowId(plan.projectId));
  let latest: RenderProgressUpdate = {};
  let lastSignal = 0;
  const send = (force: boolean) => {
    ctx.heartbeat(latest);
    if (!force && Date.now() - lastSignal < 1000) return;
    lastSignal = Date.now();
    // progress is best effort: a lost update must never fail the render
    handle.signal(renderProgressSignal, latest).catch(() => {});
  };
  const timer = setInterval(() => send(false), 5000);
  return {
    report(update: RenderProgressUpdate, force = false) {
      latest = { ...latest, ...update };
      send(force);
    },
    stop: () => clearInterval(timer),
  };
}

/** Renders the plan to an MP4, stores it, and makes it the project's latest video. Safe to retry. */
export async function renderStoryboardVideo(plan: RenderPlan): Promise<RenderResult> {
  const render = await prisma.renderedVideo.findUnique({ where: { id: plan.renderId } });
  if (!render) throw inputError("The render was deleted before it finished.");
  if (render.status === "completed" && render.mediaFileId && render.videoUrl) {
    // an earlier attempt stored the video but died before reporting back
    return {
      mediaFileId: render.mediaFileId,
      videoUrl: render.videoUrl,
      durationSeconds: render.durationSeconds ?? 0,
      width: render.width ?? plan.width,
      height: render.height ?? plan.height,
    };
  }

  const ctx = Context.current();
  const attempt = ctx.info.attempt;
  const total = plan.scenes.length;
  const retryNote = attempt > 1 ? ` (attempt ${attempt}, restarted after an interruption)` : "";
  const progress = progressReporter(plan);
  // a fixed name per render, so a retry on this host first removes what a killed attempt left behind
  const workDir = path.join(os.tmpdir(), `reelsmith-render-${plan.renderId}`);
  await fsp.rm(workDir, { recursive: true, force: true });
  await fsp.mkdir(workDir, { recursive: true });
  const { cancelSignal, cancel } = makeCancelSignal();
  const onCancel = () => cancel();
  ctx.cancellationSignal.addEventListener("abort", onCancel);
  let assets: Awaited<ReturnType<typeof serveRenderAssets>> | undefined;

  try {
    progress.report(
      {
        status: "preparing",
        totalScenes: total,
        currentScene: 1,
        stage: "Preparing render...",
        step: "Step 1 of 3: Preparing scene media",
        details: `Scaling ${total} images to ${plan.width}x${plan.height}${retryNote}`,
        progress: 2,
      },
      true,
    );
    const files = new Map<string, string>();
    for (const [i, scene] of plan.scenes.entries()) {
      const image = await findMediaForUser(plan.userId, scene.imageFileId);
      const audio = await findMediaForUser(plan.userId, scene.audioFileId);
      if (!image || !audio) throw inputError(`Scene ${i + 1}'s media was deleted during the render. Generate it again.`);
      const scaled = path.join(workDir, `scene-${i + 1}.jpg`);
      await prescaleImage(mediaFilePath(image), scaled, plan.width, plan.height);
      files.set(`scene-${i + 1}.jpg`, scaled);
      files.set(`voiceover-${i + 1}${path.extname(audio.storageKey)}`, mediaFilePath(audio));
      if (scene.clip) {
        const clip = await findMediaForUser(plan.userId, scene.clip.fileId);
        if (!clip) throw inputError(`Scene ${i + 1}'s clip was deleted during the render. Upload it again.`);
        files.set(`clip-${i + 1}.mp4`, mediaFilePath(clip));
      }
    }
    const musicFile = plan.music ? await findMediaForUser(plan.userId, plan.music.fileId) : null;
    if (musicFile) files.set(`music${path.extname(musicFile.storageKey)}`, mediaFilePath(musicFile));
    assets = await serveRenderAssets(files);

    const inputProps: StoryboardVideoProps = storyboardVideoSchema.parse({
      width: plan.width,
      height: plan.height,
      fps: plan.fps,
      captions: plan.captions,
      scenes: plan.scenes.map((scene, i) => ({
        imageSrc: assets!.urlFor(`scene-${i + 1}.jpg`),
        audioSrc: assets!.urlFor([...files.keys()].find((name) => name.startsWith(`voiceover-${i + 1}.`))!),
        audioDurationInSeconds: scene.audioDurationInSeconds,
        text: scene.text,
        ...(scene.clip ? { clipSrc: assets!.urlFor(`clip-${i + 1}.mp4`), clipDurationInSeconds: scene.clip.durationInSeconds } : {}),
      })),
      music:
        plan.music && musicFile
          ? { src: assets.urlFor([...files.keys()].find((name) => name.startsWith("music."))!), volume: plan.music.volume }
          : null,
    });

    progress.report({ details: `Loading the video composition${retryNote}`, progress: 4 });
    const serveUrl = await getCompositionBundle();
    const chromium = chromiumOptions();
    const composition = await selectComposition({ serveUrl, id: COMPOSITION_ID, inputProps, logLevel: "error", ...chromium });

    const boundaries = sceneBoundaries(
      plan.scenes.map((s) => s.audioDurationInSeconds),
      plan.fps,
    );
    const output = path.join(workDir, "video.mp4");
    await renderMedia({
      serveUrl,
      composition,
      inputProps,
      outputLocation: output,
      ...chromium,
      ...RENDER_SETTINGS,
      cancelSignal,
      logLevel: "error",
      onProgress: ({ renderedFrames, encodedFrames, progress: fraction, stitchStage }) => {
        const completedScenes = completedScenesAt(boundaries, renderedFrames);
        const encoding = stitchStage === "muxing" || renderedFrames >= composition.durationInFrames;
        progress.report({
          status: "rendering",
          completedScenes,
          currentScene: Math.min(total, completedScenes + 1),
          stage: encoding ? "Encoding video" : "Rendering scenes",
          step: encoding ? "Step 2 of 3: Encoding the MP4" : "Step 2 of 3: Rendering frames",
          details: encoding
            ? `Encoded ${encodedFrames} of ${composition.durationInFrames} frames${retryNote}`
            : `Scene ${Math.min(total, completedScenes + 1)} of ${total}, frame ${renderedFrames} of ${composition.durationInFrames}${retryNote}`,
          progress: Math.min(95, Math.round(5 + fraction * 90)),
        });
      },
    });

    progress.report(
      { status: "saving", completedScenes: total, currentScene: total, stage: "Saving video", step: "Step 3 of 3: Saving the video", details: "Storing the MP4", progress: 97 },
      true,
    );
    const durationSeconds = composition.durationInFrames / composition.fps;
    const file = await saveMediaFromPath({
      userId: plan.userId,
      projectId: plan.projectId,
      kind: "video",
      sourcePath: output,
      mimeType: "video/mp4",
      extension: "mp4",
      durationSeconds,
      width: composition.width,
      height: composition.height,
    });
    const videoUrl = mediaUrl(file);
    const { count } = await prisma.renderedVideo.updateMany({
      where: { id: plan.renderId },
      data: {
        status: "completed",
        mediaFileId: file.id,
        videoUrl,
        width: composition.width,
        height: composition.height,
        durationSeconds,
        withMusic: !!inputProps.music,
        volumeLevel: inputProps.music ? Math.round(inputProps.music.volume * 100) : null,
        error: null,
        completedAt: new Date(),
      },
    });
    if (count === 0) {
      // the creator deleted the video while it rendered: do not leave an orphaned file behind
      await deleteMedia(file);
      throw inputError("The render was deleted before it finished.");
    }
    return { mediaFileId: file.id, videoUrl, durationSeconds, width: composition.width, height: composition.height };
  } finally {
    ctx.cancellationSignal.removeEventListener("abort", onCancel);
    progress.stop();
    await assets?.close();
    await fsp.rm(workDir, { recursive: true, force: true });
  }
}

/** Marks the render failed with a message the Render page can show. */
export async function recordRenderFailure(input: { renderId: string; message: string }): Promise<void> {
  await prisma.renderedVideo.updateMany({
    where: { id: input.renderId, status: { not: "completed" } },
    data: { status: "error", error: input.message },
  });
}

export type RenderActivities = {
  prepareRenderPlan: typeof prepareRenderPlan;
  renderStoryboardVideo: typeof renderStoryboardVideo;
  recordRenderFailure: typeof recordRenderFailure;
};
