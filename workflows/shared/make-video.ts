// The make-video contract (issue 32, decision 161): the workflow's id, input, stages and progress. Shared by
// workflows/make-video.ts, workflows/activities/make-video.ts and app/server/make-video.server.ts. The options a
// client sends live in app/lib/make-video-options.ts. No I/O here: the workflow bundle imports it.
import { defineQuery } from "@temporalio/workflow";

export type { MakeVideoOptions, MakeVideoOptionsInput } from "~/lib/make-video-options";

// ── The workflow ────────────────────────────────────────────────────────────────────────────────────
/** The stages in the order they run; each is a child workflow (the page's own stage workflow) or skipped. */
export const MAKE_VIDEO_STAGES = ["script", "storyboard", "media", "music", "render", "mix", "thumbnail", "upload"] as const;
export type MakeVideoStage = (typeof MAKE_VIDEO_STAGES)[number];
/** Where a run is: before its first stage ("queued"), at a stage, or done. */
export type MakeVideoPosition = "queued" | MakeVideoStage | "done";

export const MAKE_VIDEO_STAGE_LABELS: Record<MakeVideoPosition, string> = {
  queued: "Waiting to start",
  script: "Writing the script",
  storyboard: "Splitting the script into scenes",
  media: "Making pictures and voiceovers",
  music: "Composing background music",
  render: "Rendering the video",
  mix: "Mixing in the music",
  thumbnail: "Making the thumbnail",
  upload: "Uploading to YouTube",
  done: "Done",
};

/** How much of the whole run each stage is worth, in percent (rendering and scene media take longest). */
export const MAKE_VIDEO_STAGE_WEIGHTS: Record<MakeVideoStage, number> = {
  script: 10,
  storyboard: 5,
  media: 35,
  music: 8,
  render: 30,
  mix: 4,
  thumbnail: 3,
  upload: 5,
};

export type MakeVideoRunStatus = "queued" | "running" | "completed" | "failed" | "cancelled";

/** The workflow id of a project's whole-video run: one per project, so a second start joins instead of duplicating. */
export const makeVideoWorkflowId = (projectId: string) => `make-video-${projectId}`;

/** Shortcuts for tests (a tiny render, no pauses); never set by the pages or the API. */
export type MakeVideoTuning = {
  renderSize?: { width: number; height: number };
  generateAllPauses?: { imageBatchMs: number; voiceoverMs: number };
  musicPollIntervalMs?: number;
};

export type MakeVideoWorkflowInput = {
  /** The VideoRun row this run writes. */
  runId: string;
  userId: string;
  projectId: string;
  tuning?: MakeVideoTuning;
};

export type MakeVideoResult = { videoUrl: string; thumbnailUrl: string | null; youtubeUrl: string | null };

export type MakeVideoStageState = {
  stage: MakeVideoStage;
  state: "pending" | "running" | "done" | "skipped" | "failed";
  workflowId: string | null;
  /** When this run started and ended the stage, ms since the epoch (workflow time); absent in runs started before issue 53's progress. */
  startedAt?: number | null;
  endedAt?: number | null;
};

export type MakeVideoProgress = {
  status: MakeVideoRunStatus;
  stage: MakeVideoPosition;
  /** 0 to 100 over the whole run (stage weights). */
  percent: number;
  stages: MakeVideoStageState[];
  /** What went wrong, in words, once a stage failed. */
  error: string | null;
};

export const makeVideoProgressQuery = defineQuery<MakeVideoProgress>("makeVideoProgress");

/** The run's options are unusable (a missing project, a plan that no longer allows a stage): retrying cannot help. */
export const MAKE_VIDEO_INPUT_ERROR = "MakeVideoInputError";
/** The workflow's own failure type once the failed stage is recorded. */
export const MAKE_VIDEO_FAILED = "MakeVideoFailed";

/** Percent of the whole run when `stage` has reached `stagePercent` of its own work (skipped stages count as done). */
export function overallPercent(stage: MakeVideoPosition, stagePercent = 0): number {
  if (stage === "queued") return 0;
  if (stage === "done") return 100;
  let before = 0;
  for (const s of MAKE_VIDEO_STAGES) {
    if (s === stage) break;
    before += MAKE_VIDEO_STAGE_WEIGHTS[s];
  }
  const within = (MAKE_VIDEO_STAGE_WEIGHTS[stage] * Math.min(100, Math.max(0, stagePercent))) / 100;
  return Math.min(99, Math.round(before + within));
}
