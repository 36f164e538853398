import { describe, expect, it } from "vitest";
import { MAKE_VIDEO_STAGES } from "../../workflows/shared/make-video";
import {
  estimateStageSeconds,
  formatTimeLeft,
  paceOf,
  PIPELINE_STAGES,
  pipelineProgress,
  progressLine,
  runningStageRemaining,
  STAGE_NEEDS,
  type PipelineStage,
  type StageSample,
  type StageStatus,
} from "./make-video-progress";

const FACTS = { durationSeconds: 60, height: 1080 };
const T0 = Date.parse("2026-11-29T05:00:00Z");
const at = (seconds: number) => T0 + seconds * 1000;
const sample = (stage: PipelineStage, status: StageStatus, extra: Partial<StageSample> = {}): StageSample => ({ stage, status, percent: null, startedAt: null, endedAt: null, ...extra });
const est = (stage: PipelineStage) => estimateStageSeconds(stage, FACTS);

describe("a make-video run's stages and its time left", () => {
  it("knows the workflow's stages", () => {
    expect([...PIPELINE_STAGES]).toEqual([...MAKE_VIDEO_STAGES]);
  });

  it("reports the music and the pictures running at once, and the whole video's time left along the longest path (media, then render)", () => {
    const script = est("script");
    const storyboard = est("storyboard");
    const now = at(10);
    const samples = [
      sample("script", "done", { startedAt: at(0), endedAt: at(script) }),
      sample("music", "running", { startedAt: at(7) }),
      sample("storyboard", "done", { startedAt: at(script), endedAt: at(script + storyboard) }),
      sample("media", "running", { startedAt: at(script + storyboard), percent: 50, count: { done: 10, total: 20, of: "pictures" } }),
      sample("render", "waiting"),
      sample("mix", "waiting"),
      sample("thumbnail", "waiting"),
      sample("upload", "skipped"),
    ];
    const { stages, remainingSeconds, line } = pipelineProgress(samples, FACTS, { status: "running", now });
    expect(stages.filter((s) => s.status === "running").map((s) => s.stage)).toEqual(["media", "music"]);
    // the pictures are half made after (10 - script - storyboard) s: as long again; then the render's estimate
    const mediaLeft = 10 - script - storyboard;
    expect(stages.find((s) => s.stage === "media")!.remainingSeconds).toBe(Math.round(mediaLeft));
    expect(remainingSeconds).toBe(Math.round(mediaLeft + est("render")));
    // the music is near its estimate's end (it may take a little longer); the render waits for the pictures longer
    expect(stages.find((s) => s.stage === "music")!.remainingSeconds).toBe(Math.round(est("music") / 6));
    expect(stages.find((s) => s.stage === "script")).toMatchObject({ status: "done", percent: 100, remainingSeconds: 0, startedAt: "2026-11-29T05:00:00.000Z" });
    // the mix that will have nothing to do (the render carries the music) stays out of the line
    expect(line).toBe(`script done · scenes done · pictures 10/20 · music running · render waiting · thumbnail waiting · ${formatTimeLeft(remainingSeconds!)}`);
  });

  it("a render drawing its first chunks while the pictures are made runs beside them, and its rest comes after them", () => {
    const script = est("script");
    const storyboard = est("storyboard");
    const mediaStart = script + storyboard;
    const now = at(mediaStart + 4);
    const samples = [
      sample("script", "done", { startedAt: at(0), endedAt: at(script) }),
      sample("music", "done", { startedAt: at(0), endedAt: at(est("music")) }),
      sample("storyboard", "done", { startedAt: at(script), endedAt: at(mediaStart) }),
      sample("media", "running", { startedAt: at(mediaStart), percent: 50, count: { done: 2, total: 4, of: "voiceovers" } }),
      // its first chunk started 2 s ago; its own workflow has not started, so no percent
      sample("render", "running", { startedAt: at(mediaStart + 2) }),
      sample("mix", "waiting"),
      sample("thumbnail", "waiting"),
      sample("upload", "skipped"),
    ];
    const { stages, remainingSeconds, line } = pipelineProgress(samples, FACTS, { status: "running", now });
    expect(stages.filter((s) => s.status === "running").map((s) => s.stage)).toEqual(["media", "render"]);
    // the pictures need 4 s more; the render's estimate less its 2 s so far comes after them, not beside them
    const render = stages.find((s) => s.stage === "render")!;
    expect(render.remainingSeconds).toBe(Math.round(4 + est("render") - 2));
    expect(remainingSeconds).toBe(render.remainingSeconds);
    expect(line).toBe(`script done · scenes done · voiceovers 2/4 · music done · render running · thumbnail waiting · ${formatTimeLeft(remainingSeconds!)}`);
  });

  it("counts down second by second when every stage takes what it was estimated to", () => {
    // a run that goes exactly as estimated: stages start when what they need has ended
    const ends = new Map<PipelineStage, number>();
    const starts = new Map<PipelineStage, number>();
    const endOf = (stage: PipelineStage): number => {
      if (!ends.has(stage)) {
        const start = Math.max(0, ...STAGE_NEEDS[stage].map(endOf));
        starts.set(stage, start);
        ends.set(stage, start + est(stage));
      }
      return ends.get(stage)!;
    };
    const total = Math.max(...PIPELINE_STAGES.map(endOf));
    const seen: number[] = [];
    let mostAtOnce = 0;
    for (let t = 0; t < total; t += 1) {
      const samples = PIPELINE_STAGES.map((stage) => {
        const start = starts.get(stage)!;
        const end = ends.get(stage)!;
        if (t >= end) return sample(stage, "done", { startedAt: at(start), endedAt: at(end) });
        if (t >= start) {
          // the render reports its percent, the others do not
          const percent = stage === "render" ? (100 * (t - start)) / (end - start) : null;
          return sample(stage, "running", { startedAt: at(start), percent });
        }
        return sample(stage, "waiting");
      });
      const { remainingSeconds, stages } = pipelineProgress(samples, FACTS, { status: "running", now: at(t) });
      mostAtOnce = Math.max(mostAtOnce, stages.filter((s) => s.status === "running").length);
      seen.push(remainingSeconds!);
    }
    expect(mostAtOnce).toBeGreaterThanOrEqual(2);
    expect(seen[0]).toBe(Math.round(total));
    for (let i = 1; i < seen.length; i++) expect(seen[i]!, `second ${i}`).toBeLessThanOrEqual(seen[i - 1]!);
    expect(seen.at(-1)!).toBeLessThanOrEqual(2);
  });

  it("a run slower than its estimates stretches what is still to come by the same pace", () => {
    const slow = [sample("script", "done", { startedAt: at(0), endedAt: at(2 * est("script")) }), sample("music", "skipped"), sample("mix", "skipped"), sample("upload", "skipped")];
    expect(paceOf(slow, est)).toBeCloseTo(2, 5);
    const { remainingSeconds } = pipelineProgress(slow, FACTS, { status: "running", now: at(2 * est("script")) });
    const rest = est("storyboard") + est("media") + est("render");
    expect(remainingSeconds).toBe(Math.round(2 * rest));
    // and the pace is bounded: one odd stage does not make the estimate absurd
    expect(paceOf([sample("script", "done", { startedAt: at(0), endedAt: at(100 * est("script")) })], est)).toBe(10);
  });

  it("a stage still running past its estimate already says the machine is slow", () => {
    const samples = [sample("script", "running", { startedAt: at(0), percent: 90 }), sample("music", "done", { startedAt: at(0), endedAt: at(est("music")) })];
    // the script has taken three times its estimate so far; nothing has finished yet, so that is the pace
    const script3 = [sample("script", "running", { startedAt: at(0), percent: 90 })];
    expect(paceOf(script3, est, at(3 * est("script")))).toBeCloseTo(3, 5);
    // once the music has finished at its estimate, the finished stages give the pace: the late script's own time says it
    expect(paceOf(samples, est, at(3 * est("script")))).toBe(1);
    // within its estimate, a running stage says nothing yet
    expect(paceOf(samples, est, at(est("script") / 2))).toBe(1);
    // what waits is estimated at that pace
    const { stages } = pipelineProgress([...script3, sample("upload", "skipped")], FACTS, { status: "running", now: at(3 * est("script")) });
    const script = stages.find((s) => s.stage === "script")!.remainingSeconds!;
    expect(stages.find((s) => s.stage === "storyboard")!.remainingSeconds).toBe(Math.round(script + 3 * est("storyboard")));
  });

  it("a short stage running late does not make the time left climb a second for every second it overruns", () => {
    // a loaded machine, as CI's make-video-api run saw it: a 10 s 720p Short whose stages take two to four times their
    // estimates. Read every half second, the time left may rise while the first stage shows the pace, but once a stage
    // has finished it never rises more than a quarter over any earlier read (it climbed from 14 s to 32 s in that run)
    const facts = { durationSeconds: 10, height: 1280 };
    const estimate = (stage: PipelineStage) => estimateStageSeconds(stage, facts);
    const slowBy: Record<PipelineStage, number> = { script: 2, storyboard: 4, media: 2.5, music: 3, render: 2, mix: 0, thumbnail: 3, upload: 4 };
    const starts = new Map<PipelineStage, number>();
    const ends = new Map<PipelineStage, number>();
    const endOf = (stage: PipelineStage): number => {
      if (!ends.has(stage)) {
        const start = Math.max(0, ...STAGE_NEEDS[stage].map(endOf));
        starts.set(stage, start);
        ends.set(stage, start + estimate(stage) * slowBy[stage]);
      }
      return ends.get(stage)!;
    };
    const total = Math.max(...PIPELINE_STAGES.map(endOf));
    const afterFirstDone: number[] = [];
    for (let t = 0; t < total; t += 0.5) {
      const samples = PIPELINE_STAGES.map((stage) => {
        const [start, end] = [starts.get(stage)!, ends.get(stage)!];
        if (stage === "mix") return sample(stage, t >= end ? "skipped" : "waiting");
        if (t >= end) return sample(stage, "done", { startedAt: at(start), endedAt: at(end) });
        if (t >= start) return sample(stage, "running", { startedAt: at(start), percent: stage === "render" ? (100 * (t - start)) / (end - start) : null });
        return sample(stage, "waiting");
      });
      const { remainingSeconds } = pipelineProgress(samples, facts, { status: "running", now: at(t) });
      if (samples.some((s) => s.status === "done")) afterFirstDone.push(remainingSeconds!);
    }
    expect(afterFirstDone.length).toBeGreaterThan(20);
    afterFirstDone.forEach((seconds, i) => {
      const lowest = Math.min(...afterFirstDone.slice(0, i + 1));
      expect(seconds, afterFirstDone.join(", ")).toBeLessThanOrEqual(lowest * 1.25 + 5);
    });
  });

  it("a running stage with a percent goes at its own pace; without one its estimate less its time, never below a sixth", () => {
    expect(runningStageRemaining(sample("render", "running", { startedAt: at(0), percent: 40 }), 50, at(10)).remaining).toBe(15);
    // a slow start: 10% after 20 s would say 180 s more; the estimate (45 s more) still counts, less and less up to 30%
    expect(runningStageRemaining(sample("render", "running", { startedAt: at(0), percent: 10 }), 50, at(20)).remaining).toBe(45);
    expect(runningStageRemaining(sample("render", "running", { startedAt: at(0), percent: 20 }), 50, at(20)).remaining).toBe(0.5 * 80 + 0.5 * 40);
    // a track kept between reads (the pace of the last quarter of its progress) is taken over the one-sample pace
    expect(runningStageRemaining(sample("render", "running", { startedAt: at(0), percent: 50, measuredRemaining: 6 }), 50, at(30)).remaining).toBe(6);
    expect(runningStageRemaining(sample("music", "running", { startedAt: at(0) }), 12, at(3))).toEqual({ remaining: 9, percent: 25 });
    expect(runningStageRemaining(sample("music", "running", { startedAt: at(0) }), 12, at(30)).remaining).toBe(2);
  });

  it("is 0 once completed and unknown once failed, the failed stage named", () => {
    const done = PIPELINE_STAGES.map((stage) => sample(stage, stage === "upload" ? "skipped" : "done"));
    expect(pipelineProgress(done, FACTS, { status: "completed", now: at(60) }).remainingSeconds).toBe(0);
    const failed = pipelineProgress(
      [sample("script", "done"), sample("storyboard", "done"), sample("media", "failed", { percent: 40 }), sample("music", "done")],
      FACTS,
      { status: "failed", now: at(60) },
    );
    expect(failed.remainingSeconds).toBeNull();
    expect(failed.stages.find((s) => s.stage === "media")).toMatchObject({ status: "failed", percent: 40, remainingSeconds: null });
    expect(failed.stages.find((s) => s.stage === "render")).toMatchObject({ status: "waiting", remainingSeconds: null });
    expect(failed.line).toMatch(/^script done · scenes done · pictures failed · music done · render waiting/);
    expect(failed.line).not.toMatch(/left/);
  });

  it("a longer or sharper video is estimated to take longer", () => {
    expect(estimateStageSeconds("render", { durationSeconds: 3600, height: 1080 })).toBeGreaterThan(estimateStageSeconds("render", { durationSeconds: 60, height: 1080 }) * 50);
    expect(estimateStageSeconds("render", { durationSeconds: 60, height: 2160 })).toBeGreaterThan(estimateStageSeconds("render", { durationSeconds: 60, height: 720 }) * 4);
    // the mix only costs something when it has a video to go over
    expect(estimateStageSeconds("mix", FACTS)).toBe(0);
    expect(estimateStageSeconds("mix", FACTS, { mixRuns: true })).toBeGreaterThan(5);
  });
});

