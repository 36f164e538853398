// The offline writer: scripts of the requested length, no sentence said twice, scenes that cover the script.
import { describe, expect, it } from "vitest";
import { planChunks, targetWordsFor } from "~/lib/script";
import { createOfflineTextProvider } from "~/providers/text/offline";
import { countWords, splitSentences } from "~/providers/text/language";
import { endsASentence } from "~/lib/narration";
import { splitVoiceover } from "~/providers/text/scenes";

const text = createOfflineTextProvider();
const video = { title: "The Secret Life of Honeybees", topic: "How honeybees communicate, build hives and pollinate crops" };

async function writeScript(durationSeconds: number, seed = "seed-1") {
  const targets = planChunks(targetWordsFor(durationSeconds));
  const chunks: string[] = [];
  for (let i = 0; i < targets.length; i++) {
    chunks.push(await text.writeScriptChunk({ ...video, chunkIndex: i, totalChunks: targets.length, targetWords: targets[i]!, seed }));
  }
  return text.proofreadScript({ title: video.title, text: chunks.join("\n\n") });
}

describe("offline script writer", () => {
  it.each([
    [30, 75],
    [300, 750],
    [3600, 9000],
  ])("writes a %i s video within 10%% of %i words, with no sentence repeated", async (seconds, words) => {
    const script = await writeScript(seconds);
    expect(Math.abs(countWords(script) - words)).toBeLessThanOrEqual(words * 0.1);
    const sentences = splitSentences(script);
    expect(new Set(sentences).size).toBe(sentences.length);
  });

  it("writes about the title and topic, in readable sentences", async () => {
    const script = await writeScript(300);
    expect(script).toContain("The Secret Life of Honeybees");
    expect(script).toMatch(/honeybees|hives|crops/);
    for (const s of splitSentences(script)) {
      expect(s).toMatch(/^[A-Z“"]/);
      expect(s).toMatch(/[.!?”]$/);
    }
  });

  it("is deterministic for a seed, and different for another seed or chunk", async () => {
    const request = { ...video, chunkIndex: 1, totalChunks: 3, targetWords: 400, seed: "a" };
    const once = await text.writeScriptChunk(request);
    expect(await text.writeScriptChunk(request)).toBe(once);
    expect(await text.writeScriptChunk({ ...request, seed: "b" })).not.toBe(once);
    expect(await text.writeScriptChunk({ ...request, chunkIndex: 2 })).not.toBe(once);
  });

  it("expands a short chunk to its target with new sentences", async () => {
    const short = "Bees talk by dancing. The waggle dance points to flowers.";
    const expanded = await text.expandScriptChunk({ ...video, text: short, targetWords: 200, attempt: 1, seed: "x" });
    expect(expanded.startsWith(short)).toBe(true);
    expect(Math.abs(countWords(expanded) - 200)).toBeLessThanOrEqual(20);
    const sentences = splitSentences(expanded);
    expect(new Set(sentences).size).toBe(sentences.length);
  });

  it("proofreads spacing and punctuation and drops a repeated sentence", async () => {
    const out = await text.proofreadScript({ title: "T", text: "hello   world .  Bees are busy.\n\nBees are busy. the end" });
    expect(out).toBe("Hello world. Bees are busy.\n\nThe end.");
  });

  it("splits a script into the asked number of scenes, in order, covering it, each ending where a sentence ends", async () => {
    const script = await writeScript(300);
    const sentences = splitSentences(script).length;
    expect(sentences).toBeGreaterThan(20);
    for (const sceneCount of [1, 7, 20]) {
      const scenes = await text.splitIntoScenes({ title: video.title, script, resolution: "16:9", durationSeconds: 300, sceneCount, seed: "s" });
      expect(scenes).toHaveLength(sceneCount);
      expect(scenes.map((s) => s.voiceoverText).join(" ")).toBe(script.replace(/\s+/g, " ").trim());
      expect(scenes.every((s) => s.voiceoverText.length > 0 && s.imagePrompt.length > 0)).toBe(true);
      expect(scenes.filter((s) => !endsASentence(s.voiceoverText))).toEqual([]);
    }
    // more scenes than sentences: one scene a sentence, none cut (the offline writer's sentences are short)
    const many = await text.splitIntoScenes({ title: video.title, script, resolution: "16:9", durationSeconds: 300, sceneCount: sentences + 10, seed: "s" });
    expect(many.map((s) => s.voiceoverText)).toEqual(splitSentences(script));
    const [first] = await text.splitIntoScenes({ title: video.title, script, resolution: "9:16", durationSeconds: 300, sceneCount: 5, seed: "s" });
    expect(first!.imagePrompt).toContain("9:16");
  });

  it("gives a script with fewer sentences than scenes fewer scenes, cutting only a very long or a lone sentence, at a clause", async () => {
    const scenes = await text.splitIntoScenes({ title: "T", script: "Too short.", resolution: "16:9", durationSeconds: 30, sceneCount: 5, seed: "s" });
    expect(scenes.map((s) => s.voiceoverText)).toEqual(["Too short."]);
    expect(splitVoiceover("The moon pulls the nearest ocean toward it, and the far ocean lags behind. Tides follow.", 3)).toEqual([
      "The moon pulls the nearest ocean toward it, and the far ocean lags behind.",
      "Tides follow.",
    ]);
    // a script of one sentence (a 10 s Short) is cut at its clauses into the planned scenes, not shown as one picture
    const lone = "In practice, the simplest rule of eggs connects to ideas far beyond it, even if the headlines rarely mention it.";
    expect(splitVoiceover(lone, 2)).toEqual(["In practice, the simplest rule of eggs connects to ideas far beyond it,", "even if the headlines rarely mention it."]);
    // ... but never into a piece under three words ("In practice,")
    expect(splitVoiceover(lone, 3)).toEqual(splitVoiceover(lone, 2));
    expect(splitVoiceover("Coffee wakes the whole kitchen up every single morning.", 2)).toEqual(["Coffee wakes the whole kitchen up every single morning."]);
    const long =
      "The moon pulls the nearest ocean toward it with a force that changes as it moves around the planet each month, " +
      "while the far ocean lags behind because the solid earth is pulled away from it a little more strongly. Tides follow.";
    expect(splitVoiceover(long, 4)).toEqual([
      "The moon pulls the nearest ocean toward it with a force that changes as it moves around the planet each month,",
      "while the far ocean lags behind because the solid earth is pulled away from it a little more strongly.",
      "Tides follow.",
    ]);
    // a long sentence with no clause break is never cut between words
    const run = `${Array.from({ length: 40 }, (_, i) => `word${i}`).join(" ")}.`;
    expect(splitVoiceover(run, 4)).toEqual([run]);
    await expect(text.splitIntoScenes({ title: "T", script: "   ", resolution: "16:9", durationSeconds: 30, sceneCount: 2, seed: "s" })).rejects.toThrow(/no words/);
  });

  it("writes upload metadata within YouTube's limits", async () => {
    const script = await writeScript(300);
    const meta = await text.writeUploadMetadata({ title: video.title, script });
    expect(meta.description.length).toBeGreaterThan(50);
    expect(meta.description.length).toBeLessThanOrEqual(4900);
    expect(meta.tags.length).toBeGreaterThan(2);
    expect(meta.tags.join(",").length).toBeLessThanOrEqual(400);
    expect(meta.tags).toContain("honeybees");
  });
});
