import { describe, expect, it } from "vitest";
import { lengthSentence, ownScriptProblem, planScriptEdit, sceneList, scriptSections, spokenLength } from "./own-script";

describe("the creator's own script", () => {
  it("breaks at blank lines and --- lines, keeping every word", () => {
    expect(scriptSections("One two.\n---\nThree\nfour.\n\n\nFive.")).toEqual(["One two.", "Three four.", "Five."]);
  });

  it("refuses empty, binary and too long texts with the right status", () => {
    expect(ownScriptProblem("\n---\n")).toMatchObject({ status: 400 });
    expect(ownScriptProblem("a\u0000b")).toMatchObject({ status: 400, message: expect.stringMatching(/plain text/) });
    expect(ownScriptProblem("x".repeat(100_001))).toMatchObject({ status: 413, message: "The script is too long: at most 100,000 characters are accepted." });
    expect(ownScriptProblem("Fine.")).toBeNull();
  });

  it("says how long the voice takes against the chosen duration", () => {
    const text = Array.from({ length: 60 }, () => "word").join(" ");
    // 60 words at 2 words a second: 30 s of speech plus the pauses after the scenes
    const length = spokenLength({ text, wordsPerSecond: 2, speed: 1, plannedScenes: 3, durationSeconds: 30 });
    expect(length.words).toBe(60);
    expect(length.verdict).toBe("about");
    expect(lengthSentence(length, 30)).toMatch(/^60 words, about 0:3\d spoken: about the 0:30 you chose\.$/);
    const slow = spokenLength({ text, wordsPerSecond: 2, speed: 0.7, plannedScenes: 3, durationSeconds: 30 });
    expect(slow.verdict).toBe("longer");
    expect(lengthSentence(spokenLength({ text, wordsPerSecond: 2, speed: 1, plannedScenes: 3, durationSeconds: 60 }), 60)).toMatch(/shorter than the 1:00 you chose/);
  });

  it("an edited script keeps the scenes whose words are unchanged", () => {
    const plan = planScriptEdit(["A b c.", "D e f.", "G h."], "A b c.\n\nD x f.\n\nG h.", { wordsPerScene: 3 });
    expect(plan.changed).toEqual([1]);
    expect(plan.kept).toEqual([
      { from: 0, to: 0 },
      { from: 2, to: 2 },
    ]);
    expect(plan.scenes[1]).toEqual({ text: "D x f.", keeps: null });
    expect(sceneList([0, 2, 4])).toBe("scenes 1, 3 and 5");
  });
});
