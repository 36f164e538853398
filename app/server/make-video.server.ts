// The whole video as the web side sees it (issue 32): start one make-video run (a project and its workflow, with
// the same permission and plan checks as the pages), read where a run stands (stage, percent, error in words,
// links), list, cancel, retry and delete runs. Called by /create's "Make the whole video", the /api/v1 routes and
// the MCP tools. Every call is scoped to its user: another user's run is a 404.
import type { Prisma, VideoRun } from "~/generated/prisma/client";
import type { makeVideoWorkflow } from "../../workflows/make-video";
import { renderProgressQuery, renderWorkflowId } from "../../workflows/shared/render";
import { scriptProgressQuery, scriptWorkflowId } from "../../workflows/shared/script";
import {
  MAKE_VIDEO_STAGE_LABELS,
  MAKE_VIDEO_STAGES,
  makeVideoWorkflowId,
  overallPercent,
  type MakeVideoOptions,
  type MakeVideoPosition,
  type MakeVideoRunStatus,
  type MakeVideoTuning,
  type MakeVideoWorkflowInput,
} from "../../workflows/shared/make-video";
import { thrownResponse } from "./api.server";
import { assertMakeVideoAllowed, createProjectForRun } from "~/core/video-run.server";
import { LANGUAGES } from "~/lib/languages";
import { userProviders } from "./providers.server";
import { prisma } from "~/core/db.server";
import { deleteProject } from "./project-deletion.server";
import { forgetWorkflow, workflowSnapshot } from "./progress-cache.server";
import { rowProgressOf, runProgressOf, type RunProgress } from "./make-video-progress.server";
import { getTemporalClient, startWorkflow, WorkflowAlreadyRunningError, workflowIsRunning } from "./temporal.server";

import type { PublishVideo } from "~/lib/make-video-options";
import { refusal } from "~/core/refusal.server";

export { MakeVideoOptionsSchema, type MakeVideoOptions, type MakeVideoOptionsInput } from "~/lib/make-video-options";

/** A run as every door shows it: where it stands, what went wrong in words, and links to what it made. */
export type MakeVideoView = {
  id: string;
  projectId: string | null;
  title: string;
  status: MakeVideoRunStatus;
  stage: MakeVideoPosition;
  /** What the stage is, in words ("Rendering the video"). */
  stageLabel: string;
  /** 0 to 100 over the whole run. */
  percent: number;
  error: string | null;
  createdAt: string;
  startedAt: string | null;
  completedAt: string | null;
  links: {
    /** The MP4 (with music when it was mixed in), through the authorised media route. */
    video: string | null;
    thumbnail: string | null;
    youtube: string | null;
    /** The project's details (title, topic, format, duration, script state) as JSON. */
    metadata: string | null;
    /** The project's page in the app. */
    page: string | null;
  };
  options: MakeVideoOptions;
} & RunProgress;

/**
 * Starts making a whole video from options MakeVideoOptionsSchema parsed: checks the plan, creates the project (made the current one unless `makeCurrent`
 * is false), records the run and starts the make-video workflow. 400/402/409/429 JSON responses say what to do.
 */
export async function startMakeVideo(
  userId: string,
  options: MakeVideoOptions,
  extra: { makeCurrent?: boolean; tuning?: MakeVideoTuning } = {},
): Promise<{ id: string; projectId: string; workflowId: string }> {
  await assertMakeVideoAllowed(userId, options);
  const project = await createProjectForRun(userId, options, extra.makeCurrent ?? true);
  const workflowId = makeVideoWorkflowId(project.id);
  const run = await prisma.videoRun.create({
    data: { userId, projectId: project.id, options: options as unknown as Prisma.InputJsonValue, status: "running", stage: "queued", workflowId, startedAt: new Date() },
  });
  try {
    await startMakeVideoWorkflow({ runId: run.id, userId, projectId: project.id, tuning: extra.tuning }, project.title);
  } catch (e) {
    // nothing was made: the project goes, so a free account keeps its one slot
    await prisma.$transaction([
      prisma.project.deleteMany({ where: { id: project.id, userId } }),
      prisma.user.updateMany({ where: { id: userId, currentProjectId: project.id }, data: { currentProjectId: null } }),
    ]);
    throw e;
  }
  return { id: run.id, projectId: project.id, workflowId };
}

async function startMakeVideoWorkflow(input: MakeVideoWorkflowInput, title: string) {
  const workflowId = makeVideoWorkflowId(input.projectId);
  await startWorkflow<typeof makeVideoWorkflow>("makeVideoWorkflow", { workflowId, args: [input], memo: { userId: input.userId, projectId: input.projectId, projectTitle: title } });
  forgetWorkflow(workflowId);
}

