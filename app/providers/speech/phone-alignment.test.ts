// Word timings from Flite's phone timings: the real `-psdur` output of the rms voice for a sentence with two
// commas, the words laid over it by syllables clause by clause, and moved with the trimmed lead of the audio.
import { describe, expect, it } from "vitest";
import { estimateWordTimings, shiftWordTimings } from "~/lib/timeline/word-timings";
import { parsePhoneDurations, wordTimingsFromPhones } from "./phone-alignment";

const TEXT = "Octopuses change colour, squeeze through gaps, and outsmart crabs.";
// printed by `flite -voice rms -psdur` for TEXT (Flite 2.2 compiled to WebAssembly, as the app runs it)
const PSDUR =
  "pau:0.177 aa:0.328 k:0.387 t:0.433 ax:0.464 p:0.584 ax:0.643 s:0.784 ih:0.833 z:0.895 ch:1.056 ey:1.202 n:1.268 jh:1.371 " +
  "k:1.476 ah:1.573 l:1.670 er:1.813 pau:1.916 s:2.081 k:2.152 w:2.212 iy:2.298 z:2.356 th:2.558 r:2.612 uw:2.646 g:2.734 " +
  "ae:2.957 p:3.036 s:3.177 pau:3.351 ae:3.468 n:3.508 d:3.547 aw:3.773 t:3.834 s:3.954 m:4.033 aa:4.237 r:4.300 t:4.360 " +
  "k:4.485 r:4.561 ae:4.710 b:4.762 z:4.907 pau:5.089 ";
// where each word's first phone starts in that output (read off the phones: "change" is ch at 0.895, ...)
const SPOKEN_STARTS = [0.177, 0.895, 1.371, 1.916, 2.356, 2.646, 3.351, 3.547, 4.36];

describe("word timings from Flite's phones", () => {
  it("reads each phone with its start and end, and nothing from other output", () => {
    const phones = parsePhoneDurations(`${PSDUR}\n`);
    expect(phones).toHaveLength(48);
    expect(phones[0]).toEqual({ phone: "pau", start: 0, end: 0.177 });
    expect(phones[1]).toEqual({ phone: "aa", start: 0.177, end: 0.328 });
    expect(parsePhoneDurations("Usage: flite [options]")).toEqual([]);
    // a line per sentence, each timed from its own start: the second follows the first in the audio
    const two = parsePhoneDurations("pau:0.2 b:0.3 iy:0.5 pau:0.6 \npau:0.1 g:0.2 ow:0.4 pau:0.5 \n");
    expect(two.map((p) => [p.phone, p.start, p.end])).toEqual([
      ["pau", 0, 0.2], ["b", 0.2, 0.3], ["iy", 0.3, 0.5], ["pau", 0.5, 0.6],
      ["pau", 0.6, 0.7], ["g", 0.7, 0.8], ["ow", 0.8, 1], ["pau", 1, 1.1],
    ].map(([p, a, b]) => [p, expect.closeTo(a as number, 9), expect.closeTo(b as number, 9)]));
    expect(wordTimingsFromPhones("Be. Go.", two)!.map((w) => [w.text, w.start, w.end])).toEqual([["Be.", 0.2, 0.5], ["Go.", 0.7, 1]]);
  });

  it("starts every word where its first phone starts, clause by clause", () => {
    const words = wordTimingsFromPhones(TEXT, parsePhoneDurations(PSDUR))!;
    expect(words.map((w) => w.text)).toEqual(TEXT.split(" "));
    expect(words.map((w) => w.start)).toEqual(SPOKEN_STARTS);
    // a clause's last word ends where its last phone does, before the pause
    expect(words[2]!.end).toBe(1.813);
    expect(words.at(-1)!.end).toBe(4.907);
    // the syllable estimate over the same audio is up to half a second late: what this replaces
    const estimate = estimateWordTimings(TEXT, 5.089 - 0.177);
    const late = Math.max(...estimate.map((w, i) => w.start + 0.177 - SPOKEN_STARTS[i]!));
    expect(late).toBeGreaterThan(0.4);
  });

  it("lays the words over the whole text when the pauses do not match its commas", () => {
    const noPauses = PSDUR.replace(/pau:(1\.916|3\.351) /g, "");
    const words = wordTimingsFromPhones(TEXT, parsePhoneDurations(noPauses))!;
    expect(words).toHaveLength(9);
    for (let i = 1; i < words.length; i++) expect(words[i]!.start).toBeGreaterThanOrEqual(words[i - 1]!.start);
    expect(words[0]!.start).toBe(0.177);
    expect(words.at(-1)!.end).toBe(4.907);
    expect(wordTimingsFromPhones(TEXT, [])).toBeNull();
  });

  it("moves with the silence cut from the start, inside the trimmed audio", () => {
    const words = wordTimingsFromPhones(TEXT, parsePhoneDurations(PSDUR))!;
    const moved = shiftWordTimings(words, 0.137, 4.8);
    expect(moved[0]!.start).toBe(0.04);
    expect(moved[1]!.start).toBe(0.758);
    expect(moved.at(-1)!.end).toBe(4.77);
    expect(shiftWordTimings(words, 0.137, 4.5).at(-1)!.end).toBe(4.5);
  });
});
