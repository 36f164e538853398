import { describe, expect, it } from "vitest";
import { CLIP_PRICES, clipPrice, clipSecondsFor, dollars, estimateClips } from "./clip-prices";

describe("AI clip prices", () => {
  it("every model has a price, a date and a source", () => {
    for (const p of CLIP_PRICES) {
      expect(p.centsPerSecond).toBeGreaterThan(0);
      expect(p.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(p.source).toMatch(/^https:\/\//);
    }
  });

  it("asks for the shortest clip that covers the scene, else the longest the model makes", () => {
    const veo = clipPrice("veo");
    expect([3.4, 4, 4.1, 7.9, 12].map((s) => clipSecondsFor(veo, s))).toEqual([4, 4, 6, 8, 8]);
    const runway = clipPrice("runway");
    expect([3, 5.2, 30].map((s) => clipSecondsFor(runway, s))).toEqual([5, 10, 10]);
  });

  it("estimates per scene and for the video", () => {
    const estimate = estimateClips(clipPrice("veo"), [
      { cellIndex: 0, sceneSeconds: 3 },
      { cellIndex: 2, sceneSeconds: 7 },
    ]);
    expect(estimate).toEqual({ perScene: [{ cellIndex: 0, seconds: 4, costCents: 60 }, { cellIndex: 2, seconds: 8, costCents: 120 }], totalCents: 180 });
    expect(dollars(estimate.totalCents)).toBe("$1.80");
  });
});
