// The render stage's activities: collect the scenes (with their real audio lengths) and choose the renderer,
// render the timeline with the fast renderer (one ffmpeg run, render-fast.ts) or the exact one (Remotion in
// Debian's headless shell), store the MP4 as the project's latest video, or record why it failed.
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pLimit from "p-limit";
import { ApplicationFailure, Context } from "@temporalio/activity";
import { makeCancelSignal, renderMedia, selectComposition } from "@remotion/renderer";
import type { Prisma, StoryboardCell } from "~/generated/prisma/client";
import { getEnv } from "~/core/env.server";
import { prisma } from "~/core/db.server";
import { canUseMusic } from "~/core/permissions.server";
import { pruneProjectVideos } from "../engine/render-cleanup";
import { deleteMedia, findMediaForUser, localMediaSet, mediaIdFromUrl, mediaSize, mediaUrl, saveMediaFromPath, withLocalMediaCopy } from "~/core/storage.server";
import { COMPOSITION_ID, storedWordTimings, storyboardVideoSchema, type StoryboardVideoProps } from "../../app/lib/timeline/video-props";
import { buildTimeline } from "../../app/lib/timeline/timeline";
import { VIDEO_FPS, completedScenesAt, sceneBoundaries, totalDurationInFrames } from "../../app/lib/timeline/timing";
import { renderLengthCapSeconds, renderTooLongMessage } from "~/lib/limits";
import {
  RENDER_INPUT_ERROR,
  renderProgressSignal,
  renderWorkflowId,
  type RenderEngine,
  type RendererChoice,
  type RenderPlan,
  type RenderPlanInput,
  type RenderPlanRef,
  type RenderPlanScene,
  type RenderProgressUpdate,
  type RenderResult,
  type RenderWorkflowInput,
} from "../shared/render";
import { prescaleImage, serveRenderAssets } from "../engine/render-assets";
import { chromiumOptions, getCompositionBundle, renderSettings, withBrowser } from "../engine/render-engine";
import { renderTimelineFast } from "../engine/render-fast";
import { fastRenderDone } from "../engine/render-fast-progress";
import { remotionDeliveryOptions } from "../engine/delivery-encoding";
import { withRenderSlot } from "../engine/render-slots";
import { fastRendererSupport } from "../engine/render-fast-compile";
import { probeDurationSeconds, voiceoverDurationSeconds } from "../engine/render-probe";
import { signalPace } from "../engine/render-signal-pace";
import { normaliseLoudness, storedLoudness, type StoredLoudness } from "../engine/loudness";
import { framesPercent, savingPercent } from "../shared/render-percent";
import { captionTrackCues } from "~/lib/caption-track";
import { recordRender } from "~/core/observability/metrics.server";
import { transitionProps } from "~/lib/transitions";
import { isAiClip } from "~/lib/clip-prices";
import { getTransitions } from "~/core/transitions.server";
import { brandShows, storedBrand } from "~/lib/brand";
import { DEFAULT_CAPTION_STYLE } from "~/lib/caption-style";
import { prepareBrandPictures } from "../engine/render-brand";
import { closeIdleVoicesSoon } from "~/providers/speech/piper-session.server";

export type PlanFileKind = "image" | "audio" | "music" | "clip" | "logo" | "watermark";


