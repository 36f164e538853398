// The render stage as the web side sees it: start a render of the current project, read its progress, find
// the latest video, delete the videos. The work itself is workflows/render.ts on a worker.
import { CAPTION_FORMATS, captionTrackUrl, storedCaptionCues, type CaptionFormat, type DeliveredVideoFacts } from "~/lib/caption-track";
import { IDLE_RENDER_PROGRESS, type RenderProgress } from "~/lib/render-progress";
import type { Project, RenderedVideo } from "~/generated/prisma/client";
import type { renderVideoWorkflow } from "../../workflows/render";
import { renderProgressQuery, renderWorkflowId, type RenderProgressState } from "../../workflows/shared/render";
import { prisma } from "~/core/db.server";
import { startRenderRow } from "~/core/render-input.server";
import { allScenesHaveMedia } from "~/lib/storyboard";
import type { RenderHeight } from "~/lib/video-format";
import { getCurrentProject } from "~/core/projects.server";
import { deleteMedia, mediaIdFromUrl } from "~/core/storage.server";
import { endedUnrecorded, forgetWorkflow, workflowSnapshot, type WorkflowSnapshot } from "./progress-cache.server";
import { readRenderProgress } from "./status-reads.server";
import { getTemporalClient, startWorkflow, WorkflowAlreadyRunningError, workflowIsRunning } from "./temporal.server";
import { refusal } from "~/core/refusal.server";

export type LatestVideo = {
  videoUrl: string | null;
  width?: number | null;
  height?: number | null;
  durationSeconds?: number | null;
  createdAt?: string;
} & Partial<DeliveredVideoFacts>;

/** What the render page and the upload page tell about a delivered video: its measured loudness and its caption track. */
export function deliveredVideoFacts(video: { id: string; loudnessLufs: number | null; truePeakDbtp: number | null; captionCues: unknown }): DeliveredVideoFacts {
  const cues = storedCaptionCues(video.captionCues);
  return {
    renderId: video.id,
    loudnessLufs: video.loudnessLufs,
    truePeakDbtp: video.truePeakDbtp,
    captionCueCount: cues.length,
    captions: cues.length ? { srt: captionTrackUrl(video.id, "srt"), vtt: captionTrackUrl(video.id, "vtt") } : null,
  };
}

/** A render's caption track as a file, for its owner only: 404 for anyone else, a missing render or one without captions. */
export async function captionTrackFile(userId: string, renderId: string, format: CaptionFormat): Promise<{ text: string; mimeType: string; fileName: string }> {
  const video = await prisma.renderedVideo.findFirst({
    where: { id: renderId, status: "completed", project: { userId } },
    select: { captionCues: true, project: { select: { title: true } } },
  });
  const cues = video ? storedCaptionCues(video.captionCues) : [];
  if (!video || !cues.length) throw refusal(404, "This video has no caption track. Render it again to make one from the voiceovers.");
  const base = video.project.title.toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "") || "video";
  const { write, mimeType, extension } = CAPTION_FORMATS[format];
  return { text: write(cues), mimeType, fileName: `${base}.${extension}` };
}

async function sceneCells(projectId: string) {
  return prisma.storyboardCell.findMany({
    where: { storyboard: { projectId } },
    select: { imageUrl: true, audioUrl: true },
    orderBy: { cellIndex: "asc" },
  });
}


type ActiveRender = { row: Pick<RenderedVideo, "id" | "createdAt">; run: WorkflowSnapshot<RenderProgressState> };

/**
 * The render in flight for the project with its run's latest snapshot (from the progress cache), if any. A row
 * whose run ended unrecorded is marked failed on the way.
 */
async function activeRender(project: Project): Promise<ActiveRender | null> {
  const row = await prisma.renderedVideo.findFirst({ where: { projectId: project.id, status: "processing" }, orderBy: { createdAt: "desc" } });
  return row ? runOfRender(project, row) : null;
}

/** A processing render's run (from the progress cache); null, and the row marked failed, when it ended unrecorded. */
async function runOfRender(project: Project, row: Pick<RenderedVideo, "id" | "createdAt">): Promise<ActiveRender | null> {
  const run = await workflowSnapshot(renderWorkflowId(project.id), renderProgressQuery, row.createdAt);
  if (!endedUnrecorded(run, row.createdAt)) return { row, run };
  await prisma.renderedVideo.updateMany({
    where: { id: row.id, status: "processing" },
    data: { status: "error", error: "The render was stopped before it finished" },
  });
  return null;
}

/**
 * Starts rendering the user's current project at the chosen quality (default: HD when the plan allows it).
 * Throws a JSON response saying what to do when it cannot; 402 when the quality is above the plan's.
 */
export async function startRender(userId: string, quality?: RenderHeight): Promise<{ renderId: string; width: number; height: number }> {
  const project = await getCurrentProject(userId);
  if (!project) throw refusal(404, "No project yet. Create a video on the Create page first.");
  return startRenderOf(userId, project, quality);
}

