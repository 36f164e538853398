// The scene-media stage's contract: one scene's image or voiceover, and Generate All Content.
// Used by workflows/scene-media.ts, workflows/activities/storyboard.ts, app/server/storyboard.server.ts and
// app/components/storyboard/. No I/O here.
import { defineQuery } from "@temporalio/workflow";

export const sceneImageWorkflowId = (projectId: string, cellIndex: number) => `scene-image-${projectId}-${cellIndex}`;
export const sceneVoiceoverWorkflowId = (projectId: string, cellIndex: number) => `scene-voiceover-${projectId}-${cellIndex}`;
export const generateAllWorkflowId = (projectId: string) => `generate-all-${projectId}`;

export type SceneMediaInput = { projectId: string; userId: string; cellIndex: number };
export type SceneImageResult = { imageUrl: string };
export type SceneVoiceoverResult = { audioUrl: string; durationSeconds: number };
export type GenerateAllInput = {
  projectId: string;
  userId: string;
  /** the pauses between calls, in ms; the spec's (GENERATE_ALL) when absent (tests shorten them) */
  pauses?: { imageBatchMs: number; voiceoverMs: number };
};

export type GenerateAllProgress = {
  phase: "finding" | "images" | "voiceovers" | "done";
  imagesTotal: number;
  imagesDone: number;
  imagesFailed: number;
  voiceoversTotal: number;
  voiceoversDone: number;
  voiceoversFailed: number;
  failures: { cellIndex: number; kind: "image" | "voiceover"; message: string }[];
};
export const generateAllProgressQuery = defineQuery<GenerateAllProgress>("generateAllProgress");

/** A scene that is gone (deleted storyboard, wrong index) cannot be fixed by retrying. */
export const SCENE_MISSING = "SceneMissing";
/** A scene's words changed while its voice was made: the voice is thrown away and the next attempt speaks them. */
export const SCENE_WORDS_CHANGED = "SceneWordsChanged";

// ── An uploaded clip, converted by the worker (decision 072) ─────────────────────────────────────────
export const sceneClipWorkflowId = (projectId: string, cellIndex: number) => `scene-clip-${projectId}-${cellIndex}`;
/** The raw upload (a MediaFile the web request stored) to convert and show on the scene. */
export type SceneClipInput = { projectId: string; userId: string; cellIndex: number; uploadFileId: string };
export type SceneClipResult = { imageUrl: string; clipUrl: string };
/** What the scene's card shows while the clip converts: the share of the clip converted so far, when known. */
export type SceneClipProgress = { phase: "converting"; percent: number | null };
/** An upload the worker refused (too long, no video): retrying cannot help; details[0] is the HTTP status. */
export const SCENE_MEDIA_REJECTED = "SceneMediaRejected";
