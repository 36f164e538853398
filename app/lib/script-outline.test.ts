import { describe, expect, it } from "vitest";
import { planNarration } from "./narration";
import { scriptSections } from "./own-script";
import { outlinePointCount, outlineScript, scriptOutline } from "./script-outline";

describe("the outline offered with no text model", () => {
  it("is a hook, points sized to the duration, and a close", () => {
    const short = scriptOutline({ resolution: "9:16", durationSeconds: 30, wordsPerSecond: 2.5 });
    expect(short.map((p) => p.label)).toEqual(["Hook", "Point 1", "Point 2", "Point 3", "Point 4", "Close"]);
    expect(short[0]!.hint).toMatch(/surprising fact/);
    expect(short.at(-1)!.hint).toMatch(/what to do next/);
    // a long video gets more words per point, not more fields than a viewer can follow
    expect(outlinePointCount("16:9", 600)).toBe(7);
    expect(outlinePointCount("9:16", 10)).toBe(1);
  });

  it("asks for about as many words as the narration fit plans for the duration", () => {
    for (const [resolution, durationSeconds] of [["9:16", 30], ["9:16", 60], ["16:9", 300]] as const) {
      const parts = scriptOutline({ resolution, durationSeconds, wordsPerSecond: 2.6 });
      const asked = parts.reduce((sum, p) => sum + p.words, 0);
      const planned = planNarration({ durationSeconds, sceneCount: parts.length, wordsPerSecond: 2.6 }).targetWords;
      expect(Math.abs(asked - planned) / planned).toBeLessThan(0.05);
    }
  });

  it("joins the filled parts into a script, one scene break per part, words unchanged", () => {
    const script = outlineScript(["  Octopuses taste with their arms. ", "", "Each arm has its own brain.\n\nAlmost.", "Follow for more."]);
    expect(script).toBe("Octopuses taste with their arms.\n---\nEach arm has its own brain.\n\nAlmost.\n---\nFollow for more.");
    expect(scriptSections(script)).toEqual(["Octopuses taste with their arms.", "Each arm has its own brain.", "Almost.", "Follow for more."]);
    expect(outlineScript(["", "  "])).toBe("");
  });
});
