// The YouTube upload stage as the web side sees it: start an upload of the current project's latest video
// (checked against the signed-in user), wait for its video id, and read its live progress. The work itself is
// workflows/youtube-upload.ts on a worker.
import { WorkflowFailedError } from "@temporalio/client";
import { z } from "zod";
import type { Project } from "~/generated/prisma/client";
import { PRIVACY_STATUSES, UPLOAD_LIMITS, YOUTUBE_CATEGORY_IDS } from "~/lib/constants";
import { innermostMessage } from "../../workflows/shared/errors";
import {
  youtubeUploadProgressQuery,
  youtubeUploadWorkflowId,
  youtubeWatchUrl,
  type YoutubeUploadProgress,
  type YoutubeUploadResult,
} from "../../workflows/shared/youtube-upload";
import type { youtubeUploadWorkflow } from "../../workflows/youtube-upload";
import { prisma } from "~/core/db.server";
import { assertCanUpload, getAccessLevel, LIMIT_MESSAGES } from "~/core/permissions.server";
import { getCurrentProject, requireCurrentProject } from "~/core/projects.server";
import { getLatestVideo } from "./render.server";
import { getUserSettings } from "~/core/settings.server";
import { approvedThumbnail } from "./thumbnail.server";
import { findMediaForUser, mediaIdFromUrl } from "~/core/storage.server";
import { endedUnrecorded, forgetWorkflow, workflowSnapshot } from "./progress-cache.server";
import { getTemporalClient, startWorkflow, WorkflowAlreadyRunningError } from "./temporal.server";
import { assertPreflight, preflightChecks, preflightFactsFor, preflightThumbnail, preflightVideo } from "./preflight.server";
import { refusal } from "~/core/refusal.server";
import { NO_VIDEO_TO_UPLOAD, startUploadRow, videoToUpload } from "~/core/upload-input.server";
import { aiMadeForProject } from "~/core/platforms/video-origin.server";

/** YouTube's own limits: a title of at most 100 characters, a description of at most 5,000 bytes (app/lib/preflight.ts). */
const TITLE_MAX = 100;
const DESCRIPTION_MAX = 5000;

/** POST /api/youtube/upload (spec section 7). The spec's counters warn at 4,900 / 400; YouTube's limits refuse. */
export const UploadBodySchema = z
  .object({
    videoPath: z.string().trim().max(500).optional(),
    title: z.string({ error: "Please enter a title for your video" }).trim().min(1, "Please enter a title for your video").max(TITLE_MAX, `YouTube titles are at most ${TITLE_MAX} characters.`),
    // YouTube counts 5,000 bytes (UTF-8): the pre-flight check measures them; this bounds the request body
    description: z.string().max(DESCRIPTION_MAX * 4, `YouTube descriptions are at most ${DESCRIPTION_MAX} bytes.`).default(""),
    tags: z
      .array(z.string().max(UPLOAD_LIMITS.tagsChars))
      .max(500)
      .default([])
      .transform((tags) => tags.map((t) => t.trim()).filter(Boolean))
      .refine((tags) => tags.join(",").length <= 500, "YouTube takes at most 500 characters of tags in all."),
    privacyStatus: z.enum(PRIVACY_STATUSES).default("public"),
    categoryId: z.enum(YOUTUBE_CATEGORY_IDS, { error: `categoryId must be one of ${YOUTUBE_CATEGORY_IDS.join(", ")}.` }),
    publishAt: z.iso
      .datetime({ offset: true, error: "publishAt must be an ISO date and time, e.g. 2026-05-01T12:00:00Z." })
      .optional()
      .nullable()
      .refine((value) => !value || new Date(value).getTime() > Date.now(), "The scheduled time must be in the future."),
    thumbnailUrl: z.string().trim().max(500).optional().nullable(),
    madeForKids: z.boolean().default(false),
    /** status.containsSyntheticMedia; left out, it follows what made the video, as the page presets it (decision 240) */
    containsSyntheticMedia: z.boolean().optional().describe("YouTube's altered or synthetic content declaration. Left out: declared when AI made the video's voices, pictures or clips (as the Upload page presets it)."),
  })
  .strict();
export type UploadBody = z.output<typeof UploadBodySchema>;

