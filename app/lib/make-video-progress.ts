// What a make-video run is doing right now, as every door shows it (issue 53, decision 262): each stage with its own
// status, percent and start and end, several running at once (the pipeline of decision 252), and one time left for
// the whole video. Pure: the server fills in what the workflow and its stage children report; the pages, /api/v1,
// MCP and the CLI read the result.
import { ESTIMATE_FROM_PERCENT, trackProgress } from "./render-eta";

/** From this percent on, a stage's time left is its measured pace alone (below it, blended with its estimate). */
export const TRUST_PERCENT = 30;

/** The make-video stages (workflows/shared/make-video.ts's MAKE_VIDEO_STAGES, checked equal by a unit test). */
export const PIPELINE_STAGES = ["script", "storyboard", "media", "music", "render", "mix", "thumbnail", "upload"] as const;
export type PipelineStage = (typeof PIPELINE_STAGES)[number];
/** skipped: not part of this video (no music asked, no upload), or nothing left to do (the render carried the music). */
export const STAGE_STATUSES = ["waiting", "running", "done", "failed", "skipped"] as const;
export type StageStatus = (typeof STAGE_STATUSES)[number];

/** What each stage needs finished before it starts (decision 252's graph). */
export const STAGE_NEEDS: Record<PipelineStage, readonly PipelineStage[]> = {
  script: [],
  music: [],
  storyboard: ["script"],
  media: ["storyboard"],
  render: ["media", "music"],
  mix: ["render"],
  thumbnail: ["media"],
  upload: ["mix", "thumbnail", "script"],
};

/** The stage's short name in a one-line summary ("pictures 12/20 · music running"). */
export const STAGE_SHORT_NAMES: Record<PipelineStage, string> = {
  script: "script",
  storyboard: "scenes",
  media: "pictures",
  music: "music",
  render: "render",
  mix: "mix",
  thumbnail: "thumbnail",
  upload: "upload",
};

/** A count a stage reports (Generate All's pictures and voiceovers). */
export type StageCount = { done: number; total: number; of: "pictures" | "voiceovers" };

/** One stage as measured: its status, its own percent where its workflow reports one, and when it ran (ms). */
export type StageSample = {
  stage: PipelineStage;
  status: StageStatus;
  /** the stage's own percent (0 to 100) when its workflow reports one; null when it does not */
  percent: number | null;
  count?: StageCount | null;
  startedAt: number | null;
  endedAt: number | null;
  /** seconds left at the pace of the stage's recent progress (a track kept between reads, app/lib/render-eta.ts) */
  measuredRemaining?: number | null;
};

export type StageView = {
  stage: PipelineStage;
  status: StageStatus;
  /** 0 to 100: measured where the stage reports it, else from its elapsed time against its estimate */
  percent: number;
  count: StageCount | null;
  startedAt: string | null;
  endedAt: string | null;
  /** seconds until this stage should end (0 once it has; null when the run stopped) */
  remainingSeconds: number | null;
};

/** What a stage's length depends on. */
export type VideoFacts = { durationSeconds: number; height: number };

/**
 * Seconds a stage takes on one quiet offline worker, from the measured runs (docs/benchmarks.md, issue 53): a 60 s
 * 1080p video took script 5.3, storyboard 1.1, Generate All 7.2, music 3.1, render 51.8, thumbnail 0.3 and upload
 * 0.8 s; a 60-minute one script 20, Generate All 491, music 9 and render 2,870 s (0.8 s a second of 1080p video).
 * The render scales with the pixels. The mix has nothing to do when the render carried the music (decision 252).
 */
export function estimateStageSeconds(stage: PipelineStage, facts: VideoFacts, opts: { mixRuns?: boolean } = {}): number {
  const d = Math.max(1, facts.durationSeconds);
  const pixels = Math.max(0.15, (Math.max(144, facts.height) / 1080) ** 2);
  switch (stage) {
    case "script":
      return 4 + 0.005 * d;
    case "storyboard":
      return 1 + 0.001 * d;
    case "media":
      return 2 + 0.13 * d;
    case "music":
      return 3 + 0.002 * d;
    case "render":
      return 2 + 0.8 * d * pixels;
    case "mix":
      return opts.mixRuns ? 1 + 0.12 * d : 0;
    case "thumbnail":
      return 1;
    case "upload":
      return 1 + 0.01 * d;
  }
}

/** The pace's bounds: one odd stage does not make the estimate absurd. */
export const PACE_BOUNDS = { min: 0.5, max: 10 } as const;

