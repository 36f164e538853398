import { describe, expect, it } from "vitest";
import { endsASentence, PAUSE_BETWEEN_SCENES_SECONDS, planNarration, timingSample, TYPICAL_CLOUD_WORDS_PER_SECOND } from "./narration";

describe("planNarration", () => {
  it("leaves room for every scene's pause and sizes the words to the voice's pace", () => {
    // 30 s in 6 scenes at 3 words a second: 6 x (0.38 + 1/60) s of pauses, the rest speech
    const plan = planNarration({ durationSeconds: 30, sceneCount: 6, wordsPerSecond: 3 });
    expect(plan.pauseSeconds).toBeCloseTo(6 * (PAUSE_BETWEEN_SCENES_SECONDS + 1 / 60), 6);
    expect(plan.speechSeconds).toBeCloseTo(30 - plan.pauseSeconds, 6);
    expect(plan.targetWords).toBe(Math.round(plan.speechSeconds * 3));
    expect(plan.targetWords).toBeLessThan(90);
  });

  it("asks for more words at a faster voice speed, fewer at a slower one, within the offered range", () => {
    const at = (speed: number) => planNarration({ durationSeconds: 60, sceneCount: 12, wordsPerSecond: 2.5, speed }).targetWords;
    expect(at(1.3)).toBeGreaterThan(at(1));
    expect(at(0.7)).toBeLessThan(at(1));
    expect(at(2)).toBe(at(1.3));
    expect(Math.round(at(1.3) / at(1) * 100)).toBe(130);
  });

  it("plans a cloud voice at about 170 words a minute", () => {
    expect(Math.round(TYPICAL_CLOUD_WORDS_PER_SECOND * 60)).toBe(170);
  });
});

describe("endsASentence", () => {
  it("knows a sentence's end, closing quotes included, from a clause's", () => {
    expect(endsASentence("Tides rise twice a day.")).toBe(true);
    expect(endsASentence("Is it the moon?”")).toBe(true);
    expect(endsASentence("The moon pulls,")).toBe(false);
    expect(endsASentence("and the far side lags")).toBe(false);
  });
});

describe("timingSample", () => {
  const options = { wholeUpTo: 2000, sampleWords: 1500 };

  it("times a script up to the limit whole", () => {
    expect(timingSample([40, 45, 50], options)).toEqual([0, 1, 2]);
    expect(timingSample(Array.from({ length: 50 }, () => 40), options)).toHaveLength(50);
    expect(timingSample([], options)).toEqual([]);
  });

  it("times a longer script on evenly spaced scenes of about the sample's words, whatever its length", () => {
    for (const scenes of [80, 240]) {
      const words = Array.from({ length: scenes }, (_, i) => 38 + (i % 7) * 3);
      const sample = timingSample(words, options);
      const spoken = sample.reduce((sum, i) => sum + words[i]!, 0);
      expect(spoken).toBeGreaterThanOrEqual(1500);
      expect(spoken).toBeLessThan(1500 + 60);
      // one scene from each equal run of the script, in order: its beginning, middle and end all count
      const stride = scenes / sample.length;
      sample.forEach((scene, k) => {
        expect(scene).toBeGreaterThanOrEqual(Math.floor(k * stride));
        expect(scene).toBeLessThan(Math.ceil((k + 1) * stride));
      });
      expect(new Set(sample).size).toBe(sample.length);
    }
  });
});
