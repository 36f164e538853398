// Activities of the make-video workflow (issue 32): the bookkeeping around each stage's child workflow. Each
// prepare* does for the child what the stage's page does before it starts the same workflow (the row marked
// processing, a render row, a music track row, an upload row), so the pages show the stage while it runs; the
// run's VideoRun row records the stage, the percent, the error in words and, at the end, the links.
import { ApplicationFailure } from "@temporalio/activity";
import type { Prisma } from "~/generated/prisma/client";
import { withFooter } from "~/lib/channel";
import { allScenesHaveMedia } from "~/lib/storyboard";
import { prisma } from "~/core/db.server";
import { checkedOwnScript, writeOwnScript } from "~/core/own-script.server";
import { canUseMusic } from "~/core/permissions.server";
import { startRenderRow } from "~/core/render-input.server";
import { startScriptRow } from "~/core/script-input.server";
import { thumbnailInputFor } from "~/core/thumbnail-input.server";
import { startUploadRow, videoToUpload } from "~/core/upload-input.server";
import { isRefusal } from "~/core/refusal.server";
import { refusalFailure } from "../worker-refusals";
import { emitWebhookEvent } from "~/core/webhooks.server";
import type { WebhookEvent } from "../shared/webhooks";
import type { GenerateAllProgress } from "../shared/scene-media";
import { MAKE_VIDEO_INPUT_ERROR, MAKE_VIDEO_STAGES, type MakeVideoOptions, type MakeVideoResult, type MakeVideoStage, type MakeVideoStageState, type MakeVideoTuning } from "../shared/make-video";
import { DEFAULT_MUSIC_POLL_INTERVAL_MS, musicTracksWorkflowId, type BackgroundMusicInput, type MusicTracksInput } from "../shared/music";
import type { RenderWorkflowInput } from "../shared/render";
import type { ScriptWorkflowInput } from "../shared/script";
import { storyboardWorkflowId } from "../shared/storyboard";
import type { ThumbnailWorkflowInput } from "../shared/thumbnail";
import { youtubeWatchUrl, type YoutubeUploadInput } from "../shared/youtube-upload";

/** The longest music a run asks for (the music page's cap): longer videos loop it. */
const MUSIC_TRACK_MAX_SECONDS = 180;

const inputError = (message: string) => ApplicationFailure.nonRetryable(message, MAKE_VIDEO_INPUT_ERROR);

type RunRef = { runId: string; userId: string; projectId: string };

async function runAndProject({ runId, userId, projectId }: RunRef) {
  const run = await prisma.videoRun.findFirst({ where: { id: runId, userId, projectId } });
  if (!run) throw inputError("This video's run no longer exists (it was deleted).");
  const project = await prisma.project.findFirst({ where: { id: projectId, userId } });
  if (!project) throw inputError("This video's project no longer exists (it was deleted).");
  return { run, project, options: run.options as unknown as MakeVideoOptions };
}

export type MakeVideoPlan = {
  title: string;
  /** Stages already done (a retry skips them) or not asked for (no music, no upload). */
  skip: Partial<Record<MakeVideoStage, "done" | "not asked">>;
  ownScript: boolean;
};

