// The YouTube upload stage, one workflow per project (`youtube-upload-<projectId>`): check the video, send it
// with the resumable protocol (the activity heartbeats, so a killed worker is noticed and the next attempt
// resumes the same session from YouTube's last acknowledged byte), set the approved thumbnail and the caption track, record the
// outcome. Errors a retry cannot fix (quota, a revoked connection, refused metadata) fail at once, so a used-up
// quota is not hammered. Progress arrives from the activity by signal and is read with youtubeUploadProgressQuery.
import { patched, proxyActivities, setHandler } from "@temporalio/workflow";
import type { createYoutubeUploadActivities } from "./activities/youtube-upload";
import { innermostMessage } from "./shared/errors";
import { recordStageFailure } from "./shared/failures";
import { proxyActivitiesOn } from "./shared/queues";
import {
  YOUTUBE_NON_RETRYABLE,
  YOUTUBE_UPLOAD_FAILED,
  youtubeUploadProgressQuery,
  youtubeUploadProgressSignal,
  youtubeWatchUrl,
  type YoutubeUploadInput,
  type YoutubeUploadProgress,
  type YoutubeUploadResult,
} from "./shared/youtube-upload";

type Activities = ReturnType<typeof createYoutubeUploadActivities>;

const { prepareYoutubeUpload, setYoutubeThumbnail, addYoutubeCaptions, finishYoutubeUpload, recordYoutubeUploadFailure } = proxyActivities<Activities>({
  startToCloseTimeout: "2 minutes",
  retry: { initialInterval: "2 seconds", backoffCoefficient: 2, maximumAttempts: 5, nonRetryableErrorTypes: YOUTUBE_NON_RETRYABLE },
});

// sending the file is heavy work (its own queue, decision 155); the bookkeeping around it is light
const { uploadVideoToYoutube } = proxyActivitiesOn<Activities>("heavy", {
  // YouTube takes files up to 128 GB; the heartbeat notices a dead worker long before this
  startToCloseTimeout: "24 hours",
  heartbeatTimeout: "20 seconds",
  retry: { initialInterval: "2 seconds", backoffCoefficient: 2, maximumInterval: "1 minute", maximumAttempts: 8, nonRetryableErrorTypes: YOUTUBE_NON_RETRYABLE },
});

export async function youtubeUploadWorkflow(input: YoutubeUploadInput): Promise<YoutubeUploadResult> {
  const state: YoutubeUploadProgress = {
    status: "preparing",
    bytesUploaded: 0,
    totalBytes: 0,
    percent: 0,
    attempt: 1,
    videoId: null,
    error: null,
    startedAt: Date.now(),
  };
  setHandler(youtubeUploadProgressQuery, () => state);
  setHandler(youtubeUploadProgressSignal, (update) => {
    if (state.status === "completed" || state.status === "failed") return;
    // a late signal from an attempt that already ended must not move the bytes back
    if (update.bytesUploaded !== undefined && update.bytesUploaded < state.bytesUploaded && (update.attempt ?? 0) <= state.attempt) return;
    Object.assign(state, update);
  });

  try {
    const { totalBytes } = await prepareYoutubeUpload(input);
    Object.assign(state, { status: "uploading", totalBytes });
    const { videoId } = await uploadVideoToYoutube(input);
    Object.assign(state, { status: "thumbnail", videoId, bytesUploaded: totalBytes, percent: 100 });
    const thumbnail = await setYoutubeThumbnail(input);
    // (patched: an upload started by an older worker, which had no caption step, replays without it)
    const captions = patched("youtube-caption-track") ? await addYoutubeCaptions(input) : { captionTrackId: null };
    const { publishAt } = await finishYoutubeUpload(input);
    state.status = "completed";
    return { videoId, url: youtubeWatchUrl(videoId), thumbnailSet: thumbnail.thumbnailSet, captionsSet: captions.captionTrackId !== null, publishAt };
  } catch (e) {
    Object.assign(state, { status: "failed", error: innermostMessage(e, FALLBACK_MESSAGE) });
    return recordStageFailure(e, {
      userId: input.userId,
      projectId: input.projectId,
      logType: "youtube-upload",
      failureType: YOUTUBE_UPLOAD_FAILED,
      fallbackMessage: FALLBACK_MESSAGE,
      cancelledMessage: "The upload was cancelled",
      recordOnRow: ({ message }) => recordYoutubeUploadFailure({ uploadId: input.uploadId, message }),
    });
  }
}

const FALLBACK_MESSAGE = "The upload to YouTube failed for an unknown reason";
