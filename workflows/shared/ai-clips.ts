// The AI clip stage's contract (issue 50): animate chosen scenes with Veo or Runway, within the creator's budget.
// Used by workflows/ai-clips.ts, workflows/activities/ai-clips.ts and the web side. No I/O here.
export const animateScenesWorkflowId = (projectId: string) => `animate-scenes-${projectId}`;

export type AiClipSource = "picture" | "words";
export type AnimateScenesInput = {
  userId: string;
  projectId: string;
  provider: "veo" | "runway";
  /** The scenes to animate (cell indexes). */
  cellIndexes: number[];
  /** From the scene's picture (image-to-video) or from its words (text-to-video). */
  source: AiClipSource;
  /** Tests shorten the wait between status checks; the provider's own otherwise. */
  pollIntervalMs?: number;
};
export type SceneAiClipInput = Omit<AnimateScenesInput, "cellIndexes"> & { cellIndex: number };
export type SceneAiClipResult = { cellIndex: number; clipUrl: string; jobId: string; seconds: number; costCents: number };
export type AnimateScenesResult = { clips: SceneAiClipResult[]; failures: { cellIndex: number; message: string }[] };

/** A request over the monthly budget or the video's cap: refused before any call, never retried. */
export const CLIP_BUDGET_REFUSED = "ClipBudgetRefused";
/** No key for the chosen service, or a scene with nothing to start from: retrying cannot help. */
export const AI_CLIP_REJECTED = "AiClipRejected";
