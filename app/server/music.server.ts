// The music stage as the web sees it: list, generate and delete the current project's tracks, save the music
// volume, mix a track into the latest video (a workflow; the answer waits the few seconds it takes), read the
// mix's progress, and take Suno's callbacks. Every call is scoped to the signed-in user's own project.
import { WorkflowFailedError } from "@temporalio/client";
import type { MusicTrack as MusicTrackRow, Project } from "~/generated/prisma/client";
import type { MusicTrack } from "~/lib/music";
import { decodeSunoTask, parseSunoCallback } from "~/providers/music/suno.server";
import type { backgroundMusicWorkflow, musicTracksWorkflow } from "../../workflows/music";
import { innermostMessage } from "../../workflows/shared/errors";
import {
  backgroundMusicProgressQuery,
  backgroundMusicWorkflowId,
  musicCallbackSignal,
  musicTracksWorkflowId,
  type BackgroundMusicInput,
  type BackgroundMusicProgress,
  type BackgroundMusicResult,
  type MusicTracksInput,
} from "../../workflows/shared/music";
import { prisma } from "~/core/db.server";
import { assertCanUseMusic } from "~/core/permissions.server";
import { getCurrentProject, requireCurrentProject } from "~/core/projects.server";
import { deleteMedia, mediaIdFromUrl } from "~/core/storage.server";
import { forgetWorkflow, workflowSnapshot } from "./progress-cache.server";
import { getTemporalClient, startWorkflow, WorkflowAlreadyRunningError } from "./temporal.server";
import { refusal } from "~/core/refusal.server";

/**
 * How long a generated track is: the video's length, at most 3 minutes (longer videos loop it; the offline
 * composer renders at a few times real time on two cores, and Suno's tracks are a few minutes long anyway).
 */
export const MUSIC_TRACK_MAX_SECONDS = 180;

export function toMusicTrack(row: MusicTrackRow): MusicTrack {
  return {
    id: row.id,
    title: row.title,
    prompt: row.prompt,
    status: row.status === "completed" || row.status === "processing" || row.status === "error" ? row.status : "pending",
    audioUrl: row.status === "completed" ? row.audioUrl : null,
    duration: row.duration,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
  };
}

const NO_PROJECT_MESSAGE = "No project yet. Create a video on the Create page first.";

/** The current project's tracks, newest first ([] without a project). */
export async function listMusicTracks(userId: string): Promise<MusicTrack[]> {
  return musicTracksFor(await getCurrentProject(userId));
}

/** The project's tracks, newest first ([] without a project): one indexed read. */
export async function musicTracksFor(project: Project | null): Promise<MusicTrack[]> {
  if (!project) return [];
  const rows = await prisma.musicTrack.findMany({ where: { projectId: project.id }, orderBy: [{ createdAt: "desc" }, { id: "asc" }] });
  return rows.map(toMusicTrack);
}

/** Creates the tracks (pending) and starts their generation with the user's music provider. */
export async function startMusicGeneration(
  userId: string,
  request: { prompt: string; trackCount: number },
  tuning: Pick<MusicTracksInput, "pollIntervalMs" | "maxWaitMs"> = {},
): Promise<{ tracks: MusicTrack[]; workflowId: string }> {
  await assertCanUseMusic(userId);
  const project = await requireCurrentProject(userId, undefined, NO_PROJECT_MESSAGE);
  const rows = await prisma.$transaction(
    Array.from({ length: request.trackCount }, () => prisma.musicTrack.create({ data: { projectId: project.id, prompt: request.prompt, status: "pending" } })),
  );
  const workflowId = musicTracksWorkflowId(project.id, rows[0]!.id);
  const trackIds = rows.map((r) => r.id);
  await prisma.musicTrack.updateMany({ where: { id: { in: trackIds } }, data: { workflowId } });
  const input: MusicTracksInput = {
    userId,
    projectId: project.id,
    trackIds,
    prompt: request.prompt,
    trackCount: request.trackCount,
    durationSeconds: Math.min(MUSIC_TRACK_MAX_SECONDS, project.durationSeconds),
    ...tuning,
  };
  try {
    await startWorkflow<typeof musicTracksWorkflow>("musicTracksWorkflow", { workflowId, args: [input], memo: { userId, projectId: project.id, projectTitle: project.title } });
  } catch (e) {
    await prisma.musicTrack.deleteMany({ where: { id: { in: trackIds } } });
    throw e;
  }
  const tracks = await prisma.musicTrack.findMany({ where: { id: { in: trackIds } }, orderBy: { createdAt: "asc" } });
  return { tracks: tracks.map(toMusicTrack), workflowId };
}

/** Deletes one of the user's tracks and its file. Videos already mixed with it have their own file and keep playing. */
export async function deleteMusicTrack(userId: string, trackId: string): Promise<void> {
  const track = await prisma.musicTrack.findFirst({ where: { id: trackId, project: { userId } } });
  if (!track) throw refusal(404, "Music track not found");
  await prisma.musicTrack.delete({ where: { id: track.id } });
  const fileId = track.mediaFileId ?? mediaIdFromUrl(track.audioUrl);
  if (fileId) await deleteMedia(fileId);
}

