import { describe, expect, it } from "vitest";
import { offlineSceneVerdict } from "./offline-scene-verdict.server";

describe("the offline pictures' own subject check", () => {
  const scenes = [
    { narration: "A volcano sends lava down the mountain.", prompt: "A volcano erupting" },
    { narration: "Nobody knows exactly when it happens again.", prompt: "Abstract" },
    { narration: "Lava cools into rock.", prompt: "A volcano" },
  ];
  it("passes a scene whose picture shows what its own words name", () => {
    const verdict = offlineSceneVerdict("Volcanoes", scenes, 2);
    expect(verdict).toMatchObject({ passed: true, score: 90 });
    expect(verdict.reason).toMatch(/which this scene names/);
  });
  it("marks a scene whose words name nothing with a picture, with the reason and no prompt to correct it with", () => {
    const verdict = offlineSceneVerdict("Volcanoes", scenes, 1);
    expect(verdict).toMatchObject({ passed: false, suggestedPrompt: null });
    expect(verdict.score).toBeLessThan(60);
    expect(verdict.reason).toMatch(/nothing this scene says has a picture/);
  });
});
