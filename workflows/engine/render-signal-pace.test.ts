import { describe, expect, it } from "vitest";
import { signalPace, signalSpacingMs } from "./render-signal-pace";

describe("render progress signals", () => {
  it("go at most once a second for short videos and further apart for long ones", () => {
    expect(signalSpacingMs(60)).toBe(1000);
    expect(signalSpacingMs(300)).toBe(1000);
    expect(signalSpacingMs(1200)).toBe(2400);
    expect(signalSpacingMs(3600)).toBe(7200);
  });

  it("keep a 60-minute render's history well inside a tenth of Temporal's 50,000 events", () => {
    // the slowest render seen: the exact renderer at about 14 frames a second, 30 fps, so 2.1 s per second of video
    const renderSeconds = 3600 * 2.1;
    const signals = (renderSeconds * 1000) / signalSpacingMs(3600);
    expect(signals * 4).toBeLessThan(5000);
  });

  it("let a forced signal through and restart the wait from it", () => {
    let clock = 0;
    const pace = signalPace(3600, () => clock);
    expect(pace.due()).toBe(true);
    clock = 7000;
    expect(pace.due()).toBe(false);
    expect(pace.due(true)).toBe(true);
    clock = 14_000;
    expect(pace.due()).toBe(false);
    clock = 14_200;
    expect(pace.due()).toBe(true);
  });
});