/** The user's run, or a 404 (another user's id looks exactly like a missing one). */
export async function requireOwnRun(userId: string, id: string): Promise<VideoRun> {
  const run = await prisma.videoRun.findFirst({ where: { id, userId } });
  if (!run) throw refusal(404, "Video not found.", { field: "id" });
  return run;
}

const linksOf = (run: VideoRun): MakeVideoView["links"] => ({
  video: run.videoUrl,
  thumbnail: run.thumbnailUrl,
  youtube: run.youtubeUrl,
  metadata: run.projectId ? `/api/projects/${run.projectId}` : null,
  page: run.projectId ? `/projects/${run.projectId}` : null,
});

/**
 * A stored row as the view shows it; `livePercent` moves the percent within the running stage, `progress` is the
 * stages as the running workflow reports them (else as the row knows them).
 */
export function toMakeVideoView(run: VideoRun, livePercent?: number | null, progress?: RunProgress): MakeVideoView {
  const stage = (run.stage as MakeVideoPosition) ?? "queued";
  const options = run.options as unknown as MakeVideoOptions;
  return {
    id: run.id,
    projectId: run.projectId,
    title: options.title,
    status: run.status as MakeVideoRunStatus,
    stage,
    stageLabel: MAKE_VIDEO_STAGE_LABELS[stage] ?? stage,
    percent: livePercent != null && run.status === "running" ? Math.max(run.percent, livePercent) : run.percent,
    error: run.error,
    createdAt: run.createdAt.toISOString(),
    startedAt: run.startedAt?.toISOString() ?? null,
    completedAt: run.completedAt?.toISOString() ?? null,
    links: linksOf(run),
    options,
    ...(progress ?? rowProgressOf(run)),
  };
}

/**
 * The running stage's own progress where it reports one (the script's and the render's), as overall percent; from
 * the progress cache, so many readers cost Temporal one query a second.
 */
async function livePercentOf(run: VideoRun): Promise<number | null> {
  if (run.status !== "running" || !run.projectId) return null;
  if (run.stage === "script") {
    const snap = await workflowSnapshot(scriptWorkflowId(run.projectId), scriptProgressQuery, run.updatedAt);
    return snap.progress ? overallPercent("script", snap.progress.percentComplete) : null;
  }
  if (run.stage === "render") {
    const snap = await workflowSnapshot(renderWorkflowId(run.projectId), renderProgressQuery, run.updatedAt);
    return snap.progress ? overallPercent("render", snap.progress.progress) : null;
  }
  return null;
}

/** One of the user's runs: stage, percent, each stage and the time left, error in words and links. 404 for anyone else's. */
export async function getMakeVideo(userId: string, id: string): Promise<MakeVideoView> {
  const run = await requireOwnRun(userId, id);
  const [percent, progress] = await Promise.all([livePercentOf(run).catch(() => null), runProgressOf(run)]);
  return toMakeVideoView(run, percent, progress);
}

