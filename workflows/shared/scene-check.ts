// The scene check's contract (issue 50, decision 226): each scene's picture scored against what is said. No I/O here.
export const sceneCheckWorkflowId = (projectId: string) => `scene-check-${projectId}`;
export type SceneCheckInput = { userId: string; projectId: string; cellIndexes: number[] };
export type SceneCheckOutcome = { cellIndex: number; checked: boolean; passed?: boolean; score?: number };
/** Scenes scoring below this (0 to 100) are marked on the storyboard. */
export const SCENE_CHECK_BAR = 60;
