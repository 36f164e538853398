// Word timings anchored on the pauses in a voice's audio, on a made-up WAV whose sound and silences are known:
// each clause is timed between its pauses, a stop-like short silence is not taken for one, and unclear pauses
// give no timings (the caller then estimates). The real eSpeak voice: tests/integration/espeak-word-timings.
import { describe, expect, it } from "vitest";
import { wavHeader } from "../wav";
import { wordTimingsByPauses } from "./pause-anchored-timings";

/** 16 kHz mono: a 220 Hz tone over each [start, end) second span, silence elsewhere, `seconds` long. */
function wavWithSound(spans: [number, number][], seconds: number): Buffer {
  const rate = 16000;
  const pcm = Buffer.alloc(Math.round(seconds * rate) * 2);
  for (const [start, end] of spans)
    for (let i = Math.round(start * rate); i < Math.round(end * rate); i++) pcm.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 220 * i) / rate) * 8000), i * 2);
  return Buffer.concat([wavHeader(pcm.length, rate, 1), pcm]);
}

const TEXT = "One two, three four. Five six.";

describe("word timings anchored on pauses", () => {
  it("times each clause between the voice's pauses, ignoring a short stop-like silence", () => {
    // speech 0.1-0.9 (with a 40 ms gap inside), pause, 1.2-2.0, pause, 2.4-3.0
    const wav = wavWithSound([[0.1, 0.5], [0.54, 0.9], [1.2, 2.0], [2.4, 3.0]], 3.2);
    const words = wordTimingsByPauses(TEXT, wav)!;
    expect(words.map((w) => w.text)).toEqual(TEXT.split(" "));
    const start = (text: string) => words.find((w) => w.text === text)!.start;
    expect(start("One")).toBeCloseTo(0.1, 2);
    expect(start("three")).toBeCloseTo(1.2, 2);
    expect(start("Five")).toBeCloseTo(2.4, 2);
    expect(words.find((w) => w.text === "two,")!.end).toBeCloseTo(0.9, 2);
    expect(words.at(-1)!.end).toBeCloseTo(3.0, 2);
    for (let i = 1; i < words.length; i++) expect(words[i]!.start).toBeGreaterThan(words[i - 1]!.start);
  });

  it("gives none when the pauses do not clearly match the clause breaks", () => {
    // one pause for two breaks
    expect(wordTimingsByPauses(TEXT, wavWithSound([[0.1, 0.9], [1.2, 3.0]], 3.2))).toBeNull();
    // three pauses of the same length for two breaks: which two is unclear
    expect(wordTimingsByPauses(TEXT, wavWithSound([[0.1, 0.6], [0.9, 1.4], [1.7, 2.2], [2.5, 3.0]], 3.2))).toBeNull();
    // silence only
    expect(wordTimingsByPauses(TEXT, wavWithSound([], 1))).toBeNull();
    // one clause needs no pause
    expect(wordTimingsByPauses("One two three.", wavWithSound([[0.2, 1.2]], 1.4))!.map((w) => w.start)[0]).toBeCloseTo(0.2, 2);
  });
});