/** The user's runs, newest first, `limit` (1 to 100) at a time; `before` is the last id of the previous page. */
export async function listMakeVideos(userId: string, page: { limit?: number; before?: string; status?: MakeVideoRunStatus } = {}): Promise<{ videos: MakeVideoView[]; next: string | null }> {
  const limit = Math.min(100, Math.max(1, page.limit ?? 20));
  const cursor = page.before ? await prisma.videoRun.findFirst({ where: { id: page.before, userId }, select: { id: true } }) : null;
  const rows = await prisma.videoRun.findMany({
    where: { userId, ...(page.status ? { status: page.status } : {}) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
    ...(cursor ? { cursor: { id: cursor.id }, skip: 1 } : {}),
  });
  const videos = rows.slice(0, limit).map((r) => toMakeVideoView(r));
  return { videos, next: rows.length > limit ? videos[videos.length - 1]!.id : null };
}

/** Stops a running run (it records itself as cancelled; the stage it was in stops too). 409 when it is not running. */
export async function cancelMakeVideo(userId: string, id: string): Promise<MakeVideoView> {
  const run = await requireOwnRun(userId, id);
  if (run.status !== "running" && run.status !== "queued") throw refusal(409, `This video is ${run.status}; only a running one can be cancelled.`, { field: "id" });
  if (run.workflowId && (await workflowIsRunning(run.workflowId))) {
    await (await getTemporalClient()).workflow.getHandle(run.workflowId).cancel();
    forgetWorkflow(run.workflowId);
  }
  // the workflow records the same when it notices; the row says so at once
  const cancelled = await prisma.videoRun.update({
    where: { id: run.id },
    data: { status: "cancelled", error: run.error ?? "Cancelled", completedAt: new Date() },
  });
  return toMakeVideoView(cancelled);
}

/**
 * Publishes a finished video to YouTube: its options gain the upload (scheduled when `publishAt` is given) and
 * its make-video workflow runs again, every stage done already skipped, so only the metadata and the upload run
 * (the same child workflows the Upload page starts). Premium and a YouTube connection are checked first (402,
 * 409); 409 while it is being made, before it has an MP4, or once it is on YouTube.
 */
export async function publishMakeVideo(userId: string, id: string, publish: PublishVideo): Promise<MakeVideoView> {
  const run = await requireOwnRun(userId, id);
  if (run.status === "running" || run.status === "queued") throw refusal(409, "This video is still being made: publish it once its status is completed, or make it with upload: true.", { field: "id" });
  if (!run.videoUrl) throw refusal(409, "This video has no finished MP4 to publish yet.", { field: "id" });
  if (run.youtubeUrl) throw refusal(409, `This video is on YouTube already: ${run.youtubeUrl}`, { field: "id" });
  if (!run.projectId) throw refusal(404, "This video's project was deleted.", { field: "id" });
  const project = await prisma.project.findFirst({ where: { id: run.projectId, userId }, select: { id: true, title: true } });
  if (!project) throw refusal(404, "This video's project was deleted.", { field: "id" });
  const previous = run.options as unknown as MakeVideoOptions;
  const options: MakeVideoOptions = {
    ...previous,
    upload: true,
    publishAt: publish.publishAt,
    privacyStatus: publish.privacyStatus ?? previous.privacyStatus,
    youtubeCategoryId: publish.youtubeCategoryId ?? previous.youtubeCategoryId,
  };
  await assertMakeVideoAllowed(userId, options);
  const updated = await prisma.videoRun.update({
    where: { id: run.id },
    data: { options: options as unknown as Prisma.InputJsonValue, status: "running", stage: "upload", error: null, completedAt: null },
  });
  try {
    await startMakeVideoWorkflow({ runId: run.id, userId, projectId: project.id }, project.title);
  } catch (e) {
    await prisma.videoRun.update({ where: { id: run.id }, data: { options: run.options as Prisma.InputJsonValue, status: run.status, stage: run.stage, error: run.error, completedAt: run.completedAt } });
    if (e instanceof WorkflowAlreadyRunningError) throw refusal(409, "This video is already being made.", { field: "id" });
    throw e;
  }
  return toMakeVideoView(updated);
}

/** Deletes the run and its project (stopping whatever still runs, removing its files). */
export async function deleteMakeVideo(userId: string, id: string): Promise<{ id: string; deleted: true }> {
  const run = await requireOwnRun(userId, id);
  if (run.workflowId && (await workflowIsRunning(run.workflowId))) {
    await (await getTemporalClient()).workflow.getHandle(run.workflowId).terminate("The creator deleted the video");
    forgetWorkflow(run.workflowId);
  }
  if (run.projectId) await deleteProject(userId, run.projectId).catch((e: unknown) => (thrownResponse(e)?.status === 404 ? null : Promise.reject(e)));
  await prisma.videoRun.deleteMany({ where: { id: run.id, userId } });
  return { id: run.id, deleted: true };
}

const LANGUAGE_LIST = LANGUAGES.map((l) => ({ code: l.code, name: l.name, nativeName: l.nativeName }));

export { MAKE_VIDEO_STAGES, MAKE_VIDEO_STAGE_LABELS };

/** A run as /api/v1 and the MCP tools show it: its files through /api/v1 (usable with a token), not /api/media. */
export function toApiVideo<V extends MakeVideoView>(view: V) {
  const base = `/api/v1/videos/${encodeURIComponent(view.id)}`;
  return {
    ...view,
    links: { ...view.links, video: view.links.video ? `${base}/video` : null, thumbnail: view.links.thumbnail ? `${base}/thumbnail` : null },
    options: view.options as unknown as Record<string, unknown>,
  };
}

/** The media id behind a run's finished MP4 or thumbnail (null until made); another user's run is a 404. */
export async function mediaIdOfRunFile(userId: string, id: string, file: "video" | "thumbnail"): Promise<string | null> {
  const run = await requireOwnRun(userId, id);
  const url = file === "video" ? run.videoUrl : run.thumbnailUrl;
  const match = url ? /^\/api\/media\/([^/?#]+)/.exec(url) : null;
  return match ? decodeURIComponent(match[1]!) : null;
}

/** The voices the user's videos may use (their voice service's, or the offline ones) and the narration languages. */
export async function listVoicesAndLanguages(userId: string) {
  const { speech } = await userProviders(userId);
  const voices = await speech.listVoices();
  return {
    source: speech.source,
    voices: voices.map((v) => ({
      id: v.id,
      name: v.name,
      category: v.category,
      language: v.language ?? null,
      gender: v.gender ?? null,
      accent: v.accent ?? null,
      neural: v.neural ?? false,
      licence: v.licence ?? null,
    })),
    languages: LANGUAGE_LIST,
  };
}
