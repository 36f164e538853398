// Where each stage of a make-video run stands (issue 53, decision 262): the run's own progress query says which
// stages wait, run, are done or failed and when each started and ended; the running ones' own workflows say how far
// they are (the script's and the render's percent, Generate All's pictures and voiceovers, the upload's bytes).
// Every answer comes through the progress cache, so many readers cost Temporal one query per workflow a second.
// Once the workflow is gone, the stages the run recorded at its end (VideoRun.stageTimes) are shown.
import type { VideoRun } from "~/generated/prisma/client";
import type { QueryDefinition } from "@temporalio/common";
import { trackProgress, type ProgressTrack } from "~/lib/render-eta";
import { pipelineProgress, type PipelineStage, type StageCount, type StageSample, type StageStatus, type StageView } from "~/lib/make-video-progress";
import type { MakeVideoOptions } from "~/lib/make-video-options";
import { MAKE_VIDEO_STAGE_LABELS, makeVideoProgressQuery, type MakeVideoProgress, type MakeVideoRunStatus, type MakeVideoStageState } from "../../workflows/shared/make-video";
import { backgroundMusicProgressQuery } from "../../workflows/shared/music";
import { renderProgressQuery } from "../../workflows/shared/render";
import { generateAllProgressQuery, type GenerateAllProgress } from "../../workflows/shared/scene-media";
import { scriptProgressQuery } from "../../workflows/shared/script";
import { youtubeUploadProgressQuery } from "../../workflows/shared/youtube-upload";
import { workflowSnapshot } from "./progress-cache.server";

export type RunProgress = {
  stages: (StageView & { label: string })[];
  /** Seconds until the whole video is done (every stage that still runs or waits); 0 when done; null once it stopped. */
  remainingSeconds: number | null;
  /** The run on one line: "script done · pictures 12/20 · music running · render waiting · about 1 min 10 s left". */
  progressLine: string;
};

/** A running stage's own measure: a percent and, for Generate All, the pictures or voiceovers made. */
type Measure = { percent: number | null; count?: StageCount | null; startedAt?: number | null };

const mediaMeasure = (p: GenerateAllProgress): Measure => {
  const total = p.imagesTotal + p.voiceoversTotal;
  const done = p.imagesDone + p.imagesFailed + p.voiceoversDone + p.voiceoversFailed;
  const voiceovers = p.phase === "voiceovers" || (p.imagesTotal > 0 && p.imagesDone + p.imagesFailed >= p.imagesTotal && p.voiceoversTotal > 0);
  const count: StageCount | null = voiceovers
    ? { done: p.voiceoversDone, total: p.voiceoversTotal, of: "voiceovers" }
    : p.imagesTotal > 0
      ? { done: p.imagesDone, total: p.imagesTotal, of: "pictures" }
      : null;
  return { percent: total > 0 ? (100 * done) / total : null, count };
};

/** How to read a running stage's own workflow; stages without one (storyboard, music, thumbnail) are estimated. */
const MEASURES: Partial<Record<PipelineStage, { query: QueryDefinition<unknown>; read: (p: never) => Measure }>> = {
  script: { query: scriptProgressQuery as QueryDefinition<unknown>, read: (p: { percentComplete: number }) => ({ percent: p.percentComplete }) },
  media: { query: generateAllProgressQuery as QueryDefinition<unknown>, read: mediaMeasure },
  render: { query: renderProgressQuery as QueryDefinition<unknown>, read: (p: { progress: number; startedAt: number }) => ({ percent: p.progress, startedAt: p.startedAt }) },
  mix: { query: backgroundMusicProgressQuery as QueryDefinition<unknown>, read: (p: { percent: number }) => ({ percent: p.percent }) },
  upload: { query: youtubeUploadProgressQuery as QueryDefinition<unknown>, read: (p: { percent: number }) => ({ percent: p.percent }) },
};

async function measureOf(state: MakeVideoStageState, since: Date): Promise<Measure> {
  const how = MEASURES[state.stage];
  if (!how || !state.workflowId) return { percent: null };
  const snap = await workflowSnapshot(state.workflowId, how.query, since).catch(() => null);
  return snap?.progress ? how.read(snap.progress as never) : { percent: null };
}

/**
 * Each measured stage's progress track between reads (the render page's estimate, app/lib/render-eta.ts): the time
 * left at the pace of its recent progress, past a slow start. Per web process, at most MAX_TRACKS (oldest dropped).
 */
const tracks = new Map<string, ProgressTrack>();
const MAX_TRACKS = 2000;

function trackedRemaining(workflowId: string, percent: number, elapsedSeconds: number): number | null {
  const track = trackProgress(tracks.get(workflowId) ?? null, { percent, elapsedSeconds });
  tracks.delete(workflowId);
  tracks.set(workflowId, track);
  if (tracks.size > MAX_TRACKS) tracks.delete(tracks.keys().next().value!);
  return track.remainingSeconds;
}

