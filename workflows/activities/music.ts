// The music stage's activities: start a generation with the creator's music provider (Suno with a key, the
// offline composer otherwise), poll it and store each finished track, and mix a track into the latest video
// (audio only, the video stream copied). Made by a factory so tests can hand in providers of their own.
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ApplicationFailure, Context } from "@temporalio/activity";
import type { Providers } from "~/providers/index.server";
import type { MusicTaskStatus } from "~/providers/types";
import { prisma } from "~/core/db.server";
import { canUseMusic, LIMIT_MESSAGES } from "~/core/permissions.server";
import { deleteVideoUnlessInUse, pruneProjectVideos } from "../engine/render-cleanup";
import { deleteMedia, findMediaForUser, localMediaSet, mediaIdFromUrl, mediaSize, mediaUrl, saveMedia, saveMediaFromPath } from "~/core/storage.server";
import { sceneBoundaries, VIDEO_FPS } from "../../app/lib/timeline/timing";
import {
  backgroundMusicProgressSignal,
  backgroundMusicWorkflowId,
  MUSIC_INPUT_ERROR,
  type BackgroundMusicInput,
  type BackgroundMusicProgress,
  type BackgroundMusicResult,
  type MusicTracksInput,
} from "../shared/music";
import { withHeartbeat } from "../shared/heartbeat";
import { mixMusicIntoVideo, type VoiceSource } from "../engine/music-mix";
import { normaliseLoudness, storedLoudness } from "../engine/loudness";
import { requireProjectOwner } from "./ownership";
import { asActivityFailure, providersForUser } from "./providers";
import { probeDurationSeconds } from "../engine/render-probe";

export type MusicActivityDeps = { providersFor: (userId: string) => Promise<Pick<Providers, "music">> };

const defaultDeps: MusicActivityDeps = { providersFor: providersForUser };

const inputError = (message: string) => ApplicationFailure.create({ message, type: MUSIC_INPUT_ERROR, nonRetryable: true });

const EXTENSIONS: Record<string, string> = { "audio/wav": "wav", "audio/x-wav": "wav", "audio/mpeg": "mp3", "audio/mp3": "mp3", "audio/ogg": "ogg", "audio/mp4": "m4a" };

export type PollOutcome = { status: MusicTaskStatus; error: string | null };

async function requireMusicAllowed(userId: string) {
  if (!(await canUseMusic(userId))) throw inputError(LIMIT_MESSAGES.music);
}