/** The composition's props for a plan, with each file's src given by `src` (URLs for Chromium, paths for ffmpeg). */
export function planProps(plan: Omit<RenderPlan, "renderer">, src: (kind: PlanFileKind, index: number) => string): StoryboardVideoProps {
  const brand = plan.brand;
  // the channel's caption font and colour join the project's caption style (decision 249)
  const captionStyle = brand ? { ...(plan.captionStyle ?? DEFAULT_CAPTION_STYLE), font: brand.captionFont, color: brand.captionColor } : plan.captionStyle;
  return storyboardVideoSchema.parse({
    width: plan.width,
    height: plan.height,
    fps: plan.fps,
    captions: plan.captions,
    ...(captionStyle ? { captionStyle } : {}),
    ...(brand && brandShows(brand)
      ? {
          brand: {
            color: brand.color,
            textColor: brand.textColor,
            ...(brand.logoFileId ? { logoSrc: src("logo", 0) } : {}),
            ...(brand.watermark && brand.logoFileId ? { watermarkSrc: src("watermark", 0) } : {}),
            ...(brand.intro !== undefined ? { intro: brand.intro } : {}),
            ...(brand.outro !== undefined ? { outro: brand.outro } : {}),
            cardSeconds: brand.cardSeconds,
          },
        }
      : {}),
    ...(plan.transition ? { transition: plan.transition } : {}),
    scenes: plan.scenes.map((scene, i) => ({
      imageSrc: src("image", i),
      audioSrc: src("audio", i),
      audioDurationInSeconds: scene.audioDurationInSeconds,
      text: scene.text,
      words: scene.words ?? null,
      ...(scene.clip ? { clipSrc: src("clip", i), clipDurationInSeconds: scene.clip.durationInSeconds, ...(scene.clip.fit ? { clipFit: scene.clip.fit } : {}) } : {}),
      ...(scene.transitionIn ? { transitionIn: scene.transitionIn } : {}),
    })),
    music: plan.music ? { src: src("music", 0), volume: plan.music.volume } : null,
  });
}

/** Fast whenever the timeline holds only what the fast renderer draws, unless RENDER_ENGINE says otherwise. */
export function chooseRenderer(plan: Omit<RenderPlan, "renderer">): RendererChoice {
  const setting = getEnv().RENDER_ENGINE;
  if (setting === "exact") return { engine: "exact", reason: "RENDER_ENGINE=exact is set" };
  const support = fastRendererSupport(buildTimeline(planProps(plan, (kind, i) => `${kind}-${i}`)));
  if (support.supported) {
    return { engine: "fast", reason: setting === "fast" ? "RENDER_ENGINE=fast is set" : "the timeline holds only stills, clips, captions and audio, which the fast renderer draws" };
  }
  return { engine: "exact", reason: `${support.reason}${setting === "fast" ? " (RENDER_ENGINE=fast is set, but cannot be followed)" : ""}` };
}

/** Writes which renderer renders (or rendered) the video, and why, on the render's row. */
export async function recordRendererChoice(input: { renderId: string } & RendererChoice): Promise<void> {
  await prisma.renderedVideo.updateMany({ where: { id: input.renderId }, data: { renderer: input.engine, rendererReason: input.reason } });
}

/** Scenes of a render's plan prepared at once (planScenes). */
const SCENE_PLANS_AT_ONCE = 8;

export const inputError = (message: string) => ApplicationFailure.create({ message, type: RENDER_INPUT_ERROR, nonRetryable: true });

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

  const transitions = transitionProps(await getTransitions(project.id), cells.length);
  const scenes = await planScenes(input.userId, cells, transitions.perScene);
  // Bounded work: the video may not run far past the duration the project was created with.
  const videoSeconds = totalDurationInFrames(scenes.map((s) => s.audioDurationInSeconds), VIDEO_FPS) / VIDEO_FPS;
  if (videoSeconds > renderLengthCapSeconds(project.durationSeconds)) throw inputError(renderTooLongMessage(videoSeconds, project.durationSeconds));

  let music: RenderPlan["music"] = null;
  // background music is a premium feature: a free account's render has none (the music screen refuses it too)
  const musicTracks = (await canUseMusic(input.userId)) ? project.musicTracks : [];
  for (const track of musicTracks) {
    const id = track.mediaFileId ?? mediaIdFromUrl(track.audioUrl);
    const file = id ? await findMediaForUser(input.userId, id) : null;
    if (file && (await mediaSize(file)) !== null) {
      music = { fileId: file.id, volume: project.musicVolume / 100 };
      break;
    }
  }
  const brand = storedBrand(project.brand);
  const plan = { ...input, fps: VIDEO_FPS, scenes, music, ...(transitions.transition ? { transition: transitions.transition } : {}), ...(brand ? { brand } : {}) };
  const renderer = chooseRenderer(plan);
  await recordRendererChoice({ renderId: input.renderId, ...renderer });
  return { ...plan, renderer };
}

