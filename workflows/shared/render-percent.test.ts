import { describe, expect, it } from "vitest";
import { chunkedPercent, framesPercent, JOIN_PERCENT, savingPercent } from "./render-percent";

describe("the render page's percent, shared out by where a render's time goes", () => {
  it("gives a fast render's frames 5-92 % and its save step 92-99 %: the save step is about 7 % of its time", () => {
    expect([0, 0.5, 1].map((share) => framesPercent(share, "fast"))).toEqual([5, 49, 92]);
    expect([0, 0.1, 0.9, 1].map((done) => savingPercent(done, "fast"))).toEqual([92, 93, 99, 99]);
  });

  it("gives an exact render's frames up to 97 %: its frames take three times as long, its save step the same", () => {
    expect(framesPercent(1, "exact")).toBe(97);
    expect(savingPercent(0, "exact")).toBe(97);
    expect(savingPercent(1, "exact")).toBe(99);
  });

  it("never says 100 % before the render ends, and never goes past its bounds on odd input", () => {
    for (const engine of ["fast", "exact"] as const) {
      expect(framesPercent(2, engine)).toBe(framesPercent(1, engine));
      expect(framesPercent(-1, engine)).toBe(5);
      expect(framesPercent(Number.NaN, engine)).toBe(5);
      expect(savingPercent(5, engine)).toBe(99);
    }
  });

  it("counts a chunked render's sound once it is at the platform's loudness (its frames to 92 %, the sound to 99 %), then the join", () => {
    expect(chunkedPercent(0, 0)).toBe(5);
    expect(chunkedPercent(1, 0)).toBe(92);
    expect(chunkedPercent(1, 1)).toBe(99);
    expect(chunkedPercent(0.5, 1)).toBeGreaterThan(chunkedPercent(0.5, 0.5));
    // the join copies both streams in seconds: the last point
    expect(JOIN_PERCENT).toBe(99);
  });
});
