// The YouTube upload stage's start, written once (issue 46, decision 213): which finished video goes up, and the
// upload row the workflow fills in (a scheduled video is private until its time, as YouTube publishes it only from
// private), returned as the upload workflow's input. The Upload page (app/server/youtube-upload.server.ts) and the
// make-video workflow's upload stage (workflows/activities/make-video.ts; batches make their videos through it)
// use it; the page checks its own form (pre-flight) before, make-video writes its description and tags before.
import type { RenderedVideo } from "~/generated/prisma/client";
import { mediaIdFromUrl } from "~/core/storage.server";
import { youtubeUploadWorkflowId, type YoutubeUploadInput } from "../../workflows/shared/youtube-upload";
import { prisma } from "./db.server";
import { refusal } from "./refusal.server";

/** YouTube's longest title (app/lib/preflight.ts). */
const TITLE_MAX = 100;

export const NO_VIDEO_TO_UPLOAD = "No video found. Please render your video first.";

/**
 * The video to upload for project `projectId` (ownership checked by the caller): the finished one named by
 * `videoPath` (its media URL) when it is this project's, else the project's newest finished one; 404 otherwise.
 */
export async function videoToUpload(projectId: string, videoPath?: string | null): Promise<RenderedVideo> {
  const finished = { projectId, status: "completed" as const, videoUrl: { not: null } };
  if (videoPath) {
    const fileId = mediaIdFromUrl(videoPath);
    const named = fileId ? await prisma.renderedVideo.findFirst({ where: { ...finished, OR: [{ mediaFileId: fileId }, { videoUrl: videoPath }] } }) : null;
    if (!named) throw refusal(404, "That video is not one of this project's rendered videos.", { field: "videoPath" });
    return named;
  }
  const latest = await prisma.renderedVideo.findFirst({ where: finished, orderBy: { createdAt: "desc" } });
  if (!latest) throw refusal(404, NO_VIDEO_TO_UPLOAD, { field: "videoPath" });
  return latest;
}

/** What goes to YouTube with the video. */
export type UploadChoice = {
  title: string;
  description: string;
  tags: string[];
  categoryId: string;
  privacyStatus: string;
  /** ISO time to publish at, or null to publish now. */
  publishAt: string | null;
  thumbnailUrl: string | null;
  madeForKids?: boolean;
  containsSyntheticMedia?: boolean;
};

/** The upload row of `video` (processing, the workflow's id on it) and the upload workflow's input. */
export async function startUploadRow(userId: string, projectId: string, video: Pick<RenderedVideo, "id">, choice: UploadChoice): Promise<YoutubeUploadInput> {
  const upload = await prisma.youtubeUpload.create({
    data: {
      projectId,
      videoId: video.id,
      title: choice.title.slice(0, TITLE_MAX),
      description: choice.description,
      tags: choice.tags,
      categoryId: choice.categoryId,
      // YouTube publishes a scheduled video only from private
      privacyStatus: choice.publishAt ? "private" : choice.privacyStatus,
      publishAt: choice.publishAt ? new Date(choice.publishAt) : null,
      thumbnailUrl: choice.thumbnailUrl,
      ...(choice.madeForKids === undefined ? {} : { madeForKids: choice.madeForKids }),
      ...(choice.containsSyntheticMedia === undefined ? {} : { containsSyntheticMedia: choice.containsSyntheticMedia }),
      status: "processing",
      workflowId: youtubeUploadWorkflowId(projectId),
    },
  });
  return { uploadId: upload.id, userId, projectId };
}