export function createMakeVideoActivities() {
  return {
    /** Marks the run running and says which stages are done already or not wanted. */
    async planMakeVideo(ref: RunRef): Promise<MakeVideoPlan> {
      const { project, options } = await runAndProject(ref);
      const [script, storyboard, cells, track, video, thumbnail, upload] = await Promise.all([
        prisma.script.findUnique({ where: { projectId: project.id }, select: { status: true } }),
        prisma.storyboard.findUnique({ where: { projectId: project.id }, select: { status: true } }),
        prisma.storyboardCell.findMany({ where: { storyboard: { projectId: project.id } }, select: { imageUrl: true, audioUrl: true } }),
        prisma.musicTrack.findFirst({ where: { projectId: project.id, status: "completed" }, select: { id: true } }),
        prisma.renderedVideo.findFirst({ where: { projectId: project.id, status: "completed", baseVideoId: null }, orderBy: { createdAt: "desc" }, select: { withMusic: true } }),
        prisma.thumbnail.findFirst({ where: { projectId: project.id, approved: true }, select: { id: true } }),
        prisma.youtubeUpload.findFirst({ where: { projectId: project.id, status: "completed" }, select: { id: true } }),
      ]);
      const skip: MakeVideoPlan["skip"] = {};
      if (script?.status === "completed") skip.script = "done";
      if (storyboard?.status === "completed" && cells.length) skip.storyboard = "done";
      if (cells.length && allScenesHaveMedia(cells)) skip.media = "done";
      if (!options.music) skip.music = skip.mix = "not asked";
      else if (track) skip.music = "done";
      if (video) skip.render = "done";
      if (options.music && video?.withMusic) skip.mix = "done";
      if (thumbnail) skip.thumbnail = "done";
      if (!options.upload) skip.upload = "not asked";
      else if (upload) skip.upload = "done";
      await prisma.videoRun.update({ where: { id: ref.runId }, data: { status: "running", error: null, completedAt: null } });
      return { title: project.title, skip, ownScript: Boolean(options.script) };
    },

    /** The run reached a stage: the row says so (every door reads it). */
    async recordMakeVideoStage(input: { runId: string; stage: MakeVideoStage | "done"; percent: number }): Promise<void> {
      await prisma.videoRun.updateMany({ where: { id: input.runId, status: "running" }, data: { stage: input.stage, percent: input.percent } });
    },

    /**
     * The script stage. The creator's own script is saved word for word (issue 33's saveOwnScript) and null is
     * returned: nothing to write. Otherwise the row is marked processing, as /script does, and the input returned.
     */
    async prepareScriptStage(ref: RunRef): Promise<ScriptWorkflowInput | null> {
      const { project, options } = await runAndProject(ref);
      if (options.script) {
        let text: string;
        try {
          text = checkedOwnScript(options.script);
        } catch (e) {
          if (isRefusal(e)) throw refusalFailure(e, MAKE_VIDEO_INPUT_ERROR);
          throw e;
        }
        // the run owns its project: no draft of its own is being written, and its scenes are not split yet
        await writeOwnScript(project, text);
        return null;
      }
      return (await startScriptRow(ref.userId, project)).input;
    },

    /** The storyboard row marked processing, as /storyboard does before it starts the split. */
    async prepareStoryboardStage(ref: RunRef): Promise<void> {
      const { project } = await runAndProject(ref);
      const workflowId = storyboardWorkflowId(project.id);
      await prisma.storyboard.upsert({
        where: { projectId: project.id },
        create: { projectId: project.id, title: project.title, status: "processing", workflowId },
        update: { title: project.title, status: "processing", error: null, workflowId },
      });
    },

    /** After Generate All: every scene must have its picture and voiceover, else the stage failed, said in words. */
    async checkSceneMedia(input: RunRef & { summary: GenerateAllProgress }): Promise<void> {
      const cells = await prisma.storyboardCell.findMany({ where: { storyboard: { projectId: input.projectId } }, select: { imageUrl: true, audioUrl: true } });
      if (cells.length && allScenesHaveMedia(cells)) return;
      const missing = cells.filter((c) => !c.imageUrl || !c.audioUrl).length;
      const first = input.summary.failures[0];
      const reason = first ? ` Scene ${first.cellIndex + 1}'s ${first.kind}: ${first.message}` : "";
      throw ApplicationFailure.nonRetryable(`${missing} of ${cells.length} scenes have no picture or voiceover.${reason}`, "SceneMediaMissing");
    },

    /** One pending music track, as the Music page's Generate makes it. */
    async prepareMusicStage(input: RunRef & { tuning?: MakeVideoTuning }): Promise<{ workflowId: string; input: MusicTracksInput }> {
      const { project, options } = await runAndProject(input);
      if (!(await canUseMusic(input.userId))) throw inputError("Background music is a Premium feature; this account no longer has it.");
      const prompt = options.musicPrompt ?? `Calm instrumental background music for a video about ${project.topic}`.slice(0, 500);
      const track = await prisma.musicTrack.create({ data: { projectId: project.id, prompt, status: "pending" } });
      const workflowId = musicTracksWorkflowId(project.id, track.id);
      await prisma.musicTrack.update({ where: { id: track.id }, data: { workflowId } });
      return {
        workflowId,
        input: {
          userId: input.userId,
          projectId: project.id,
          trackIds: [track.id],
          prompt,
          trackCount: 1,
          durationSeconds: Math.min(MUSIC_TRACK_MAX_SECONDS, project.durationSeconds),
          pollIntervalMs: input.tuning?.musicPollIntervalMs ?? DEFAULT_MUSIC_POLL_INTERVAL_MS,
        },
      };
    },

    /** A render row at the chosen quality (the plan's best HD by default) with the project's caption style. */
    async prepareRenderStage(input: RunRef & { tuning?: MakeVideoTuning }): Promise<RenderWorkflowInput> {
      const { project, options } = await runAndProject(input);
      // as the render page: a quality above the plan (it may have changed since the run began) is refused in the
      // same words, a non-retryable failure (workflows/worker-refusals.ts), never lowered in silence
      try {
        return await startRenderRow(input.userId, project, options.quality, input.tuning?.renderSize);
      } catch (e) {
        if (isRefusal(e)) throw refusalFailure(e, MAKE_VIDEO_INPUT_ERROR);
        throw e;
      }
    },

    /** The mix, when the latest render lacks the music (the render mixes a finished track in itself). null: nothing to mix. */
    async prepareMixStage(ref: RunRef): Promise<BackgroundMusicInput | null> {
      const { project } = await runAndProject(ref);
      const latest = await prisma.renderedVideo.findFirst({ where: { projectId: project.id, status: "completed" }, orderBy: { createdAt: "desc" }, select: { withMusic: true } });
      if (!latest || latest.withMusic) return null;
      return { userId: ref.userId, projectId: project.id, volumeLevel: project.musicVolume };
    },

    /** The thumbnail over the first scene's picture, with the run's words, in the creator's preferred font. */
    async prepareThumbnailStage(ref: RunRef): Promise<ThumbnailWorkflowInput> {
      const { project, options } = await runAndProject(ref);
      const cell = await prisma.storyboardCell.findFirst({
        where: { storyboard: { projectId: project.id }, imageUrl: { not: null } },
        orderBy: { cellIndex: "asc" },
        select: { cellIndex: true, imageUrl: true },
      });
      if (!cell?.imageUrl) throw inputError("No scene has a picture to make the thumbnail from.");
      return thumbnailInputFor(ref.userId, project.id, { imageUrl: cell.imageUrl, cellIndex: cell.cellIndex, title: options.thumbnailText });
    },

    /** The made thumbnail becomes the project's approved one (the upload sets it on the video). */
    async approveRunThumbnail(input: RunRef & { thumbnailId: string }): Promise<void> {
      const thumbnail = await prisma.thumbnail.findFirst({ where: { id: input.thumbnailId, projectId: input.projectId, project: { userId: input.userId } } });
      if (!thumbnail) throw inputError("The thumbnail just made is gone.");
      await prisma.$transaction([
        prisma.thumbnail.updateMany({ where: { projectId: input.projectId, approved: true, NOT: { id: thumbnail.id } }, data: { approved: false } }),
        prisma.thumbnail.update({ where: { id: thumbnail.id }, data: { approved: true } }),
      ]);
    },

    /** The script's text, for the upload's description and tags. */
    async scriptTextOf(ref: RunRef): Promise<{ title: string; script: string; language: string }> {
      const { project } = await runAndProject(ref);
      const script = await prisma.script.findUnique({ where: { projectId: project.id }, select: { text: true } });
      return { title: project.title, script: (script?.text ?? project.topic).slice(0, 20_000), language: project.language };
    },

    /** The upload row, as /upload makes it: the newest video, the approved thumbnail, scheduled when publishAt is set. */
    async prepareUploadStage(input: RunRef & { description: string; tags: string[] }): Promise<YoutubeUploadInput> {
      const { run, project, options } = await runAndProject(input);
      let video;
      try {
        video = await videoToUpload(project.id);
      } catch (e) {
        if (isRefusal(e)) throw refusalFailure(e, MAKE_VIDEO_INPUT_ERROR);
        throw e;
      }
      // a retry of this activity (its first attempt made the row, then its answer was lost) takes the row this run
      // made, instead of leaving it "processing" for ever beside a second one
      const made = await prisma.youtubeUpload.findFirst({
        where: { projectId: project.id, videoId: video.id, status: "processing", youtubeVideoId: null, createdAt: { gte: run.createdAt } },
        orderBy: { createdAt: "desc" },
        select: { id: true },
      });
      if (made) return { uploadId: made.id, userId: input.userId, projectId: project.id };
      const thumbnail = await prisma.thumbnail.findFirst({ where: { projectId: project.id, approved: true }, orderBy: { createdAt: "desc" } });
      return startUploadRow(input.userId, project.id, video, {
        title: project.title,
        description: withFooter(input.description, options.descriptionFooter, options.hashtags),
        tags: input.tags,
        categoryId: options.youtubeCategoryId,
        privacyStatus: options.privacyStatus,
        publishAt: options.publishAt ?? null,
        thumbnailUrl: thumbnail?.thumbnailUrl ?? null,
      });
    },

    /** The run's end: its row completed with links (the newest video, the approved thumbnail, the upload), or failed in words. */
    async finishMakeVideo(input: RunRef & { outcome: "completed" | "failed" | "cancelled"; stage: MakeVideoStage | "done"; error?: string | null; percent: number; stages?: MakeVideoStageState[] }): Promise<MakeVideoResult> {
      const [video, thumbnail, upload] = await Promise.all([
        prisma.renderedVideo.findFirst({ where: { projectId: input.projectId, status: "completed", videoUrl: { not: null } }, orderBy: { createdAt: "desc" }, select: { videoUrl: true } }),
        prisma.thumbnail.findFirst({ where: { projectId: input.projectId, approved: true }, orderBy: { createdAt: "desc" }, select: { thumbnailUrl: true } }),
        prisma.youtubeUpload.findFirst({ where: { projectId: input.projectId, status: "completed", youtubeVideoId: { not: null } }, orderBy: { createdAt: "desc" }, select: { youtubeVideoId: true } }),
      ]);
      const links = { videoUrl: video?.videoUrl ?? null, thumbnailUrl: thumbnail?.thumbnailUrl ?? null, youtubeUrl: upload?.youtubeVideoId ? youtubeWatchUrl(upload.youtubeVideoId) : null };
      await prisma.videoRun.updateMany({
        where: { id: input.runId, userId: input.userId },
        data: {
          status: input.outcome,
          stage: input.stage,
          percent: input.outcome === "completed" ? 100 : input.percent,
          error: input.outcome === "completed" ? null : (input.error ?? null),
          completedAt: new Date(),
          ...links,
          ...(input.stages ? { stageTimes: (await keptStageTimes(input.runId, input.stages)) as unknown as Prisma.InputJsonValue } : {}),
        },
      });
      return { videoUrl: links.videoUrl ?? "", thumbnailUrl: links.thumbnailUrl, youtubeUrl: links.youtubeUrl };
    },

    /** Records the event for each of the user's webhook endpoints; the workflow then delivers each (their ids). */
    async queueVideoEvent(input: RunRef & { event: WebhookEvent }): Promise<string[]> {
      const run = await prisma.videoRun.findFirst({ where: { id: input.runId, userId: input.userId } });
      if (!run) return [];
      const options = run.options as unknown as MakeVideoOptions;
      const base = `/api/v1/videos/${run.id}`;
      return emitWebhookEvent(input.userId, input.event, {
        id: run.id,
        projectId: run.projectId,
        title: options.title,
        status: run.status,
        stage: run.stage,
        error: run.error,
        links: { video: run.videoUrl ? `${base}/video` : null, thumbnail: run.thumbnailUrl ? `${base}/thumbnail` : null, youtube: run.youtubeUrl },
      });
    },
  };
}

export type MakeVideoActivities = ReturnType<typeof createMakeVideoActivities>;
export { MAKE_VIDEO_STAGES };

/**
 * The stages as the run ended, for the progress every door shows once the workflow is gone (decision 262). A stage
 * this run skipped as done keeps the times an earlier run of the same video recorded for it (a publish after the render).
 */
async function keptStageTimes(runId: string, stages: MakeVideoStageState[]): Promise<MakeVideoStageState[]> {
  const row = await prisma.videoRun.findUnique({ where: { id: runId }, select: { stageTimes: true } });
  const before = Array.isArray(row?.stageTimes) ? (row.stageTimes as unknown as MakeVideoStageState[]) : [];
  return stages.map((s) => {
    if (s.state !== "done" || s.startedAt != null) return s;
    const earlier = before.find((b) => b.stage === s.stage && b.state === "done" && b.startedAt != null);
    return earlier ? { ...s, startedAt: earlier.startedAt, endedAt: earlier.endedAt ?? null } : s;
  });
}