/**
 * How much slower (above 1) or faster this run is than its estimates: the time its finished stages took over what
 * they were estimated to take. Before any stage has finished, the stages running longer than their estimates give it,
 * as if they ended now (a loaded machine shows in the first stage, long before it ends). Once one has finished, a
 * stage running late no longer stretches what waits: with its overrun counted, a one-second stage running eight
 * multiplied everything after it, and the time left climbed several seconds a second (decision 276); the late stage's
 * own time left says it. Bounded to PACE_BOUNDS.
 */
export function paceOf(samples: StageSample[], estimate: (stage: PipelineStage) => number, now?: number): number {
  const finished = { actual: 0, expected: 0 };
  const late = { actual: 0, expected: 0 };
  for (const s of samples) {
    const e = estimate(s.stage);
    if (e < 0.5 || s.startedAt === null) continue;
    if (s.status === "done" && s.endedAt !== null) {
      finished.actual += Math.max(0, s.endedAt - s.startedAt) / 1000;
      finished.expected += e;
    } else if (s.status === "running" && now !== undefined) {
      const elapsed = Math.max(0, now - s.startedAt) / 1000;
      if (elapsed > e) {
        late.actual += elapsed;
        late.expected += e;
      }
    }
  }
  const from = finished.expected >= 1 ? finished : late;
  const pace = from.expected < 1 ? 1 : from.actual / from.expected;
  return Math.min(PACE_BOUNDS.max, Math.max(PACE_BOUNDS.min, pace));
}

/**
 * Seconds left of a running stage. With its own percent past TRUST_PERCENT, at the pace it has kept (the render
 * page's estimate, app/lib/render-eta.ts); below a tenth, the part of its estimate still to do, and between the two a
 * blend; without a percent, its estimate less the time it has run, never below a sixth of the estimate (a stage that
 * overruns is not about to be done).
 */
export function runningStageRemaining(sample: StageSample, estimateSeconds: number, now: number): { remaining: number; percent: number } {
  const elapsed = sample.startedAt === null ? 0 : Math.max(0, (now - sample.startedAt) / 1000);
  const own = sample.percent === null ? null : Math.min(100, Math.max(0, sample.percent));
  const byEstimate = own === null ? Math.max(estimateSeconds - elapsed, estimateSeconds / 6) : estimateSeconds * (1 - own / 100);
  if (own !== null && elapsed > 0) {
    const track = sample.measuredRemaining != null ? { remainingSeconds: sample.measuredRemaining } : trackProgress(null, { percent: own, elapsedSeconds: elapsed });
    if (track.remainingSeconds !== null) {
      // from a tenth to TRUST_PERCENT the measured pace takes over from the estimate bit by bit: a render's slow
      // start-up (its plan, its first frames) would otherwise make the first measured figure jump far up
      const trust = Math.min(1, (own - ESTIMATE_FROM_PERCENT) / (TRUST_PERCENT - ESTIMATE_FROM_PERCENT));
      return { remaining: trust * track.remainingSeconds + (1 - trust) * byEstimate, percent: own };
    }
  }
  const percent = own ?? (estimateSeconds > 0 ? Math.min(95, Math.floor((100 * elapsed) / (elapsed + byEstimate))) : 0);
  return { remaining: byEstimate, percent };
}

/**
 * Each stage's view and the whole video's time left: the latest end over the stage graph, where a running stage ends
 * when its own remaining time is over and a waiting one its estimate (times this run's pace) after the last of the
 * stages it needs. Null once the run stopped without finishing; 0 when it finished.
 */
