// A voice's pace, measured once by speaking a sample and kept (issue 24: the script's length follows the voice).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { TYPICAL_CLOUD_WORDS_PER_SECOND } from "~/lib/narration";
import type { SpeechProvider } from "../types";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-rate-"));
process.env.DATA_DIR = dataDir;
process.env.SESSION_SECRET ??= "s".repeat(40);
process.env.ENCRYPTION_KEY ??= "a".repeat(64);
const { speakingRateOf, narrationOf, RATE_SAMPLES, sampleLanguageOf } = await import("./speaking-rate.server");
const { createFliteSpeechProvider } = await import("./flite.server");

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** A speech provider whose every synthesis fails the test: the pace must come without speaking. */
function speechThatMustNotSpeak(name: string, source: SpeechProvider["source"]): SpeechProvider {
  return {
    name,
    source,
    listVoices: async () => [],
    synthesize: async () => {
      throw new Error(`${name} must not be asked to speak`);
    },
  };
}

describe("speakingRateOf", () => {
  it("measures an offline voice once, keeps the figure on disk, and tells voices apart", async () => {
    let calls = 0;
    const flite = createFliteSpeechProvider();
    const counting: SpeechProvider = { ...flite, synthesize: (r) => (calls++, flite.synthesize(r)) };
    const rms = await speakingRateOf(counting, "rms");
    expect(rms.measured).toBe(true);
    // Flite's rms reads ordinary narration at roughly 160-200 words a minute, pausing between sentences
    expect(rms.wordsPerSecond).toBeGreaterThan(2.4);
    expect(rms.wordsPerSecond).toBeLessThan(3.6);
    expect(rms.sentencePauseSeconds).toBeGreaterThan(0.05);
    expect(rms.sentencePauseSeconds).toBeLessThan(0.8);
    // its phoneme clock, calibrated on the same syntheses (decision 258): rms says a phoneme in 50-100 ms
    expect(rms.clock?.secondsPerPhoneme).toBeGreaterThan(0.05);
    expect(rms.clock?.secondsPerPhoneme).toBeLessThan(0.1);
    expect(rms.clock?.sentencePauseSeconds).toBe(rms.sentencePauseSeconds);
    const measuredWith = calls;
    expect(measuredWith).toBe(10); // the sample whole, its five sentences, then the clock's sample as four scenes

    expect(await speakingRateOf(counting, "rms")).toEqual(rms);
    expect(calls).toBe(measuredWith);
    const cache = JSON.parse(fs.readFileSync(path.join(dataDir, "cache", "speaking-rates.json"), "utf8")) as Record<string, unknown>;
    expect(Object.keys(cache)).toEqual(["v2|Offline voice (Flite)|rms"]);

    const awb = await speakingRateOf(counting, "awb");
    expect(Math.abs(awb.wordsPerSecond - rms.wordsPerSecond)).toBeGreaterThan(0.2);
  }, 180_000); // twelve syntheses: slow on two shared cores

  it("times an eSpeak voice on a sample in its own language (French and Spanish), and keeps it apart", async () => {
    expect([sampleLanguageOf("espeak:fr+f3"), sampleLanguageOf("espeak:es"), sampleLanguageOf("espeak:de"), sampleLanguageOf("rms")]).toEqual(["fr", "es", "en", "en"]);
    const spoken: string[] = [];
    const voice: SpeechProvider = {
      name: "recording",
      source: "offline",
      listVoices: async () => [],
      // two words a second of speech, whatever the text
      synthesize: async ({ text }) => {
        spoken.push(text);
        const seconds = text.split(/\s+/).length / 2 + 0.2;
        const { toneWav } = await import("../../../tests/fixtures/render-project");
        return { audio: toneWav(seconds, 220), mimeType: "audio/wav", durationSeconds: seconds, voiceId: "espeak:fr", provider: "recording" };
      },
    };
    const rate = await speakingRateOf(voice, "espeak:fr");
    expect(spoken[0]).toBe(RATE_SAMPLES.fr);
    expect(rate.wordsPerSecond).toBeGreaterThan(1.8);
    expect(rate.wordsPerSecond).toBeLessThan(2.2);
    const cache = JSON.parse(fs.readFileSync(path.join(dataDir, "cache", "speaking-rates.json"), "utf8")) as Record<string, unknown>;
    expect(Object.keys(cache)).toContain("v2|recording|espeak:fr|fr");
  });

  it("times the neural voice's sample by its own durations, speaking none of it", async () => {
    const silent = speechThatMustNotSpeak("Offline voices (Piper, Flite, eSpeak NG)", "offline");
    const joe = await speakingRateOf(silent, "piper:en_US-joe-medium");
    console.log(`en_US-joe-medium by its durations: ${joe.wordsPerSecond.toFixed(3)} words a second, ${joe.sentencePauseSeconds.toFixed(3)} s between sentences`);
    // the voice speaking the same sample measured 3.32-3.38 words a second and 0.46-0.54 s between sentences
    expect(joe.wordsPerSecond).toBeGreaterThan(3.35 * 0.95);
    expect(joe.wordsPerSecond).toBeLessThan(3.35 * 1.05);
    expect(joe.sentencePauseSeconds).toBeGreaterThan(0.3);
    expect(joe.sentencePauseSeconds).toBeLessThan(0.7);
    expect(joe.clock).toBeUndefined();
  }, 60_000);

  it("uses the typical pace for a cloud voice without speaking", async () => {
    const cloud = speechThatMustNotSpeak("cloud", "cloud");
    expect(await speakingRateOf(cloud, "voice")).toEqual({ wordsPerSecond: TYPICAL_CLOUD_WORDS_PER_SECOND, sentencePauseSeconds: 0, measured: false });
    expect(await narrationOf(cloud, "voice", "A script. Of two sentences.", 2)).toBeUndefined();
  });
});