describe("the one-line summary", () => {
  it("says what runs at once and the time left in words", () => {
    const line = progressLine(
      [
        { stage: "script", status: "done", percent: 100, count: null },
        { stage: "media", status: "running", percent: 60, count: { done: 12, total: 20, of: "pictures" } },
        { stage: "music", status: "running", percent: 40, count: null },
        { stage: "render", status: "waiting", percent: 0, count: null },
        { stage: "upload", status: "skipped", percent: 0, count: null },
      ],
      70,
    );
    expect(line).toBe("script done · pictures 12/20 · music running · render waiting · about 1 min 10 s left");
    expect(progressLine([{ stage: "render", status: "running", percent: 45, count: null }], 30, new Set(["render"]))).toBe("render 45% · about 30 s left");
  });

  it.each([
    [0, "a few seconds left"],
    [4, "a few seconds left"],
    [42, "about 40 s left"],
    [58, "about 1 min left"],
    [70, "about 1 min 10 s left"],
    [125, "about 2 min 10 s left"],
    [599, "about 10 min left"],
    [900, "about 15 min left"],
    [3900, "about 1 h 5 min left"],
    [7200, "about 2 h left"],
  ])("%i s is %s", (seconds, words) => {
    expect(formatTimeLeft(seconds)).toBe(words);
  });
});
