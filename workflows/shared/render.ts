// The render stage's contract: workflows/render.ts (orchestration), workflows/activities/render.ts (the I/O),
// app/server/render.server.ts and app/routes/render/ (the web side), app/components/render/ (the view).
import { defineQuery, defineSignal } from "@temporalio/workflow";
import type { VideoBrand } from "~/lib/brand";
import type { CaptionStyle } from "~/lib/caption-style";

export type RenderWorkflowInput = {
  /** The RenderedVideo row this run fills in. */
  renderId: string;
  userId: string;
  projectId: string;
  width: number;
  height: number;
  captions: boolean;
  /** The project's caption style when the render started (runs started before styles existed have none: boxed). */
  captionStyle?: CaptionStyle;
  /**
   * The chunks a make-video run drew while the scenes were made (decision 292): the cut's length in frames, and the
   * chunks still being drawn when the render started, which the render takes once renderEarlyChunkSettledSignal
   * says each is over (drawn, or failed: then the render draws it).
   */
  early?: { cutFrames: number; drawing: { fromScene: number; toScene: number }[] };
};

export type RenderStatus = "preparing" | "rendering" | "saving" | "completed" | "failed";

/** The spec's render progress fields, less isRendering/isActive/elapsedTime, which the web side derives. */
export type RenderProgressState = {
  status: RenderStatus;
  totalScenes: number;
  completedScenes: number;
  currentScene: number;
  stage: string;
  /** 0 to 100 */
  progress: number;
  step: string;
  details: string;
  /** ms since the epoch */
  startedAt: number;
  error: string | null;
  /** The render activity's attempt: above 1 once a worker died mid-render and another resumed it. */
  attempt?: number;
};

export type RenderProgressUpdate = Partial<Omit<RenderProgressState, "startedAt">>;

/** What prepareRenderPlan collected: every scene's media with its measured voiceover length, and the music. */
/** "fast": the timeline compiled to one ffmpeg run; "exact": Remotion capturing every frame in the headless shell. */
export type RenderEngine = "fast" | "exact";
/** Which renderer renders a video and why; on the render's row and in the run's memo (`renderer`, `rendererReason`). */
export type RendererChoice = { engine: RenderEngine; reason: string };
export type RenderPlanScene = {
  imageFileId: string;
  audioFileId: string;
  audioDurationInSeconds: number;
  text: string;
  /** when each word of the voiceover is spoken, as stored with it (null: estimated from the text) */
  words?: { source: "provider" | "estimate"; audioSeconds: number; words: { text: string; start: number; end: number }[] } | null;
  /** the scene's muted clip, shown instead of the image */
  clip?: { fileId: string; durationInSeconds: number; fit?: "stretch" };
  /** how the scene comes in, when it has its own choice (decision 225) */
  transitionIn?: "none" | "fade" | "slide" | "zoom";
};
export type RenderPlan = RenderWorkflowInput & {
  fps: number;
  scenes: RenderPlanScene[];
  music: { fileId: string; volume: number } | null;
  renderer: RendererChoice;
  /** the video's transition between scenes (decision 225); hard cuts when absent */
  transition?: { kind: "none" | "fade" | "slide" | "zoom"; seconds: number };
  /** a channel's brand kit as the video shows it (issue 52, decision 249); absent for a video of no channel */
  brand?: VideoBrand;
};

/**
 * A render plan as the render workflow carries it: everything but the scenes, which wait in the RenderPlan table for
 * each activity to read (decision 140). A 240-scene plan with its word timings is about half a megabyte; given whole
 * to every activity of a chunked render it made one workflow task larger than gRPC's 4 MB, and the render stopped.
 */
export type RenderPlanRef = Omit<RenderPlan, "scenes"> & { sceneCount: number };
/** What the render activities take: a plan by reference, or whole (runs started before plans were stored). */
export type RenderPlanInput = RenderPlan | RenderPlanRef;
export const sceneCountOf = (plan: RenderPlanInput): number => ("scenes" in plan ? plan.scenes.length : plan.sceneCount);

export type RenderResult = { mediaFileId: string; videoUrl: string; durationSeconds: number; width: number; height: number };

export const renderProgressQuery = defineQuery<RenderProgressState>("renderProgress");
export const renderProgressSignal = defineSignal<[RenderProgressUpdate]>("renderProgressUpdate");
/** A chunked render's chunk (render-chunked.ts): how many of its frames are done, on which attempt. */
export type RenderChunkProgress = { chunk: number; frames: number; attempt: number };
export const renderChunkProgressSignal = defineSignal<[RenderChunkProgress]>("renderChunkProgress");
/** A chunked render's sound on its way to the platform's loudness (normaliseRenderSound): `done` from 0 to 1. */
export type RenderSoundProgress = { done: number; attempt: number };
export const renderSoundProgressSignal = defineSignal<[RenderSoundProgress]>("renderSoundProgress");
/** A chunk the make-video run was drawing when the render started is over (decision 292): by its scenes. */
export const renderEarlyChunkSettledSignal = defineSignal<[{ fromScene: number; toScene: number }]>("renderEarlyChunkSettled");
export const renderWorkflowId = (projectId: string) => `render-${projectId}`;
/** Errors a retry cannot fix (a scene without media, a missing project). */
export const RENDER_INPUT_ERROR = "RenderInputError";
/** The workflow's own failure type once the reason is recorded. */
export const RENDER_FAILED = "RenderFailed";