export async function getMusicVolume(userId: string): Promise<number | null> {
  return (await getCurrentProject(userId))?.musicVolume ?? null;
}

/** Saves the background music volume (percent) of the current project; the render and the mix use it. */
export async function saveMusicVolume(userId: string, volume: number): Promise<number> {
  await assertCanUseMusic(userId);
  const project = await requireCurrentProject(userId, undefined, NO_PROJECT_MESSAGE);
  await prisma.project.update({ where: { id: project.id }, data: { musicVolume: volume } });
  return volume;
}

/**
 * Mixes the chosen (or newest) completed track into the latest render at `volumeLevel` percent and waits for it:
 * an audio-only mix takes seconds. Answers with the new video's URL, or a JSON error saying what to do.
 */
export async function addBackgroundMusic(userId: string, request: { volumeLevel: number; trackId?: string }): Promise<BackgroundMusicResult> {
  await assertCanUseMusic(userId);
  const project = await requireCurrentProject(userId, undefined, NO_PROJECT_MESSAGE);
  const [render, track] = await Promise.all([
    prisma.renderedVideo.findFirst({ where: { projectId: project.id, status: "completed", baseVideoId: null, videoUrl: { not: null } }, select: { id: true } }),
    prisma.musicTrack.findFirst({ where: { projectId: project.id, status: "completed", ...(request.trackId ? { id: request.trackId } : {}) }, select: { id: true } }),
  ]);
  if (!render) throw refusal(400, "There is no rendered video to add music to. Render the video on the Render page first.");
  if (!track) {
    throw request.trackId
      ? refusal(404, "That music track is not ready or no longer exists.", { field: "trackId" })
      : refusal(400, "No completed music track yet. Generate music first.");
  }
  await prisma.project.update({ where: { id: project.id }, data: { musicVolume: request.volumeLevel } });

  const input: BackgroundMusicInput = { userId, projectId: project.id, volumeLevel: request.volumeLevel, trackId: request.trackId };
  let handle;
  try {
    handle = await startWorkflow<typeof backgroundMusicWorkflow>("backgroundMusicWorkflow", {
      workflowId: backgroundMusicWorkflowId(project.id),
      args: [input],
      memo: { userId, projectId: project.id, projectTitle: project.title },
    });
    forgetWorkflow(handle.workflowId);
  } catch (e) {
    if (e instanceof WorkflowAlreadyRunningError) {
      throw refusal(409, "Background music is already being added to this video. Wait a few seconds, then try again.");
    }
    throw e;
  }
  try {
    return await handle.result();
  } catch (e) {
    if (e instanceof WorkflowFailedError) throw refusal(422, innermostMessage(e, "Failed to add background music to video"));
    throw e;
  }
}

const IDLE_PROGRESS: BackgroundMusicProgress = { status: "completed", percent: 0, stage: "", error: null };

/** The running mix's progress for the current project, or an idle state. */
export async function getBackgroundMusicProgress(userId: string): Promise<BackgroundMusicProgress & { isActive: boolean }> {
  return backgroundMusicProgressFor(await getCurrentProject(userId));
}

/** The project's running mix, from the progress cache (Temporal is asked at most once a second per mix). */
export async function backgroundMusicProgressFor(project: Project | null): Promise<BackgroundMusicProgress & { isActive: boolean }> {
  if (!project) return { ...IDLE_PROGRESS, isActive: false };
  const run = await workflowSnapshot(backgroundMusicWorkflowId(project.id), backgroundMusicProgressQuery);
  // ended, never started, or Temporal did not answer: no mix is known to run
  if (run.state !== "running") return { ...IDLE_PROGRESS, isActive: false };
  if (!run.progress) return { status: "preparing", percent: 0, stage: "Waiting for a worker...", error: null, isActive: true };
  return { ...run.progress, isActive: true };
}

/**
 * Suno's callback. sunoapi.org does not sign its callbacks, so the body is never trusted: a callback only wakes
 * the run waiting on that task, which then asks Suno itself (with the creator's key) how the task stands.
 * Returns false when no track waits for that task.
 */
export async function receiveSunoCallback(body: unknown): Promise<boolean> {
  const callback = parseSunoCallback(body);
  const candidates = await prisma.musicTrack.findMany({
    where: { externalTaskId: { startsWith: "suno:", contains: callback.taskId }, workflowId: { not: null } },
    select: { externalTaskId: true, workflowId: true },
    take: 20,
  });
  const match = candidates.find((c) => {
    try {
      return decodeSunoTask(c.externalTaskId!).taskIds.includes(callback.taskId);
    } catch {
      return false;
    }
  });
  if (!match) return false;
  try {
    await (await getTemporalClient()).workflow.getHandle(match.workflowId!).signal(musicCallbackSignal);
  } catch {
    // the run already finished: nothing to wake
  }
  return true;
}
