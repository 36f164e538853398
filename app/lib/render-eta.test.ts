// The render page's percent never moves back within a render, and its time left is right within 20 % from a tenth on.
import { describe, expect, it } from "vitest";
import { trackProgress, type ProgressTrack } from "./render-eta";

const feed = (samples: [percent: number, elapsedSeconds: number][], start: ProgressTrack | null = null) =>
  samples.reduce<ProgressTrack | null>((track, [percent, elapsedSeconds]) => trackProgress(track, { percent, elapsedSeconds }), start)!;

describe("trackProgress", () => {
  it("keeps the highest percent of a render (encoding taking over at a lower count does not move it back)", () => {
    const track = feed([
      [40, 100],
      [82, 200],
      [77, 210],
      [80, 220],
    ]);
    expect(track.percent).toBe(82);
    expect(feed([[90, 240]], track).percent).toBe(90);
  });

  it("starts again when a new render begins (its elapsed time is earlier)", () => {
    const done = feed([
      [60, 300],
      [100, 500],
    ]);
    const next = trackProgress(done, { percent: 3, elapsedSeconds: 4 });
    expect(next.percent).toBe(3);
    expect(next.remainingSeconds).toBeNull();
    expect(next.recent).toEqual([{ percent: 3, elapsedSeconds: 4 }]);
  });

  it("gives no estimate before a tenth is done", () => {
    expect(feed([[5, 30]]).remainingSeconds).toBeNull();
    expect(feed([[9.9, 60]]).remainingSeconds).toBeNull();
  });

  it("estimates the time left within 20 % from a tenth on, though the start-up was slow", () => {
    // 40 s of start-up (bundle, captions) for 8 %, then a steady 3 s a percent: 316 s in all
    const at = (percent: number) => (percent <= 8 ? (percent / 8) * 40 : 40 + (percent - 8) * 3);
    const total = at(100);
    let track: ProgressTrack | null = null;
    for (let percent = 0; percent <= 100; percent += 0.5) {
      track = trackProgress(track, { percent, elapsedSeconds: at(percent) });
      if (percent < 10) continue;
      const truth = total - at(percent);
      expect(Math.abs(track.remainingSeconds! - truth), `at ${percent} %: ${track.remainingSeconds} s left, truly ${truth} s`).toBeLessThanOrEqual(Math.max(2, 0.2 * truth));
    }
    expect(track!.remainingSeconds).toBe(0);
  });

  it("counts down between two rises of the percent, rather than climbing while it stands still", () => {
    // 40 % after 40 s: 60 s left; no news for 10 s: 50 s left, not the 75 s a pace from the start to now would say
    const risen = feed([
      [20, 20],
      [40, 40],
    ]);
    expect(risen.remainingSeconds).toBe(60);
    const seen = [41, 45, 50].map((elapsedSeconds) => trackProgress(risen, { percent: 40, elapsedSeconds }).remainingSeconds);
    expect(seen).toEqual([59, 55, 50]);
    // stuck far past that: held at a sixth, not zero; the next rise measures the pace again (slower: more time left)
    expect(trackProgress(risen, { percent: 40, elapsedSeconds: 200 }).remainingSeconds).toBe(10);
    expect(feed([[50, 110]], risen).remainingSeconds).toBeGreaterThan(60);
  });
});
