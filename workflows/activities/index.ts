// Every activity the worker offers. Activities do all the I/O; workflows only orchestrate them.
export { recordHealthCheck } from "./health-check";
export { logPipelineError } from "~/core/error-log.server";
import { createScriptActivities } from "./script";

export const { planScriptLength, fitScriptToTime, markScriptStarted, writeScriptChunk, expandScriptChunk, proofreadAndSaveScript, markScriptEnded } =
  createScriptActivities();
export { prepareRenderPlan, prepareStoredRenderPlan, renderVideoFast, renderVideoExact, renderStoryboardVideo, recordRendererChoice, recordRenderFailure } from "./render";
export { planRenderChunks, renderVideoChunk, mixRenderSound, normaliseRenderSound, joinRenderChunks, discardRenderChunks } from "./render-chunked";
export { drawReadyChunks, drawEarlyChunk, lookForEarlyChunk } from "./render-early-chunks";
export { scenesEditedSinceRender } from "./render-after-edit";
import { createStoryboardActivities } from "./storyboard";

export const { writeStoryboardScenes, markStoryboardFailed, generateSceneImage, generateSceneVoiceover, findCellsLackingMedia } =
  createStoryboardActivities();
import { createSceneClipActivities } from "./scene-clip";

export const { convertSceneClipUpload } = createSceneClipActivities();
import { createAiClipActivities } from "./ai-clips";

export const { checkAiClipBudget, generateSceneAiClip } = createAiClipActivities();
import { createSceneCheckActivities } from "./scene-check";

export const { checkSceneAgainstWords } = createSceneCheckActivities();
import { createThumbnailActivities } from "./thumbnail";

export const { renderProjectThumbnail, writeUploadMetadataFor } = createThumbnailActivities();
import { createYoutubeUploadActivities } from "./youtube-upload";

export const { prepareYoutubeUpload, uploadVideoToYoutube, setYoutubeThumbnail, addYoutubeCaptions, finishYoutubeUpload, recordYoutubeUploadFailure } =
  createYoutubeUploadActivities();
import { createPlatformPostActivities } from "./platform-post";

export const { checkPlatformPost, startPlatformPost, sendPlatformPostBytes, pollPlatformPost, publishPlatformPost, recordPlatformPostOutcome, queuePlatformPostEvent } =
  createPlatformPostActivities();
import { createMusicActivities } from "./music";

export const { startMusicGeneration, pollMusicGeneration, markMusicTracksFailed, mixBackgroundMusic } = createMusicActivities();
import { createMakeVideoActivities } from "./make-video";

export const {
  planMakeVideo,
  recordMakeVideoStage,
  prepareScriptStage,
  prepareStoryboardStage,
  checkSceneMedia,
  prepareMusicStage,
  prepareRenderStage,
  prepareMixStage,
  prepareThumbnailStage,
  approveRunThumbnail,
  scriptTextOf,
  prepareUploadStage,
  finishMakeVideo,
  queueVideoEvent,
} = createMakeVideoActivities();
import { createWebhookActivities } from "./webhooks";

export const { sendWebhookDelivery, markWebhookDeliveryFailed } = createWebhookActivities();
import { createVideoBatchActivities } from "./video-batch";

export const { queuedBatchRows, startBatchRow } = createVideoBatchActivities();
export { measureVoicePace } from "./voice-pace";
export { makeVoiceSample } from "./voice-sample";
import { createChannelActivities } from "./channel";

export const { channelStep } = createChannelActivities();