export function pipelineProgress(
  samples: StageSample[],
  facts: VideoFacts,
  run: { status: "queued" | "running" | "completed" | "failed" | "cancelled"; now: number },
): { stages: StageView[]; remainingSeconds: number | null; line: string } {
  const byStage = new Map(samples.map((s) => [s.stage, s]));
  const render = byStage.get("render");
  // the render was made before this run (no start recorded) and the music is asked: the mix has a video to do
  const mixRuns = render?.status === "done" && render.startedAt === null && byStage.get("music")?.status !== "skipped";
  const estimate = (stage: PipelineStage) => estimateStageSeconds(stage, facts, { mixRuns });
  const pace = paceOf(samples, estimate, run.now);
  const stopped = run.status === "failed" || run.status === "cancelled";
  const own = new Map<PipelineStage, { remaining: number; percent: number }>();
  for (const stage of PIPELINE_STAGES) {
    const s = byStage.get(stage) ?? { stage, status: "waiting" as const, percent: null, startedAt: null, endedAt: null };
    if (s.status === "done" || s.status === "skipped") own.set(stage, { remaining: 0, percent: 100 });
    else if (s.status === "failed") own.set(stage, { remaining: 0, percent: Math.round(s.percent ?? 0) });
    else if (s.status === "running") own.set(stage, runningStageRemaining(s, estimate(stage) * pace, run.now));
    else own.set(stage, { remaining: estimate(stage) * pace, percent: 0 });
  }
  const ends = new Map<PipelineStage, number>();
  const endOf = (stage: PipelineStage): number => {
    const known = ends.get(stage);
    if (known !== undefined) return known;
    const status = byStage.get(stage)?.status ?? "waiting";
    // a stage running ahead of what it needs (the render's chunks drawn while the scenes are made, decision 297)
    // ends its remaining part after them, as a waiting one does
    const ahead = status === "running" && STAGE_NEEDS[stage].some((need) => !["done", "skipped"].includes(byStage.get(need)?.status ?? "waiting"));
    const start = status === "waiting" || ahead ? Math.max(0, ...STAGE_NEEDS[stage].map(endOf)) : 0;
    const end = start + own.get(stage)!.remaining;
    ends.set(stage, end);
    return end;
  };
  const whole = Math.max(0, ...PIPELINE_STAGES.map(endOf));
  const stages = PIPELINE_STAGES.map((stage): StageView => {
    const s = byStage.get(stage);
    const status = s?.status ?? "waiting";
    return {
      stage,
      status,
      percent: Math.round(own.get(stage)!.percent),
      count: s?.count ?? null,
      startedAt: s?.startedAt != null ? new Date(s.startedAt).toISOString() : null,
      endedAt: s?.endedAt != null ? new Date(s.endedAt).toISOString() : null,
      remainingSeconds: stopped && status !== "done" && status !== "skipped" ? null : Math.round(endOf(stage)),
    };
  });
  const remainingSeconds = run.status === "completed" ? 0 : stopped ? null : Math.round(whole);
  // the line leaves out a mix that will have nothing to do, and says "running" for stages that report no percent
  const shown = stages.filter((v) => !(v.stage === "mix" && v.status === "waiting" && !mixRuns));
  const measured = new Set(samples.filter((s) => s.percent !== null).map((s) => s.stage));
  return { stages, remainingSeconds, line: progressLine(shown, remainingSeconds, measured) };
}

/** "about 1 min 10 s left": seconds under a minute to 5 s, under ten minutes to 10 s, then minutes, then hours. */
export function formatTimeLeft(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 5) return "a few seconds left";
  const fives = Math.round(s / 5) * 5;
  if (fives < 60) return `about ${fives} s left`;
  const tens = Math.round(s / 10) * 10;
  if (tens < 600) {
    const min = Math.floor(tens / 60);
    const sec = tens % 60;
    return `about ${min} min${sec ? ` ${sec} s` : ""} left`;
  }
  const minutes = Math.round(s / 60);
  if (minutes < 60) return `about ${minutes} min left`;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `about ${h} h${m ? ` ${m} min` : ""} left`;
}

/** One stage as the summary line says it: "script done", "pictures 12/20", "render 45%", "music running". */
export function stagePhrase(view: Pick<StageView, "stage" | "status" | "percent" | "count">, measured = true): string {
  const name = STAGE_SHORT_NAMES[view.stage];
  if (view.status !== "running") return `${name} ${view.status}`;
  if (view.count) return `${view.count.of} ${view.count.done}/${view.count.total}`;
  return measured && view.percent > 0 ? `${name} ${view.percent}%` : `${name} running`;
}

/**
 * The run on one line, stages in the order they run, skipped ones left out, then the time left:
 * "script done · pictures 12/20 · music running · render waiting · about 1 min 10 s left".
 * `measured`: the stages whose percent their own workflow reports (the others say "running").
 */
export function progressLine(stages: Pick<StageView, "stage" | "status" | "percent" | "count">[], remainingSeconds: number | null, measured: ReadonlySet<PipelineStage> = new Set()): string {
  const parts = stages.filter((s) => s.status !== "skipped").map((s) => stagePhrase(s, measured.has(s.stage)));
  if (remainingSeconds !== null && stages.some((s) => s.status === "running" || s.status === "waiting")) parts.push(formatTimeLeft(remainingSeconds));
  return parts.join(" · ");
}