/** Starts rendering this (already owner-checked) project: a Short or a version by its id (/api/v1, MCP; issue 51). */
export async function startRenderOf(userId: string, project: Project, quality?: RenderHeight): Promise<{ renderId: string; width: number; height: number }> {
  const cells = await sceneCells(project.id);
  if (!allScenesHaveMedia(cells)) {
    throw refusal(400, "Every scene needs an image and a voiceover before rendering. Generate them on the Storyboard page.");
  }
  if (await activeRender(project)) throw refusal(409, "A render is already in progress for this project. Wait for it to finish.");

  // the quality refused above the plan (402) and the row made as every door makes it (core/render-input.server.ts)
  const input = await startRenderRow(userId, project, quality);
  const workflowId = renderWorkflowId(project.id);
  const render = { id: input.renderId };
  const size = { width: input.width, height: input.height };
  try {
    await startWorkflow<typeof renderVideoWorkflow>("renderVideoWorkflow", { workflowId, args: [input], memo: { userId, projectId: project.id, projectTitle: project.title } });
    forgetWorkflow(workflowId);
  } catch (e) {
    await prisma.renderedVideo.delete({ where: { id: render.id } });
    if (e instanceof WorkflowAlreadyRunningError) {
      throw refusal(409, "A render is already in progress for this project. Wait for it to finish.");
    }
    throw e;
  }
  return { renderId: render.id, ...size };
}

const elapsedSince = (ms: number) => Math.max(0, Math.round((Date.now() - ms) / 1000));

/** The spec's render progress for the user's current project. */
export async function getRenderProgress(userId: string): Promise<RenderProgress> {
  return renderProgressFor(await getCurrentProject(userId));
}

/**
 * The spec's render progress for the project: one query (scene count, running and newest render; decision 186),
 * and the run's state from the progress cache (never a Temporal call of its own while a recent answer exists).
 */
export async function renderProgressFor(project: Project | null): Promise<RenderProgress> {
  if (!project) return IDLE_RENDER_PROGRESS;
  const { totalScenes, active: processing, last } = await readRenderProgress(project.id);
  const active = processing && (await runOfRender(project, processing));
  // its run ended unrecorded and the row was just marked failed: read again, as the newest render has changed
  if (processing && !active) return renderProgressFor(project);

  if (active) {
    // null: no worker has picked the render up yet (or none is running): it is still active, just waiting
    const state = active.run.progress;
    if (!state) {
      return {
        ...IDLE_RENDER_PROGRESS,
        isActive: true,
        totalScenes,
        stage: "Waiting for a render worker...",
        elapsedTime: elapsedSince(active.row.createdAt.getTime()),
        step: "Queued",
        details: "The render starts as soon as a worker is free",
      };
    }
    return {
      isRendering: state.status === "rendering" || state.status === "saving",
      isActive: state.status !== "completed" && state.status !== "failed",
      totalScenes: state.totalScenes || totalScenes,
      completedScenes: state.completedScenes,
      currentScene: state.currentScene,
      stage: state.stage,
      progress: state.progress,
      elapsedTime: elapsedSince(state.startedAt),
      step: state.step,
      details: state.details,
      error: state.error,
      attempt: state.attempt ?? 1,
    };
  }

  if (last?.status === "completed") {
    return {
      ...IDLE_RENDER_PROGRESS,
      totalScenes,
      completedScenes: totalScenes,
      currentScene: totalScenes,
      stage: "Render complete",
      progress: 100,
      elapsedTime: last.completedAt ? Math.round((last.completedAt.getTime() - last.createdAt.getTime()) / 1000) : "0s",
      step: "Done",
    };
  }
  if (last?.status === "error") {
    return { ...IDLE_RENDER_PROGRESS, totalScenes, stage: "Render failed", details: last.error ?? "", error: last.error };
  }
  return { ...IDLE_RENDER_PROGRESS, totalScenes };
}

/** The current project's newest finished video. */
export async function getLatestVideo(userId: string): Promise<LatestVideo> {
  const project = await getCurrentProject(userId);
  if (!project) return { videoUrl: null };
  const video = await prisma.renderedVideo.findFirst({
    where: { projectId: project.id, status: "completed", videoUrl: { not: null } },
    orderBy: { createdAt: "desc" },
  });
  if (!video) return { videoUrl: null };
  return {
    videoUrl: video.videoUrl,
    width: video.width,
    height: video.height,
    durationSeconds: video.durationSeconds,
    createdAt: video.createdAt.toISOString(),
    ...deliveredVideoFacts(video),
  };
}

/** Stops a render in flight, removes every rendered video file of the current project, and resets the render state. */
export async function deleteVideos(userId: string): Promise<{ deleted: number }> {
  const project = await getCurrentProject(userId);
  if (!project) return { deleted: 0 };
  // an upload sending one of these videos to YouTube would fail half-way: nothing is deleted while it runs
  const sending = await prisma.youtubeUpload.findFirst({ where: { projectId: project.id, status: { in: ["pending", "processing"] }, videoId: { not: null } } });
  if (sending) throw refusal(409, "A YouTube upload is sending this video right now. Delete the videos once it has finished.");
  const workflowId = renderWorkflowId(project.id);
  if (await workflowIsRunning(workflowId)) {
    await (await getTemporalClient()).workflow.getHandle(workflowId).terminate("The creator deleted the videos");
    forgetWorkflow(workflowId);
  }
  const videos = await prisma.renderedVideo.findMany({ where: { projectId: project.id } });
  for (const video of videos) {
    const fileId = video.mediaFileId ?? mediaIdFromUrl(video.videoUrl);
    if (fileId) await deleteMedia(fileId);
  }
  await prisma.renderedVideo.deleteMany({ where: { id: { in: videos.map((v) => v.id) } } });
  return { deleted: videos.filter((v) => v.videoUrl).length };
}