/** The thumbnail to set: the one named (when it is the user's own file), else the project's approved one. */
async function chooseThumbnail(userId: string, project: Project, thumbnailUrl: string | null | undefined): Promise<string | null> {
  if (thumbnailUrl) {
    const fileId = mediaIdFromUrl(thumbnailUrl);
    const file = fileId ? await findMediaForUser(userId, fileId) : null;
    if (!file || !file.mimeType.startsWith("image/")) throw refusal(404, "That thumbnail is not one of your images.", { field: "thumbnailUrl" });
    return thumbnailUrl;
  }
  return (await approvedThumbnail(project.id))?.thumbnailUrl ?? null;
}

/** Starts the upload workflow; 409 when one runs for this project, or YouTube is not connected. */
export async function startYoutubeUpload(userId: string, body: UploadBody, of?: Project): Promise<{ uploadId: string; workflowId: string }> {
  await assertCanUpload(userId);
  // `of`: a project named by its id (already owner-checked: a Short or a version through /api/v1 or MCP), else the current one
  const project = of ?? (await requireCurrentProject(userId, undefined, NO_VIDEO_TO_UPLOAD));
  const connection = await prisma.youtubeConnection.findUnique({ where: { userId }, select: { revokedAt: true } });
  if (!connection) throw refusal(409, "YouTube is not connected. Click Connect YouTube first.", { needsConnection: true });
  if (connection.revokedAt) throw refusal(409, "Your YouTube connection is no longer valid. Connect YouTube again.", { needsConnection: true });
  const video = await videoToUpload(project.id, body.videoPath);
  const thumbnailUrl = await chooseThumbnail(userId, project, body.thumbnailUrl);
  // what YouTube would refuse or mangle stops here, with its reason (the page shows the same list before Upload)
  assertPreflight(
    preflightChecks({
      video: preflightVideo(video),
      title: body.title,
      description: body.description,
      tags: body.tags,
      publishAt: body.publishAt ?? null,
      thumbnail: await preflightThumbnail(userId, thumbnailUrl),
      sceneChapters: [],
      now: new Date(),
    }),
  );

  const workflowId = youtubeUploadWorkflowId(project.id);
  const input = await startUploadRow(userId, project.id, video, {
    title: body.title,
    description: body.description,
    tags: body.tags,
    categoryId: body.categoryId,
    privacyStatus: body.privacyStatus,
    publishAt: body.publishAt ?? null,
    thumbnailUrl,
    madeForKids: body.madeForKids,
    containsSyntheticMedia: body.containsSyntheticMedia ?? (await aiMadeForProject(project.id)).declare,
  });
  try {
    await startWorkflow<typeof youtubeUploadWorkflow>("youtubeUploadWorkflow", { workflowId, args: [input], memo: { userId, projectId: project.id, projectTitle: project.title } });
    forgetWorkflow(workflowId);
  } catch (e) {
    await prisma.youtubeUpload.delete({ where: { id: input.uploadId } });
    if (e instanceof WorkflowAlreadyRunningError) throw refusal(409, "An upload of this video is already in progress. Wait for it to finish.");
    throw e;
  }
  return { uploadId: input.uploadId, workflowId };
}

/** Waits for the upload's result (the browser's request stays open; closing it leaves the upload running). */
export async function waitForYoutubeUpload(workflowId: string, signal?: AbortSignal): Promise<YoutubeUploadResult> {
  const handle = (await getTemporalClient()).workflow.getHandle(workflowId);
  try {
    const result = await Promise.race([
      handle.result() as Promise<YoutubeUploadResult>,
      new Promise<never>((_, reject) => signal?.addEventListener("abort", () => reject(new Error("The browser stopped waiting")), { once: true })),
    ]);
    return result;
  } catch (e) {
    if (e instanceof WorkflowFailedError) throw refusal(502, innermostMessage(e, "Upload failed"));
    throw e;
  }
}

export type UploadStatusResponse = {
  status: "idle" | "uploading" | "completed" | "error";
  uploadId: string | null;
  percent: number;
  bytesUploaded: number;
  totalBytes: number;
  phase: YoutubeUploadProgress["status"] | null;
  videoId: string | null;
  url: string | null;
  thumbnailSet: boolean;
  thumbnailError: string | null;
  captionsSet: boolean;
  captionError: string | null;
  publishAt: string | null;
  error: string | null;
};

