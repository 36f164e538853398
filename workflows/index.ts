// Every workflow the worker runs. The worker bundles this file; keep it free of I/O and Node APIs.
export { healthCheckWorkflow } from "./health-check";
export { scriptWorkflow } from "./script";
export { renderVideoWorkflow } from "./render";
export { storyboardWorkflow } from "./storyboard";
export { sceneImageWorkflow, sceneVoiceoverWorkflow, generateAllContentWorkflow, sceneClipWorkflow } from "./scene-media";
export { thumbnailWorkflow, uploadMetadataWorkflow } from "./thumbnail";
export { youtubeUploadWorkflow } from "./youtube-upload";
export { platformPostWorkflow } from "./platform-post";
export { musicTracksWorkflow, backgroundMusicWorkflow } from "./music";
export { makeVideoWorkflow } from "./make-video";
export { webhookDeliveryWorkflow } from "./webhooks";
export { videoBatchWorkflow } from "./video-batch";
export { voicePaceWorkflow } from "./voice-pace";
export { voiceSampleWorkflow } from "./voice-sample";
export { channelWorkflow } from "./channel";
export { animateScenesWorkflow } from "./ai-clips";
export { checkScenesWorkflow } from "./scene-check";