/**
 * Scenes planned at once, at most SCENE_PLANS_AT_ONCE in flight: each waits mostly on the database and its files
 * (a download with a bucket; ffprobe for a voiceover that is not PCM WAV, decision 287), so one after another a
 * 240-scene plan took 39 s (decision 286).
 * When several scenes are wrong, the error names the first of them, as planning them in turn did.
 */
async function planScenes(userId: string, cells: StoryboardCell[], transitionsIn: RenderPlanScene["transitionIn"][]): Promise<RenderPlanScene[]> {
  const limit = pLimit(SCENE_PLANS_AT_ONCE);
  const settled = await Promise.allSettled(cells.map((cell, i) => limit(() => planScene(userId, cell, i, transitionsIn[i]))));
  const failed = settled.find((s) => s.status === "rejected");
  if (failed) throw failed.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<RenderPlanScene>).value);
}

/**
 * One scene of a render's plan: its image, voiceover (with its measured length), clip, words and transition; a
 * missing or unplayable file is an input error naming the scene.
 */
export async function planScene(userId: string, cell: StoryboardCell, i: number, transitionIn: RenderPlanScene["transitionIn"]): Promise<RenderPlanScene> {
  const image = await requireFile(userId, cell.imageFileId ?? mediaIdFromUrl(cell.imageUrl), `Scene ${i + 1}'s image`);
  const audio = await requireFile(userId, cell.audioFileId ?? mediaIdFromUrl(cell.audioUrl), `Scene ${i + 1}'s voiceover`);
  const audioDurationInSeconds = await withLocalMediaCopy(audio, voiceoverDurationSeconds).catch(() => {
    throw inputError(`Scene ${i + 1}'s voiceover is not a playable audio file. Generate it again on the Storyboard page.`);
  });
  const clipFile = cell.clipFileId ? await requireFile(userId, cell.clipFileId, `Scene ${i + 1}'s clip`) : null;
  // a clip's length as stored when it was converted; measured from the file when a row lacks it (both renderers
  // loop a clip by its length, and the fast one needs it)
  const clipSeconds = clipFile ? (cell.clipDuration ?? clipFile.durationSeconds ?? (await withLocalMediaCopy(clipFile, probeDurationSeconds).catch(() => null))) : null;
  if (clipFile && !(clipSeconds && clipSeconds > 0)) throw inputError(`Scene ${i + 1}'s clip is not a playable video file. Upload it again on the Storyboard page.`);
  // an AI clip is slowed and held to fit its scene, a creator's or stock clip looped (decision 243)
  const clip = clipFile ? { fileId: clipFile.id, durationInSeconds: clipSeconds!, ...(isAiClip(cell.imageMadeBy) ? { fit: "stretch" as const } : {}) } : undefined;
  const words = storedWordTimings(cell.wordTimings);
  return { imageFileId: image.id, audioFileId: audio.id, audioDurationInSeconds, text: cell.voiceoverText, words, ...(clip ? { clip } : {}), ...(transitionIn ? { transitionIn } : {}) };
}

/**
 * The plan as prepareRenderPlan collects it, its scenes kept in the RenderPlan table and the rest returned for the
 * workflow to carry (RenderPlanRef; decision 140). Safe to retry: a second attempt replaces the stored scenes.
 */
export async function prepareStoredRenderPlan(input: RenderWorkflowInput): Promise<RenderPlanRef> {
  const { scenes, ...rest } = await prepareRenderPlan(input);
  const stored = scenes as unknown as Prisma.InputJsonValue;
  await prisma.renderPlan.upsert({ where: { renderId: input.renderId }, create: { renderId: input.renderId, scenes: stored }, update: { scenes: stored } });
  return { ...rest, sceneCount: scenes.length };
}

