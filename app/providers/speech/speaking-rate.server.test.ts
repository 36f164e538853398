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
const { speakingRateOf, narrationOf } = await import("./speaking-rate.server");
const { createFliteSpeechProvider } = await import("./flite.server");

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

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
    const measuredWith = calls;
    expect(measuredWith).toBe(6); // the sample whole, then its five sentences

    expect(await speakingRateOf(counting, "rms")).toEqual(rms);
    expect(calls).toBe(measuredWith);
    const cache = JSON.parse(fs.readFileSync(path.join(dataDir, "cache", "speaking-rates.json"), "utf8")) as Record<string, unknown>;
    expect(Object.keys(cache)).toEqual(["v1|Offline voice (Flite)|rms"]);

    const awb = await speakingRateOf(counting, "awb");
    expect(Math.abs(awb.wordsPerSecond - rms.wordsPerSecond)).toBeGreaterThan(0.2);
  }, 180_000); // twelve syntheses: slow on two shared cores

  it("uses the typical pace for a cloud voice without speaking", async () => {
    const cloud: SpeechProvider = {
      name: "cloud",
      source: "cloud",
      listVoices: async () => [],
      synthesize: async () => {
        throw new Error("must not be called");
      },
    };
    expect(await speakingRateOf(cloud, "voice")).toEqual({ wordsPerSecond: TYPICAL_CLOUD_WORDS_PER_SECOND, sentencePauseSeconds: 0, measured: false });
    expect(await narrationOf(cloud, "voice", "A script. Of two sentences.", 2)).toBeUndefined();
  });
});
