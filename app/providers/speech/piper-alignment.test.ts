// The neural voice's word timings from its phoneme durations: eSpeak's reading of a clause lined up with each
// word's own reading, numbers spoken as several words mapped back to the script's word.
import { describe, expect, it } from "vitest";
import { encodeSentence, timeSentenceWords, wordOfEachPhoneme, type PhonemizedClause } from "./piper-alignment";

const chars = (s: string) => Array.from(s.normalize("NFD"));

describe("wordOfEachPhoneme", () => {
  it("gives each phoneme of the clause its word, spaces none", () => {
    // eSpeak runs "of the" together as one word ("ʌvðə") when reading the clause
    const owner = wordOfEachPhoneme(chars("ðɪ ˈɛdʒ ʌvðə sˈiː"), ["ðˈə", "ˈɛdʒ", "ˈʌv", "ðˈə", "sˈiː"]);
    const byWord = (w: number) => chars("ðɪ ˈɛdʒ ʌvðə sˈiː").filter((_, i) => owner[i] === w).join("");
    expect([0, 1, 2, 3, 4].map(byWord)).toEqual(["ðɪ", "ɛdʒ", "ʌv", "ðə", "si"]);
    expect(owner[2]).toBe(-1); // the space
  });

  it("maps a number spoken as two words back to the one script word", () => {
    const clause = "fɔːɹ mˈoːɹ ðɐn tˈuː θˈaʊzənd jˈɪɹz";
    const owner = wordOfEachPhoneme(chars(clause), ["fˈɔːɹ", "mˈoːɹ", "ðˈɐn", "tˈuː θˈaʊzənd", "jˈɪɹz"]);
    const third = chars(clause).filter((_, i) => owner[i] === 3).join("");
    expect(third).toBe("tuθaʊzənd");
    expect(chars(clause).filter((_, i) => owner[i] === 4).join("")).toBe("jɪɹz");
  });

  it("never goes back to an earlier word", () => {
    const owner = wordOfEachPhoneme(chars("ab ba ab"), ["ab", "ba", "ab"]).filter((w) => w >= 0);
    for (let i = 1; i < owner.length; i++) expect(owner[i]!).toBeGreaterThanOrEqual(owner[i - 1]!);
  });
});

describe("timeSentenceWords", () => {
  const ids: Record<string, number[]> = { _: [0], "^": [1], $: [2], " ": [3], ",": [4], ".": [5] };
  for (const [i, c] of [..."abcdefghijklmnopqrstuvwxyz"].entries()) ids[c] = [10 + i];
  const clauses: PhonemizedClause[] = [
    { words: ["Hi", "2,"], phonemes: "hi tu", wordPhonemes: ["hi", "tu"], stop: "," },
    { words: ["ok."], phonemes: "ok", wordPhonemes: ["ok"], stop: "." },
  ];

  it("times each word from its first phoneme's start to its last phoneme's end, in the model's frames", () => {
    const encoded = encodeSentence(clauses, ids);
    expect(encoded.phonemes.map((p) => p.char).join("")).toBe("hi tu, ok.");
    expect(encoded.ids).toHaveLength(2 + 2 * encoded.phonemes.length + 1);
    // every id one frame, its pad one frame, BOS and its pad 2 frames; 10 ms a frame, sentence at 1 s
    const frames = encoded.ids.map((_, k) => (k < 2 ? 1 : 1));
    const words = timeSentenceWords(clauses, encoded, frames, 0.01, 1);
    // phoneme k starts at 2 + 2k frames: h0 i1 _2 t3 u4 ,5 _6 o7 k8 .9
    expect(words).toEqual([
      { text: "Hi", start: 1.02, end: 1.05 },
      { text: "2,", start: 1.08, end: 1.11 },
      { text: "ok.", start: 1.16, end: 1.19 },
    ]);
  });
});