export function createMusicActivities(deps: MusicActivityDeps = defaultDeps) {
  return {
    /** Submits the generation; the rows stay pending, now with the provider's task id. */
    async startMusicGeneration(
      input: Pick<MusicTracksInput, "userId" | "projectId" | "trackIds" | "prompt" | "trackCount" | "durationSeconds">,
    ): Promise<{ taskId: string; source: "cloud" | "offline" }> {
      await requireProjectOwner(input.userId, input.projectId);
      await requireMusicAllowed(input.userId);
      const { music } = await deps.providersFor(input.userId);
      try {
        const { taskId } = await withHeartbeat(() =>
          music.startGeneration({
            prompt: input.prompt,
            trackCount: input.trackCount,
            durationSeconds: input.durationSeconds,
            seed: `${input.projectId}:${input.trackIds[0]}`,
          }),
        );
        await prisma.musicTrack.updateMany({ where: { id: { in: input.trackIds } }, data: { externalTaskId: taskId } });
        return { taskId, source: music.source };
      } catch (e) {
        throw asActivityFailure(e);
      }
    },

    /**
     * Asks the provider how the task is going and writes it to the rows: pending or processing while it runs,
     * completed with title, audio file and duration, or error with the provider's reason. The offline composer
     * renders while it is polled, so its rows are processing during that and the activity heartbeats.
     */
    async pollMusicGeneration(input: { userId: string; projectId: string; trackIds: string[]; taskId: string }): Promise<PollOutcome> {
      await requireProjectOwner(input.userId, input.projectId);
      const rows = await prisma.musicTrack.findMany({ where: { id: { in: input.trackIds }, projectId: input.projectId } });
      const open = input.trackIds.filter((id) => rows.some((r) => r.id === id && (r.status === "pending" || r.status === "processing")));
      if (open.length === 0) return { status: "completed", error: null }; // deleted meanwhile, or stored by an earlier attempt
      const { music } = await deps.providersFor(input.userId);
      const ctx = Context.current();
      if (music.source === "offline") {
        await prisma.musicTrack.updateMany({ where: { id: { in: open }, status: "pending" }, data: { status: "processing" } });
      }
      try {
        const result = await withHeartbeat(() => music.poll(input.taskId, { onProgress: (fraction) => ctx.heartbeat({ fraction }) }));
        if (result.status === "pending" || result.status === "processing") {
          await prisma.musicTrack.updateMany({ where: { id: { in: open }, status: { in: ["pending", "processing"] } }, data: { status: result.status } });
          return { status: result.status, error: null };
        }
        if (result.status === "error") {
          const error = result.error || "Failed to generate music";
          await prisma.musicTrack.updateMany({ where: { id: { in: open } }, data: { status: "error", error } });
          return { status: "error", error };
        }
        for (const [i, trackId] of input.trackIds.entries()) {
          if (!open.includes(trackId)) continue;
          const track = result.tracks[i];
          if (!track?.audio) {
            await prisma.musicTrack.updateMany({ where: { id: trackId }, data: { status: "error", error: `${music.name} sent no audio for track ${i + 1}` } });
            continue;
          }
          const mimeType = track.mimeType ?? "audio/mpeg";
          const file = await saveMedia({
            userId: input.userId,
            projectId: input.projectId,
            kind: "music",
            data: track.audio,
            mimeType,
            extension: EXTENSIONS[mimeType] ?? "mp3",
            durationSeconds: track.durationSeconds,
          });
          const { count } = await prisma.musicTrack.updateMany({
            where: { id: trackId },
            data: { status: "completed", title: track.title, audioUrl: mediaUrl(file), mediaFileId: file.id, duration: track.durationSeconds, error: null },
          });
          // the creator deleted the track while it was made: keep no orphaned file
          if (count === 0) await deleteMedia(file);
        }
        return { status: "completed", error: null };
      } catch (e) {
        throw asActivityFailure(e);
      }
    },

    /** Marks the run's unfinished tracks as failed, with the reason the creator sees. */
    async markMusicTracksFailed(input: { trackIds: string[]; error: string }): Promise<void> {
      await prisma.musicTrack.updateMany({
        where: { id: { in: input.trackIds }, status: { in: ["pending", "processing"] } },
        data: { status: "error", error: input.error },
      });
    },

    /** Mixes the chosen completed track into the project's latest render and stores the result as the latest video. */
    async mixBackgroundMusic(input: BackgroundMusicInput): Promise<BackgroundMusicResult> {
      await requireProjectOwner(input.userId, input.projectId);
      await requireMusicAllowed(input.userId);
      const ctx = Context.current();
      const handle = ctx.client.workflow.getHandle(backgroundMusicWorkflowId(input.projectId));
      const report = (update: Partial<BackgroundMusicProgress>) => {
        ctx.heartbeat(update);
        handle.signal(backgroundMusicProgressSignal, update).catch(() => {});
      };

      const base = await prisma.renderedVideo.findFirst({
        where: { projectId: input.projectId, status: "completed", baseVideoId: null, videoUrl: { not: null } },
        orderBy: { createdAt: "desc" },
      });
      const baseFileId = base ? (base.mediaFileId ?? mediaIdFromUrl(base.videoUrl)) : null;
      const baseFile = baseFileId ? await findMediaForUser(input.userId, baseFileId) : null;
      if (!base || !baseFile || (await mediaSize(baseFile)) === null) {
        throw inputError("There is no rendered video to add music to. Render the video on the Render page first.");
      }
      const track = await prisma.musicTrack.findFirst({
        where: { projectId: input.projectId, status: "completed", ...(input.trackId ? { id: input.trackId } : {}) },
        orderBy: { updatedAt: "desc" },
      });
      const trackFileId = track ? (track.mediaFileId ?? mediaIdFromUrl(track.audioUrl)) : null;
      const trackFile = trackFileId ? await findMediaForUser(input.userId, trackFileId) : null;
      if (!track || !trackFile || (await mediaSize(trackFile)) === null) {
        throw inputError(input.trackId ? "That music track is not ready or no longer exists." : "No completed music track yet. Generate music first.");
      }

      // local paths for ffmpeg: copies in this worker's scratch folder when media is in a bucket
      const media = localMediaSet();
      const abort = new AbortController();
      const onCancel = () => abort.abort();
      ctx.cancellationSignal.addEventListener("abort", onCancel);
      let workDir: string | undefined;
      try {
        const voice = base.withMusic ? await voiceFromScenes(input.userId, input.projectId, media) : ({ kind: "video" } as const);
        report({ status: "mixing", percent: 5, stage: `Mixing "${track.title ?? "Untitled Track"}" at ${input.volumeLevel}%` });
        workDir = await fsp.mkdtemp(path.join(os.tmpdir(), "reelsmith-music-mix-"));
        // the mixed sound alone: the video is written once, by the loudness step, with the render's picture copied
        const mixed = path.join(workDir, "sound.wav");
        const picture = await media.path(baseFile);
        let lastReport = 0;
        const { seconds, info } = await mixMusicIntoVideo({
          videoPath: picture,
          musicPath: await media.path(trackFile),
          outputPath: mixed,
          output: "sound",
          volumeLevel: input.volumeLevel,
          voice,
          signal: abort.signal,
          onProgress: (fraction) => {
            if (Date.now() - lastReport < 500 && fraction < 1) return;
            lastReport = Date.now();
            report({ status: "mixing", percent: Math.round(5 + fraction * 85), stage: "Mixing background music" });
          },
        });
        // after the ducking, the whole mix to the platform's loudness (decision 190), picture copied
        report({ status: "mixing", percent: 92, stage: "Bringing the sound to -14 LUFS" });
        const delivered = path.join(workDir, "delivered.mp4");
        // two ffmpeg passes over the whole sound: minutes for a long video, so the activity heartbeats through them
        const loudness = storedLoudness(await withHeartbeat(() => normaliseLoudness(mixed, delivered, abort.signal, picture)));
        report({ status: "saving", percent: 95, stage: "Saving the video" });
        const file = await withHeartbeat(() =>
          saveMediaFromPath({
            userId: input.userId,
            projectId: input.projectId,
            kind: "video",
            sourcePath: delivered,
            mimeType: "video/mp4",
            extension: "mp4",
            durationSeconds: info.durationSeconds,
            width: info.width,
            height: info.height,
          }),
        );
        const videoUrl = mediaUrl(file);
        // earlier mixes of this render are replaced by the new one; the render itself is kept as it was
        const earlier = await prisma.renderedVideo.findMany({ where: { projectId: input.projectId, baseVideoId: { not: null } } });
        await prisma.renderedVideo.create({
          data: {
            projectId: input.projectId,
            status: "completed",
            videoUrl,
            mediaFileId: file.id,
            width: info.width,
            height: info.height,
            durationSeconds: info.durationSeconds,
            withMusic: true,
            volumeLevel: input.volumeLevel,
            baseVideoId: base.id,
            musicTrackId: track.id,
            ...loudness,
            // the same words at the same times as the render it was made from
            captionCues: base.captionCues ?? undefined,
            completedAt: new Date(),
          },
        });
        await prisma.project.update({ where: { id: input.projectId }, data: { musicVolume: input.volumeLevel } });
        // (one an upload is using stays until the upload is done; the sweep removes it then)
        for (const old of earlier) await deleteVideoUnlessInUse(old);
        await pruneProjectVideos(input.projectId).catch((e: unknown) => console.error(`music: pruning older videos of ${input.projectId} failed:`, e));
        return { videoUrl, volumeLevel: input.volumeLevel, durationSeconds: info.durationSeconds, mixSeconds: seconds };
      } finally {
        ctx.cancellationSignal.removeEventListener("abort", onCancel);
        media.release();
        if (workDir) await fsp.rm(workDir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * The voice of a render that already carries music (the render's own music layer): every scene's voiceover,
 * placed at its scene's start exactly as the composition places it (app/lib/timeline/timing.ts).
 */
async function voiceFromScenes(userId: string, projectId: string, media: ReturnType<typeof localMediaSet>): Promise<VoiceSource> {
  const cells = await prisma.storyboardCell.findMany({ where: { storyboard: { projectId } }, orderBy: { cellIndex: "asc" } });
  const clips: { path: string; seconds: number }[] = [];
  for (const [i, cell] of cells.entries()) {
    const id = cell.audioFileId ?? mediaIdFromUrl(cell.audioUrl);
    const file = id ? await findMediaForUser(userId, id) : null;
    if (!file || (await mediaSize(file)) === null) {
      throw inputError(`Scene ${i + 1}'s voiceover is missing, so the voice cannot be kept under new music. Render the video again.`);
    }
    const local = await media.path(file);
    clips.push({ path: local, seconds: await probeDurationSeconds(local) });
  }
  const starts = sceneBoundaries(
    clips.map((c) => c.seconds),
    VIDEO_FPS,
  );
  return { kind: "clips", clips: clips.map((c, i) => ({ path: c.path, startSeconds: starts[i]! / VIDEO_FPS })) };
}
