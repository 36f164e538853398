// A voiceover's phonemes in two eSpeak runs (phonemizeSentences) against the same voiceover read sentence by sentence
// (phonemizeSentence, two runs each): the voice must hear exactly the same phonemes either way, word timings too.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { describe, expect, it } from "vitest";

process.env.SESSION_SECRET ??= "s".repeat(40);
process.env.ENCRYPTION_KEY ??= "a".repeat(64);
const { clausesOfSentence, phonemizeSentence, phonemizeSentences, sentencesOf } = await import("./piper-phonemes.server");

type Calibration = { drafts: { scenes: { text: string }[] }[] };
const calibration = JSON.parse(fs.readFileSync(new URL("../../../tests/fixtures/phoneme-clock-calibration.json", import.meta.url), "utf8")) as Calibration;

async function oneByOne(sentences: string[]) {
  const each = [];
  for (const s of sentences) each.push(await phonemizeSentence(s, "en-us"));
  return each;
}

describe("a voiceover's phonemes in two eSpeak runs", () => {
  it("are the phonemes of its sentences read one by one, for every scene of three of the offline writer's drafts", async () => {
    const scenes = calibration.drafts.slice(0, 3).flatMap((d) => d.scenes.map((s) => s.text));
    expect(scenes.length).toBeGreaterThan(10);
    for (const text of scenes) {
      const sentences = sentencesOf(text);
      const together = await phonemizeSentences(sentences, "en-us", { words: true });
      expect(together).toEqual(await oneByOne(sentences));
      // every spoken word has its own phonemes (the word timings need them)
      for (const clause of together.flat()) expect(clause.wordPhonemes.every((p, i) => p !== "" || !/[\p{L}\p{N}]/u.test(clause.words[i]!))).toBe(true);
    }
  });

  it("falls back to sentence by sentence when eSpeak cuts a clause where we do not, and the result is the same", async () => {
    const text = "We met at 3:30, after lunch. Prices rose 12.5% in 2024; nobody knew — then, silence! It's fine.";
    const sentences = sentencesOf(text);
    expect(sentences.length).toBeGreaterThan(1);
    // eSpeak hears a pause at the dash: one of our clause lines comes back as two, so the two runs cannot be used
    const lines = sentences.flatMap((s) => clausesOfSentence(s).map((c) => c.join(" ")));
    const answer = spawnSync("espeak-ng", ["-q", "--ipa", "-v", "en-us"], { input: lines.join("\n"), encoding: "utf8" }).stdout;
    expect(answer.split("\n").filter((l) => l.trim()).length).toBeGreaterThan(lines.length);
    expect(await phonemizeSentences(sentences, "en-us", { words: true })).toEqual(await oneByOne(sentences));
  });

  it("leaves out the word phonemes when only the sound of the clauses is asked for", async () => {
    const [sentence] = await phonemizeSentences(["Tiny engines, fast wings."], "en-us");
    expect(sentence!.map((c) => c.words)).toEqual([["Tiny", "engines,"], ["fast", "wings."]]);
    expect(sentence!.every((c) => c.phonemes.length > 0 && c.wordPhonemes.every((p) => p === ""))).toBe(true);
  });
});