const IDLE: UploadStatusResponse = {
  status: "idle",
  uploadId: null,
  percent: 0,
  bytesUploaded: 0,
  totalBytes: 0,
  phase: null,
  videoId: null,
  url: null,
  thumbnailSet: false,
  thumbnailError: null,
  captionsSet: false,
  captionError: null,
  publishAt: null,
  error: null,
};

/** GET /api/youtube/upload-status: the current project's newest upload, with live bytes while it runs. */
export async function getYoutubeUploadStatus(userId: string): Promise<UploadStatusResponse> {
  return youtubeUploadStatusFor(await getCurrentProject(userId));
}

/** The project's newest upload: one indexed read, and while it runs its live bytes from the progress cache. */
export async function youtubeUploadStatusFor(project: Project | null): Promise<UploadStatusResponse> {
  if (!project) return IDLE;
  const upload = await prisma.youtubeUpload.findFirst({ where: { projectId: project.id }, orderBy: { createdAt: "desc" } });
  if (!upload) return IDLE;
  const base: UploadStatusResponse = {
    ...IDLE,
    uploadId: upload.id,
    percent: upload.progress,
    bytesUploaded: Number(upload.bytesUploaded),
    totalBytes: Number(upload.totalBytes ?? 0),
    videoId: upload.youtubeVideoId,
    url: upload.youtubeVideoId ? youtubeWatchUrl(upload.youtubeVideoId) : null,
    thumbnailSet: upload.thumbnailSet,
    thumbnailError: upload.thumbnailError,
    captionsSet: upload.captionTrackId !== null,
    captionError: upload.captionError,
    publishAt: upload.publishAt?.toISOString() ?? null,
    error: upload.error,
  };
  if (upload.status === "completed") return { ...base, status: "completed", percent: 100, phase: "completed" };
  if (upload.status === "error") return { ...base, status: "error", phase: "failed" };
  const run = await workflowSnapshot(upload.workflowId ?? youtubeUploadWorkflowId(project.id), youtubeUploadProgressQuery, upload.createdAt);
  if (upload.workflowId && endedUnrecorded(run, upload.createdAt)) {
    const error = "The upload was stopped before it finished. Start it again.";
    await prisma.youtubeUpload.updateMany({ where: { id: upload.id, status: "processing" }, data: { status: "error", error } });
    return { ...base, status: "error", phase: "failed", error };
  }
  const state = run.progress;
  // no worker has picked the upload up yet: the saved bytes are the truth
  if (!state) return { ...base, status: "uploading", phase: "preparing" };
  return {
    ...base,
    status: "uploading",
    phase: state.status,
    percent: state.percent,
    bytesUploaded: state.bytesUploaded,
    totalBytes: state.totalBytes || base.totalBytes,
    videoId: state.videoId ?? base.videoId,
  };
}

/** What /upload and /projects/{id}/upload show for the user's current project. */
export async function getUploadPageData(user: { id: string; email: string }) {
  const [project, video, settings, accessLevel] = await Promise.all([
    getCurrentProject(user.id),
    getLatestVideo(user.id),
    getUserSettings(user.id),
    getAccessLevel(user),
  ]);
  const script = project ? await prisma.script.findUnique({ where: { projectId: project.id }, select: { text: true } }) : null;
  const preflight = project ? await preflightFactsFor(user.id, project) : { video: null, thumbnail: null, sceneChapters: [], captions: null, captionsAllowed: true };
  return {
    preflight,
    projectId: project?.id ?? null,
    projectTitle: project?.title ?? "",
    /** the finished script, which the description and tags are written from */
    script: script?.text ?? null,
    videoUrl: video.videoUrl,
    schedule: {
      schedulingDays: settings.schedulingDays,
      defaultScheduleTime: settings.defaultScheduleTime,
      lastScheduleDate: settings.lastScheduleDate?.toISOString() ?? null,
    },
    uploadRefused: accessLevel === "free" ? LIMIT_MESSAGES.upload : null,
  };
}
