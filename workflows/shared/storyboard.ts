// The storyboard stage's contract (the scene split): workflows/storyboard.ts, workflows/activities/storyboard.ts,
// app/server/storyboard.server.ts and app/routes/storyboard/. Scene media has its own: ./scene-media.ts.

export const storyboardWorkflowId = (projectId: string) => `storyboard-${projectId}`;

export type StoryboardWorkflowInput = { projectId: string; userId: string };
export type StoryboardWorkflowResult = { cellCount: number };

/** No completed script to split: retrying cannot help. */
export const NO_SCRIPT = "NoScript";
/** The workflow's own failure type once the reason is recorded. */
export const STORYBOARD_FAILED = "StoryboardGenerationFailed";
