import { describe, expect, it } from "vitest";
import { spokenWords } from "~/lib/own-script";
import { createOfflineTextProvider } from "./offline";
import { splitOwnScriptIntoScenes } from "./own-script-scenes";

const script = [
  "Salt is older than any kitchen. Long before people cooked, animals walked for miles to lick it from rocks, and the paths they wore became the first roads.",
  "---",
  "Rome paid soldiers partly in salt, or so the story goes. Whether or not that is true, the word salary still carries the grain in it.",
  "",
  "Today a mountain of it sits beside every highway, waiting for winter. We stopped noticing it, but we never stopped needing it.",
].join("\n");

describe("splitOwnScriptIntoScenes", () => {
  it("keeps every word in order and never lets a scene cross the creator's breaks", async () => {
    const scenes = await splitOwnScriptIntoScenes(createOfflineTextProvider(), {
      title: "Salt",
      script,
      resolution: "9:16",
      durationSeconds: 30,
      sceneCount: 6,
      seed: "s",
      language: "en",
    });
    const voiced = scenes.map((s) => s.voiceoverText);
    expect(voiced.join(" ")).toBe(spokenWords(script));
    // each part's first words start a scene
    for (const opening of ["Salt is older", "Rome paid soldiers", "Today a mountain"]) expect(voiced.some((v) => v.startsWith(opening))).toBe(true);
    expect(voiced.some((v) => v.includes("roads. Rome") || v.includes("in it. Today"))).toBe(false);
  });
});
