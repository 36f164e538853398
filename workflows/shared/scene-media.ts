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
export type GenerateAllInput = { projectId: string; userId: string };

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
