// Every activity the worker offers. Activities do all the I/O; workflows only orchestrate them.
export { recordHealthCheck } from "./health-check";
export { logPipelineError } from "~/server/error-log.server";
import { createScriptActivities } from "./script";

export const { planScriptLength, fitScriptToTime, markScriptStarted, writeScriptChunk, expandScriptChunk, proofreadAndSaveScript, markScriptEnded } =
  createScriptActivities();
export { prepareRenderPlan, renderVideoFast, renderVideoExact, renderStoryboardVideo, recordRendererChoice, recordRenderFailure } from "./render";
import { createStoryboardActivities } from "./storyboard";

export const { writeStoryboardScenes, markStoryboardFailed, generateSceneImage, generateSceneVoiceover, findCellsLackingMedia } =
  createStoryboardActivities();
import { createSceneClipActivities } from "./scene-clip";

export const { convertSceneClipUpload } = createSceneClipActivities();
import { createThumbnailActivities } from "./thumbnail";

export const { renderProjectThumbnail, writeUploadMetadataFor } = createThumbnailActivities();
import { createYoutubeUploadActivities } from "./youtube-upload";

export const { prepareYoutubeUpload, uploadVideoToYoutube, setYoutubeThumbnail, finishYoutubeUpload, recordYoutubeUploadFailure } =
  createYoutubeUploadActivities();
import { createMusicActivities } from "./music";

export const { startMusicGeneration, pollMusicGeneration, markMusicTracksFailed, mixBackgroundMusic } = createMusicActivities();
export { measureVoicePace } from "./voice-pace";