/** The workflow's stage states as the doors show them: "pending" is "waiting"; a stopped run's running stages are not running. */
function statusOf(state: MakeVideoStageState["state"], run: MakeVideoRunStatus): StageStatus {
  if (state === "pending") return "waiting";
  if (state === "running" && run !== "running" && run !== "queued") return run === "failed" ? "failed" : "waiting";
  return state;
}

/** The stages the run recorded at its end (null before its first end). */
const storedStates = (run: VideoRun): MakeVideoStageState[] | null => (Array.isArray(run.stageTimes) && run.status !== "running" && run.status !== "queued" ? (run.stageTimes as unknown as MakeVideoStageState[]) : null);

/** Without a recorded or live answer: the main line up to the row's stage, the stages beside it guessed from it. */
function derivedStates(run: VideoRun, options: MakeVideoOptions): MakeVideoStageState[] {
  const order: PipelineStage[] = ["script", "storyboard", "media", "render", "mix", "upload"];
  const at = run.stage === "done" ? order.length : order.indexOf(run.stage as PipelineStage);
  const stateOf = (stage: PipelineStage): MakeVideoStageState["state"] => {
    if ((stage === "music" || stage === "mix") && !options.music) return "skipped";
    if (stage === "upload" && !options.upload) return "skipped";
    if (run.status === "completed") return stage === "mix" ? "skipped" : "done";
    if (stage === "music") return at > order.indexOf("render") || (at === order.indexOf("render") && run.status !== "running") ? "done" : "pending";
    if (stage === "thumbnail") return at > order.indexOf("render") ? "done" : "pending";
    const i = order.indexOf(stage);
    if (i < at) return "done";
    if (i === at) return run.status === "failed" ? "failed" : run.status === "running" ? "running" : "pending";
    return "pending";
  };
  return (["script", "storyboard", "media", "music", "render", "mix", "thumbnail", "upload"] as const).map((stage) => ({ stage, state: stateOf(stage), workflowId: null }));
}

/**
 * The run's stages, its time left and its one line. While it runs: live, from its workflow and the running stages'
 * own workflows (through the cache); otherwise, or when Temporal does not answer, from its row.
 */
export async function runProgressOf(run: VideoRun, now = Date.now()): Promise<RunProgress> {
  const status = run.status as MakeVideoRunStatus;
  const measures = new Map<PipelineStage, Measure>();
  const since = run.startedAt ?? run.createdAt;
  if ((status === "running" || status === "queued") && run.workflowId) {
    const snap = await workflowSnapshot<MakeVideoProgress>(run.workflowId, makeVideoProgressQuery, since).catch(() => null);
    if (snap?.progress) {
      const states = snap.progress.stages;
      const running = states.filter((s) => s.state === "running");
      const measured = await Promise.all(running.map((s) => measureOf(s, since)));
      running.forEach((s, i) => measures.set(s.stage, measured[i]!));
      return progressFrom(run, states, measures, now);
    }
  }
  return rowProgressOf(run, now);
}

/** The run's stages as its row knows them: recorded at its end, else guessed from its stage (no Temporal call). */
export function rowProgressOf(run: VideoRun, now = Date.now()): RunProgress {
  return progressFrom(run, storedStates(run) ?? derivedStates(run, run.options as unknown as MakeVideoOptions), new Map(), now);
}

function progressFrom(run: VideoRun, states: MakeVideoStageState[], measures: Map<PipelineStage, Measure>, now: number): RunProgress {
  const options = run.options as unknown as MakeVideoOptions;
  const status = run.status as MakeVideoRunStatus;
  // a stage an earlier run of this video made keeps that run's times (a publish after the render)
  const earlier = Array.isArray(run.stageTimes) ? (run.stageTimes as unknown as MakeVideoStageState[]) : [];
  const samples: StageSample[] = states.map((s) => {
    const m = measures.get(s.stage);
    const before = s.state === "done" && s.startedAt == null ? earlier.find((b) => b.stage === s.stage && b.startedAt != null) : undefined;
    const startedAt = s.startedAt ?? before?.startedAt ?? m?.startedAt ?? null;
    const measuredRemaining = m?.percent != null && startedAt !== null && s.workflowId ? trackedRemaining(`${s.workflowId}:${startedAt}`, m.percent, Math.max(0, (now - startedAt) / 1000)) : null;
    return {
      stage: s.stage,
      status: statusOf(s.state, status),
      percent: m?.percent ?? null,
      count: m?.count ?? null,
      startedAt,
      endedAt: s.endedAt ?? before?.endedAt ?? null,
      measuredRemaining,
    };
  });
  const facts = { durationSeconds: options.duration ?? 60, height: options.quality ?? 1080 };
  const { stages, remainingSeconds, line } = pipelineProgress(samples, facts, { status, now });
  return { stages: stages.map((v) => ({ ...v, label: MAKE_VIDEO_STAGE_LABELS[v.stage] })), remainingSeconds, progressLine: line };
}
