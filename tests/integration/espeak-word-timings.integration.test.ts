// Word timings of the eSpeak NG voices (French, Spanish and the other offline languages), which print no timings
// of their own: each clause is timed between the pauses heard in the audio. Checked on the real voice at two
// speeds: after every comma and sentence end, the next word starts where the voice is heard again, which the
// plain syllable estimate over the whole scene misses.
import { describe, expect, it } from "vitest";
import { synthesizeWithEspeak } from "~/providers/speech/espeak.server";
import { trimVoiceover } from "~/providers/speech/voiceover";
import { estimateWordTimings, wordsOf } from "../../app/lib/timeline/word-timings";
import { loudness } from "../support/loudness";

const CASES = [
  { language: "fr", text: "Les pieuvres changent de couleur, se glissent dans les fentes, et trompent les crabes. Elles sont très malignes." },
  { language: "es", text: "Los pulpos cambian de color, se deslizan por las grietas, y engañan a los cangrejos. Son muy listos." },
];

/** Whether a word starting at `start` starts where the voice comes back after a pause: quiet before, heard after. */
const startsAfterPause = (wav: Buffer, start: number) => loudness(wav, start - 0.06, start - 0.01) < 0.4 * loudness(wav, start + 0.01, start + 0.12);

describe("eSpeak NG word timings", () => {
  for (const { language, text } of CASES) {
    for (const speed of [1, 1.3]) {
      it(`${language} at ${speed}x: each clause starts where the voice is heard again`, async () => {
        const result = trimVoiceover(await synthesizeWithEspeak({ text, language, speed }));
        const words = result.words!;
        expect(words.map((w) => w.text)).toEqual(wordsOf(text));
        for (let i = 1; i < words.length; i++) expect(words[i]!.start).toBeGreaterThan(words[i - 1]!.start);
        expect(words.at(-1)!.end).toBeLessThanOrEqual(result.durationSeconds + 0.001);
        // the words after a comma or a sentence's end
        const afterPauses = words.flatMap((w, i) => (i > 0 && /[,.]$/.test(words[i - 1]!.text) ? [i] : []));
        expect(afterPauses).toHaveLength(3);
        for (const i of afterPauses) expect(startsAfterPause(result.audio, words[i]!.start), words[i]!.text).toBe(true);
        // the plain estimate puts at least one of them inside speech
        const estimate = estimateWordTimings(text, result.durationSeconds);
        expect(afterPauses.some((i) => !startsAfterPause(result.audio, estimate[i]!.start))).toBe(true);
      });
    }
  }
});
