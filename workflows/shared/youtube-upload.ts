// The YouTube upload stage's contract, shared by the workflow, its activities and the web side: the workflow id,
// input/result/progress types, the progress query and signal, and the error types a retry cannot fix.
import { defineQuery, defineSignal } from "@temporalio/workflow";

export type YoutubeUploadInput = {
  /** The YoutubeUpload row this run fills in. */
  uploadId: string;
  userId: string;
  projectId: string;
};

export type YoutubeUploadStatus = "preparing" | "uploading" | "thumbnail" | "completed" | "failed";

export type YoutubeUploadProgress = {
  status: YoutubeUploadStatus;
  /** Bytes YouTube has acknowledged. */
  bytesUploaded: number;
  totalBytes: number;
  /** 0 to 100, from the acknowledged bytes. */
  percent: number;
  /** The attempt of the upload activity (above 1 after a worker restart or a cut connection). */
  attempt: number;
  videoId: string | null;
  error: string | null;
  /** ms since the epoch */
  startedAt: number;
};

export type YoutubeUploadProgressUpdate = Partial<Omit<YoutubeUploadProgress, "startedAt">>;

export type YoutubeUploadResult = { videoId: string; url: string; thumbnailSet: boolean; captionsSet?: boolean; publishAt: string | null };

export const youtubeUploadWorkflowId = (projectId: string) => `youtube-upload-${projectId}`;
export const youtubeUploadProgressQuery = defineQuery<YoutubeUploadProgress>("youtubeUploadProgress");
export const youtubeUploadProgressSignal = defineSignal<[YoutubeUploadProgressUpdate]>("youtubeUploadProgressUpdate");

/** The project's daily YouTube quota is used up: retrying today only burns more of it. */
export const YOUTUBE_QUOTA_EXCEEDED = "YoutubeQuotaExceeded";
/** Google refused the tokens (revoked, or the OAuth client changed): the creator must connect again. */
export const YOUTUBE_NOT_CONNECTED = "YoutubeNotConnected";
/** Something a retry cannot fix: the video file is gone, the metadata is refused. */
export const YOUTUBE_UPLOAD_INPUT_ERROR = "YoutubeUploadInputError";

/** The workflow's own failure type once the reason is recorded. */
export const YOUTUBE_UPLOAD_FAILED = "YoutubeUploadFailed";

export const YOUTUBE_NON_RETRYABLE = [YOUTUBE_QUOTA_EXCEEDED, YOUTUBE_NOT_CONNECTED, YOUTUBE_UPLOAD_INPUT_ERROR];

export const youtubeWatchUrl = (videoId: string) => `https://www.youtube.com/watch?v=${encodeURIComponent(videoId)}`;