/** The whole plan: given whole (runs started before plans were stored), or with its scenes read from the RenderPlan table. */
export async function loadRenderPlan(plan: RenderPlanInput): Promise<RenderPlan> {
  if ("scenes" in plan) return plan;
  const stored = await prisma.renderPlan.findUnique({ where: { renderId: plan.renderId }, select: { scenes: true } });
  if (!stored) throw inputError("The render was deleted before it finished.");
  const { sceneCount, ...rest } = plan;
  const scenes = stored.scenes as unknown as RenderPlanScene[];
  if (scenes.length !== sceneCount) throw inputError(`The render's plan holds ${scenes.length} scenes, not ${sceneCount}: start the render again.`);
  return { ...rest, scenes };
}

/** The video's length in seconds, as its scenes' voiceovers make it (near enough for pacing progress signals). */
export const planSeconds = (plan: RenderPlan) => plan.scenes.reduce((sum, s) => sum + s.audioDurationInSeconds, 0);

/**
 * Keeps Temporal told that this attempt is alive (heartbeats) and the workflow told how far it got (signals, paced
 * by the video's length so that a long render's history stays small: render-signal-pace.ts).
 */
export function progressReporter(plan: RenderPlan) {
  const ctx = Context.current();
  const handle = ctx.client.workflow.getHandle(renderWorkflowId(plan.projectId));
  let latest: RenderProgressUpdate = {};
  const pace = signalPace(planSeconds(plan));
  const send = (force: boolean) => {
    ctx.heartbeat(latest);
    if (!pace.due(force)) return;
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

/** Renders the plan with the fast renderer (one ffmpeg run), stores it, makes it the latest video. Safe to retry. */
export async function renderVideoFast(plan: RenderPlanInput): Promise<RenderResult> {
  return renderVideo(await loadRenderPlan(plan), "fast");
}

/** Renders the plan with the exact renderer (Remotion), stores it, makes it the latest video. Safe to retry. */
export async function renderVideoExact(plan: RenderPlanInput): Promise<RenderResult> {
  return renderVideo(await loadRenderPlan(plan), "exact");
}

/** The render before the renderer choice existed: the exact renderer. Kept for runs started by an older worker. */
export async function renderStoryboardVideo(plan: RenderPlanInput): Promise<RenderResult> {
  return renderVideo(await loadRenderPlan(plan), "exact");
}

/** The stored video when an earlier attempt stored it but died before reporting back; throws when the render is gone. */
export async function storedEarlier(plan: Pick<RenderPlan, "renderId" | "width" | "height">): Promise<RenderResult | null> {
  const render = await prisma.renderedVideo.findUnique({ where: { id: plan.renderId } });
  if (!render) throw inputError("The render was deleted before it finished.");
  if (render.status === "completed" && render.mediaFileId && render.videoUrl) {
    return {
      mediaFileId: render.mediaFileId,
      videoUrl: render.videoUrl,
      durationSeconds: render.durationSeconds ?? 0,
      width: render.width ?? plan.width,
      height: render.height ?? plan.height,
    };
  }
  return null;
}

async function renderVideo(plan: RenderPlan, engine: RenderEngine): Promise<RenderResult> {
  const earlier = await storedEarlier(plan);
  if (earlier) return earlier;

  // the scenes are made: a voice silent since gives its memory to the render (decision 296)
  closeIdleVoicesSoon();
  const renderStarted = performance.now();
  const ctx = Context.current();
  const attempt = ctx.info.attempt;
  const total = plan.scenes.length;
  const retryNote = attempt > 1 ? ` (attempt ${attempt}, restarted after an interruption)` : "";
  const progress = progressReporter(plan);
  // One folder per render (the sweeper keeps it while the render is processing) and one inside it per attempt:
  // an earlier attempt that is still winding down on this host (timed out, not yet stopped) cannot delete or
  // overwrite this one's files. What earlier attempts left behind is removed first.
  const renderDir = path.join(os.tmpdir(), `reelsmith-render-${plan.renderId}`);
  const workDir = path.join(renderDir, `attempt-${attempt}`);
  for (const name of await fsp.readdir(renderDir).catch(() => [] as string[])) {
    if (name !== path.basename(workDir)) await fsp.rm(path.join(renderDir, name), { recursive: true, force: true });
  }
  await fsp.mkdir(workDir, { recursive: true });
  const { cancelSignal, cancel } = makeCancelSignal();
  const abort = new AbortController();
  const onCancel = () => {
    cancel();
    abort.abort();
  };
  ctx.cancellationSignal.addEventListener("abort", onCancel);
  let assets: Awaited<ReturnType<typeof serveRenderAssets>> | undefined;
  // the scene files as local paths (copies in this worker's scratch folder when media is in a bucket)
  const media = localMediaSet();
  const boundaries = sceneBoundaries(
    plan.scenes.map((s) => s.audioDurationInSeconds),
    plan.fps,
  );
  // `share`: how much of the render is done (the fast renderer counts its caption drawing too)
  const framesDone = (frame: number, of: number, encoding: boolean, share = frame / Math.max(1, of)) => {
    const completedScenes = completedScenesAt(boundaries, frame);
    progress.report({
      status: "rendering",
      completedScenes,
      currentScene: Math.min(total, completedScenes + 1),
      stage: encoding ? "Encoding video" : "Rendering scenes",
      step: encoding ? "Step 2 of 3: Encoding the MP4" : "Step 2 of 3: Rendering frames",
      details: `Scene ${Math.min(total, completedScenes + 1)} of ${total}, frame ${Math.min(frame, of)} of ${of} (${engine} renderer)${retryNote}`,
      progress: framesPercent(share, engine),
    });
  };

  try {
    // one render per two cores on this worker (render-slots.ts); the rest wait here, heartbeating
    return await withRenderSlot(
      async () => {
        progress.report(
          {
            status: "preparing",
            attempt,
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
        const names: Record<PlanFileKind, string[]> = { image: [], audio: [], music: [], clip: [], logo: [], watermark: [] };
        for (const [i, scene] of plan.scenes.entries()) {
          const image = await findMediaForUser(plan.userId, scene.imageFileId);
          const audio = await findMediaForUser(plan.userId, scene.audioFileId);
          if (!image || !audio) throw inputError(`Scene ${i + 1}'s media was deleted during the render. Generate it again.`);
          const scaled = path.join(workDir, `scene-${i + 1}.png`);
          await withLocalMediaCopy(image, (source) => prescaleImage(source, scaled, plan.width, plan.height));
          names.image.push(`scene-${i + 1}.png`);
          files.set(`scene-${i + 1}.png`, scaled);
          const voice = `voiceover-${i + 1}${path.extname(audio.storageKey)}`;
          names.audio.push(voice);
          files.set(voice, await media.path(audio));
          if (scene.clip) {
            const clip = await findMediaForUser(plan.userId, scene.clip.fileId);
            if (!clip) throw inputError(`Scene ${i + 1}'s clip was deleted during the render. Upload it again.`);
            files.set(`clip-${i + 1}.mp4`, await media.path(clip));
          }
          names.clip.push(`clip-${i + 1}.mp4`);
        }
        const musicFile = plan.music ? await findMediaForUser(plan.userId, plan.music.fileId) : null;
        if (musicFile) {
          names.music.push(`music${path.extname(musicFile.storageKey)}`);
          files.set(names.music[0]!, await media.path(musicFile));
        }
        // the channel's logo (decision 249): a small PNG for the cards, and the watermark sized to its square and faded
        let brand = plan.brand;
        const logoFile = brand?.logoFileId ? await findMediaForUser(plan.userId, brand.logoFileId) : null;
        if (brand?.logoFileId && !logoFile) {
          const { logoFileId: _gone, ...rest } = brand;
          brand = { ...rest, watermark: false };
        }
        if (logoFile) {
          const pictures = await prepareBrandPictures(await media.path(logoFile), workDir, plan.width, plan.height, !!brand?.watermark);
          names.logo.push("logo.png");
          files.set("logo.png", pictures.logo);
          if (pictures.watermark) {
            names.watermark.push("watermark.png");
            files.set("watermark.png", pictures.watermark);
          }
        }
        const available = { ...plan, music: musicFile ? plan.music : null, ...(brand ? { brand } : {}) };
        // the video's frames, the brand's cards included
        const videoFrames = buildTimeline(planProps(available, (kind, i) => `${kind}-${i}`)).durationInFrames;
        // the fast renderer's sound stays PCM (in a .mov, which keeps the picture's time base) until the loudness
        // step encodes it: once, not twice (decision 192); Remotion's MP4 carries the delivery's AAC
        const output = path.join(workDir, engine === "fast" ? "video.mov" : "video.mp4");

        if (engine === "fast") {
          const timeline = buildTimeline(planProps(available, (kind, i) => files.get(names[kind][i]!)!));
          progress.report({ details: `Drawing ${timeline.overlays.length} caption lines (fast renderer)${retryNote}`, progress: 4 });
          const done = fastRenderDone();
          await renderTimelineFast({
            timeline,
            workDir,
            output,
            audioFormat: "pcm",
            signal: abort.signal,
            onProgress: (p) => {
              const share = done(p);
              if (p.phase === "encoding") framesDone(p.frame, p.total, false, share);
              else progress.report({ details: `Drawing caption ${p.done} of ${p.total} (fast renderer)${retryNote}`, progress: framesPercent(share, engine) });
            },
          });
        } else {
          assets = await serveRenderAssets(files);
          const inputProps = planProps(available, (kind, i) => assets!.urlFor(names[kind][i]!));
          progress.report({ details: `Loading the video composition (exact renderer)${retryNote}`, progress: 4 });
          const serveUrl = await getCompositionBundle();
          const chromium = chromiumOptions();
          await withBrowser(async (browser) => {
            const composition = await selectComposition({ serveUrl, id: COMPOSITION_ID, inputProps, logLevel: "error", puppeteerInstance: browser, ...chromium });
            await renderMedia({
              serveUrl,
              composition,
              inputProps,
              outputLocation: output,
              ...chromium,
              ...renderSettings(),
              ...remotionDeliveryOptions(plan),
              puppeteerInstance: browser,
              cancelSignal,
              logLevel: "error",
              onProgress: ({ renderedFrames, encodedFrames, stitchStage }) => {
                const encoding = stitchStage === "muxing" || renderedFrames >= composition.durationInFrames;
                framesDone(encoding ? encodedFrames : renderedFrames, composition.durationInFrames, encoding);
              },
            });
          });
        }

        const saving = { status: "saving", completedScenes: total, currentScene: total, stage: "Saving video", step: "Step 3 of 3: Saving the video" } as const;
        progress.report({ ...saving, details: "Bringing the sound to -14 LUFS", progress: savingPercent(0, engine) }, true);
        const stored = await storeRenderedVideo({
          plan,
          output,
          engine,
          durationInFrames: videoFrames,
          music: available.music,
          signal: abort.signal,
          // the loudness step is most of the save step; storing the MP4 the last few seconds
          onLoudnessProgress: (done) => progress.report({ details: done < 1 ? "Bringing the sound to -14 LUFS" : "Storing the MP4", progress: savingPercent(done * 0.9, engine) }, done === 1),
        });
        // render seconds per second of video, by renderer (issue 54)
        recordRender(engine, (performance.now() - renderStarted) / 1000, stored.durationSeconds);
        return stored;
      },
      {
        signal: abort.signal,
        onWait: (ahead) =>
          progress.report(
            { status: "preparing", stage: "Waiting for a free render slot...", step: "Queued", details: `${ahead} render${ahead === 1 ? "" : "s"} ahead of this one on the worker${retryNote}`, progress: 1 },
            true,
          ),
      },
    );
  } finally {
    ctx.cancellationSignal.removeEventListener("abort", onCancel);
    progress.stop();
    await assets?.close();
    media.release();
    await fsp.rm(workDir, { recursive: true, force: true });
    // the render's folder goes with its last attempt (a newer attempt's folder keeps it)
    await fsp.rmdir(renderDir).catch(() => {});
  }
}

/**
 * Brings the finished video at `output` (an MP4, or the fast renderer's .mov with PCM sound) to the platform's
 * loudness as an MP4 (unless `loudness` says it is there already), stores it as the render's video, marks the render
 * completed and prunes the project's older videos (decision 051). Used by the one-piece renders and by a chunked
 * render's join.
 */
export async function storeRenderedVideo(options: {
  plan: RenderPlan;
  output: string;
  engine: RenderEngine;
  durationInFrames: number;
  music: RenderPlan["music"];
  signal?: AbortSignal;
  /**
   * The sound is at the platform's loudness already, with these figures (a chunked render's sound, normalised
   * before the join): the MP4 is stored as it is.
   */
  loudness?: StoredLoudness;
  /** How far the loudness step is (0 to 1): 1 once the sound is at the platform's loudness, before the MP4 is stored. */
  onLoudnessProgress?: (done: number) => void;
}): Promise<RenderResult> {
  const { plan, output, engine, music } = options;
  const durationSeconds = options.durationInFrames / plan.fps;
  // the mix to the platform's loudness, picture copied (decision 190); then the MP4 is stored
  let delivered = output;
  let loudness = options.loudness;
  if (!loudness) {
    delivered = path.join(path.dirname(output), "delivered.mp4");
    loudness = storedLoudness(await normaliseLoudness(output, delivered, options.signal, undefined, options.onLoudnessProgress));
  } else options.onLoudnessProgress?.(1);
  const file = await saveMediaFromPath({
    userId: plan.userId,
    projectId: plan.projectId,
    kind: "video",
    sourcePath: delivered,
    mimeType: "video/mp4",
    extension: "mp4",
    durationSeconds,
    width: plan.width,
    height: plan.height,
  });
  const videoUrl = mediaUrl(file);
  const { count } = await prisma.renderedVideo.updateMany({
    where: { id: plan.renderId },
    data: {
      status: "completed",
      mediaFileId: file.id,
      videoUrl,
      width: plan.width,
      height: plan.height,
      durationSeconds,
      withMusic: !!music,
      volumeLevel: music ? Math.round(music.volume * 100) : null,
      renderer: engine,
      ...loudness,
      // the caption track (SRT, WebVTT, YouTube's captions.insert) from the same word timings as the video
      captionCues: captionTrackCues(plan.scenes, plan.fps),
      error: null,
      completedAt: new Date(),
    },
  });
  if (count === 0) {
    // the creator deleted the video while it rendered: do not leave an orphaned file behind
    await deleteMedia(file);
    throw inputError("The render was deleted before it finished.");
  }
  // the project keeps its latest videos only (never one an upload uses): decision 051
  await pruneProjectVideos(plan.projectId).catch((e: unknown) => console.error(`render: pruning older videos of ${plan.projectId} failed:`, e));
  return { mediaFileId: file.id, videoUrl, durationSeconds, width: plan.width, height: plan.height };
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
  prepareStoredRenderPlan: typeof prepareStoredRenderPlan;
  renderVideoFast: typeof renderVideoFast;
  renderVideoExact: typeof renderVideoExact;
  renderStoryboardVideo: typeof renderStoryboardVideo;
  recordRendererChoice: typeof recordRendererChoice;
  recordRenderFailure: typeof recordRenderFailure;
};
