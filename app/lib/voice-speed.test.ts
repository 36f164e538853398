import { describe, expect, it } from "vitest";
import { clampVoiceSpeed, espeakWordsPerMinute, fliteDurationStretch, formatVoiceSpeed, speechRateFactor, speedPlan, VoiceSpeedSchema } from "./voice-speed";

describe("voice speed", () => {
  it("is 0.7 to 1.3, 1 by default", () => {
    expect(speechRateFactor({})).toBe(1);
    expect(speechRateFactor({ voiceSpeed: null })).toBe(1);
    expect(speechRateFactor({ voiceSpeed: 1.3 })).toBe(1.3);
    expect(clampVoiceSpeed(2)).toBe(1.3);
    expect(clampVoiceSpeed(0.1)).toBe(0.7);
    expect(clampVoiceSpeed(Number.NaN)).toBe(1);
    expect(VoiceSpeedSchema.safeParse("1.31").success).toBe(false);
    expect(VoiceSpeedSchema.safeParse("0.69").success).toBe(false);
    expect(VoiceSpeedSchema.parse("1.25")).toBe(1.25);
    expect([formatVoiceSpeed(1), formatVoiceSpeed(1.25), formatVoiceSpeed(0.7)]).toEqual(["1.0x", "1.25x", "0.7x"]);
  });

  it("uses eSpeak NG's own rate for the whole range: 175 words a minute at 1x", () => {
    expect(speedPlan("espeak", 1.3)).toEqual({ native: 1.3, tempo: 1 });
    expect(espeakWordsPerMinute(speedPlan("espeak", 1.3).native)).toBe(228);
    expect(espeakWordsPerMinute(speedPlan("espeak", 0.7).native)).toBe(122);
    expect(espeakWordsPerMinute(1)).toBe(175);
  });

  it("uses Flite's duration stretch, the inverse of the speed", () => {
    expect(speedPlan("flite", 0.8)).toEqual({ native: 0.8, tempo: 1 });
    expect(fliteDurationStretch(1.25)).toBe(0.8);
    expect(fliteDurationStretch(0.8)).toBe(1.25);
  });

  it("gives ElevenLabs up to its documented 1.2 and time-stretches the rest", () => {
    expect(speedPlan("elevenlabs", 1.1)).toEqual({ native: 1.1, tempo: 1 });
    const fast = speedPlan("elevenlabs", 1.3);
    expect(fast.native).toBe(1.2);
    expect(fast.tempo).toBeCloseTo(1.3 / 1.2, 4);
    expect(fast.native * fast.tempo).toBeCloseTo(1.3, 3);
    expect(speedPlan("elevenlabs", 0.7)).toEqual({ native: 0.7, tempo: 1 });
  });
});
