// The phoneme clock (decision 258) against the real neural voice: the offline writer's drafts, each scene spoken by
// the Piper voice npm test installs (en_US-joe-medium) and measured as the voiceover activity trims it, recorded in
// tests/fixtures/phoneme-clock-calibration.json by `node scripts/run-ts.mjs scripts/bench-phoneme-clock.ts --fixture
// ...` with the voice's clock as the worker calibrated it. Here the clock reads the same scenes with eSpeak NG as the
// fit does: each draft within CLOCK_TOLERANCE of what the voice spoke, their mean within MEAN_TOLERANCE.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

process.env.SESSION_SECRET ??= "s".repeat(40);
process.env.ENCRYPTION_KEY ??= "a".repeat(64);
process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-clock-"));
const { clockCorrectionOf, clockSeconds, countPhonemes, CORRECTION_READINGS, phonemesOf, phonemizerVoiceFor, recordClockReading } = await import("./phoneme-clock.server");
const { splitSentences } = await import("../text/language");

/** CPU seconds of this process and of the programs it ran that have ended (eSpeak NG), from /proc. */
function cpuSeconds(): number {
  const f = fs.readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ");
  return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100;
}

type Calibration = {
  voice: string;
  phonemizer: string;
  secondsPerPhoneme: number;
  sentencePauseSeconds: number;
  drafts: { seed: string; scenes: { text: string; seconds: number }[] }[];
};
const calibration = JSON.parse(fs.readFileSync(new URL("../../../tests/fixtures/phoneme-clock-calibration.json", import.meta.url), "utf8")) as Calibration;

/** A whole draft (all its scenes) against the voice: the fit's tolerance is 1 %, the narration's promise 5 %. */
const CLOCK_TOLERANCE = 0.04;
const MEAN_TOLERANCE = 0.02;

describe("the phoneme clock", () => {
  it("counts the phonemes that take time, not stress, length or tie marks", () => {
    // eSpeak's "the tide climbs": ðə tˈaɪd klˈaɪmz
    expect(countPhonemes("ðə tˈaɪd klˈaɪmz")).toBe(12);
    expect(countPhonemes("ˈ ˌ ː , .")).toBe(0);
    expect(phonemizerVoiceFor("espeak:fr+f3")).toBe("fr-fr");
    expect(phonemizerVoiceFor("rms")).toBe("en-us");
  });

  it("times the offline writer's drafts within a few per cent of the real neural voice", async () => {
    expect(calibration.voice).toBe("piper:en_US-joe-medium");
    expect(calibration.drafts.length).toBeGreaterThanOrEqual(5);
    const errors: number[] = [];
    for (const draft of calibration.drafts) {
      const script = draft.scenes.map((s) => s.text).join("\n\n");
      const phonemes = await phonemesOf(script, calibration.phonemizer);
      const sentences = draft.scenes.reduce((n, s) => n + splitSentences(s.text).length, 0);
      const clocked = clockSeconds(calibration, { phonemes, sentences, scenes: draft.scenes.length });
      const spoken = draft.scenes.reduce((sum, s) => sum + s.seconds, 0);
      errors.push(clocked / spoken - 1);
    }
    const mean = errors.reduce((a, b) => a + b, 0) / errors.length;
    console.log(`phoneme clock against ${calibration.voice}: ${errors.map((e) => `${(e * 100).toFixed(1)} %`).join(", ")}; mean ${(mean * 100).toFixed(1)} %`);
    for (const error of errors) expect(Math.abs(error)).toBeLessThanOrEqual(CLOCK_TOLERANCE);
    expect(Math.abs(mean)).toBeLessThanOrEqual(MEAN_TOLERANCE);
  });

  it("reads a script for a fraction of a CPU second: one eSpeak run for the whole text", async () => {
    const script = calibration.drafts.flatMap((d) => d.scenes.map((s) => s.text)).join("\n\n");
    const before = cpuSeconds();
    const phonemes = await phonemesOf(script, calibration.phonemizer);
    const cpu = cpuSeconds() - before;
    console.log(`phonemes of ${script.split(/\s+/).length} words: ${cpu.toFixed(2)} CPU s`);
    expect(phonemes).toBeGreaterThan(1000);
    // CPU, not wall time (the cores are shared): the voice took 6-8 CPU s for each of these drafts
    expect(cpu).toBeLessThan(1);
  });

  it("keeps a running correction per voice from the voice's readings of the drafts it chose, recent ones weighing most", () => {
    expect(clockCorrectionOf("Offline voices", "rms")).toBe(1);
    recordClockReading("Offline voices", "rms", 1.03);
    expect(clockCorrectionOf("Offline voices", "rms")).toBeCloseTo(1.03, 9);
    recordClockReading("Offline voices", "rms", 1.01);
    expect(clockCorrectionOf("Offline voices", "rms")).toBeCloseTo(1.02, 9);
    // another voice is its own
    expect(clockCorrectionOf("Offline voices", "slt")).toBe(1);
    // a reading far off is a wrong one, not the clock's bias
    recordClockReading("Offline voices", "rms", 2);
    expect(clockCorrectionOf("Offline voices", "rms")).toBeCloseTo(1.02, 9);
    // after many readings the old ones fade: the correction follows the voice
    for (let i = 0; i < 3 * CORRECTION_READINGS; i++) recordClockReading("Offline voices", "rms", 1.1);
    expect(clockCorrectionOf("Offline voices", "rms")).toBeGreaterThan(1.09);
    const file = JSON.parse(fs.readFileSync(path.join(process.env.DATA_DIR!, "cache", "phoneme-clock-corrections.json"), "utf8")) as Record<string, { readings: number }>;
    expect(file["Offline voices|rms"]!.readings).toBe(CORRECTION_READINGS);
  });
});
