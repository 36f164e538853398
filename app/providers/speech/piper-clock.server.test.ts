// The neural voice's own clock (decision 258) against the neural voice itself: the offline writer's drafts whose
// scenes the Piper voice npm test installs (en_US-joe-medium) spoke and the voiceover activity trimmed, recorded in
// tests/fixtures/phoneme-clock-calibration.json. Here the voice's durations alone time the same scenes: each draft
// within DRAFT_TOLERANCE of what the voice spoke, their mean within MEAN_TOLERANCE (two readings of the voice
// differ by about 1 % a draft: it samples its durations), for a small share of the CPU the voice took to speak them.
import fs from "node:fs";
import os from "node:os";
import { describe, expect, it } from "vitest";
import { treeCpuSeconds } from "../../../scripts/lib/process-tree";

process.env.SESSION_SECRET ??= "s".repeat(40);
process.env.ENCRYPTION_KEY ??= "a".repeat(64);
const { piperClockedNarrationOf, sceneSpeechSeconds, PIPER_HOP_SAMPLES } = await import("./piper-clock.server");
const { SENTENCE_SILENCE_SECONDS } = await import("./piper.server");

/** CPU seconds of this process, of the programs it ran, and of the voice's own processes while they run. */
const cpuSeconds = () => treeCpuSeconds();

type Calibration = { voice: string; drafts: { seed: string; scenes: { text: string; seconds: number }[] }[] };
const calibration = JSON.parse(fs.readFileSync(new URL("../../../tests/fixtures/phoneme-clock-calibration.json", import.meta.url), "utf8")) as Calibration;

const DRAFT_TOLERANCE = 0.03;
const MEAN_TOLERANCE = 0.015;

describe("the neural voice's own clock", () => {
  it("adds up a scene's frames, less the silence before its first sound and after its last, and Piper's pause between sentences", () => {
    const rate = 22050;
    const frame = PIPER_HOP_SAMPLES / rate;
    // ids: BOS, pad, sounds..., pad, EOS; the sounds at 2..4
    const one = { frames: [5, 3, 10, 10, 10, 4, 6], firstSound: 2, lastSound: 4 };
    expect(sceneSpeechSeconds([one], rate)).toBeCloseTo(30 * frame, 9);
    // inside a scene a sentence's edge silence is heard; only the scene's own edges are trimmed
    expect(sceneSpeechSeconds([one, one], rate)).toBeCloseTo((30 + (4 + 6) + (5 + 3) + 30) * frame + SENTENCE_SILENCE_SECONDS, 9);
    expect(sceneSpeechSeconds([], rate)).toBe(0);
  });

  it("times the offline writer's drafts within a few per cent of the real neural voice, for a fraction of its CPU", async () => {
    expect(calibration.voice).toBe("piper:en_US-joe-medium");
    expect(calibration.drafts.length).toBeGreaterThanOrEqual(5);
    // the first reading loads the cut-down model: not what a draft costs
    await piperClockedNarrationOf(calibration.voice, "The tide climbs the beach twice a day.", 1);
    const errors: number[] = [];
    const before = cpuSeconds();
    for (const draft of calibration.drafts) {
      let clocked = 0;
      for (const scene of draft.scenes) clocked += (await piperClockedNarrationOf(calibration.voice, scene.text, 1))!.speechSeconds;
      const spoken = draft.scenes.reduce((sum, s) => sum + s.seconds, 0);
      errors.push(clocked / spoken - 1);
    }
    const cpu = (cpuSeconds() - before) / calibration.drafts.length;
    const mean = errors.reduce((a, b) => a + b, 0) / errors.length;
    console.log(`own durations against ${calibration.voice}: ${errors.map((e) => `${(e * 100).toFixed(1)} %`).join(", ")}; mean ${(mean * 100).toFixed(1)} %; ${cpu.toFixed(2)} CPU s a draft`);
    for (const error of errors) expect(Math.abs(error)).toBeLessThanOrEqual(DRAFT_TOLERANCE);
    expect(Math.abs(mean)).toBeLessThanOrEqual(MEAN_TOLERANCE);
    // CPU, not wall time (the cores are shared): the voice took 6-8 CPU s to speak each of these drafts
    expect(cpu).toBeLessThan(2);
  }, 180_000);

  it("times a sentence a fit's earlier draft had by the reading it had then, reading only the new ones", async () => {
    const [first, second] = calibration.drafts.map((d) => d.scenes.map((scene) => scene.text).join("\n\n"));
    const shared = `${first}\n\n${second}`;
    const sceneCount = 8;
    let before = cpuSeconds();
    const once = (await piperClockedNarrationOf(calibration.voice, first!, sceneCount, 1, true))!.speechSeconds;
    const readCpu = cpuSeconds() - before;
    before = cpuSeconds();
    // the same sentences again: every one kept, so the same figure, and only eSpeak's phonemes cost CPU
    expect((await piperClockedNarrationOf(calibration.voice, first!, sceneCount, 1, true))!.speechSeconds).toBe(once);
    const keptCpu = cpuSeconds() - before;
    // a draft with new sentences beside the kept ones reads the new ones (its figure is longer than the kept part)
    expect((await piperClockedNarrationOf(calibration.voice, shared, sceneCount, 1, true))!.speechSeconds).toBeGreaterThan(once);
    // without reuse every sentence is read again: the same draft within a draft's tolerance (the voice samples its
    // durations, though on some machines onnxruntime draws the same noise again, so equal figures are allowed)
    before = cpuSeconds();
    const fresh = (await piperClockedNarrationOf(calibration.voice, first!, sceneCount, 1))!.speechSeconds;
    const freshCpu = cpuSeconds() - before;
    expect(Math.abs(fresh / once - 1)).toBeLessThan(DRAFT_TOLERANCE);
    expect(keptCpu).toBeLessThan(freshCpu / 2);
    expect(keptCpu).toBeLessThan(readCpu / 2);
  }, 60_000);

  it("times drafts asked at once on a clock a core, each as one clock alone times it", async () => {
    const drafts = calibration.drafts.slice(0, 3);
    const alone = [];
    for (const d of drafts) alone.push((await piperClockedNarrationOf(calibration.voice, d.scenes.map((s) => s.text).join("\n\n"), d.scenes.length))!.speechSeconds);
    const together = await Promise.all(drafts.map(async (d) => (await piperClockedNarrationOf(calibration.voice, d.scenes.map((s) => s.text).join("\n\n"), d.scenes.length))!.speechSeconds));
    // every draft read afresh: within a draft's tolerance of its reading alone
    for (const [i, seconds] of together.entries()) expect(Math.abs(seconds / alone[i]! - 1)).toBeLessThan(DRAFT_TOLERANCE);
    // the clocks' processes (children of this one, durations only): one more started while the first was busy
    const clocks = fs.readdirSync("/proc").filter((pid) => {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === process.pid && fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("piper-voice-process");
      } catch {
        return false;
      }
    });
    expect(clocks).toHaveLength(Math.min(2, os.availableParallelism()));
  }, 60_000);

  it("refuses a voice that is not installed, so the fit times the draft another way", async () => {
    await expect(piperClockedNarrationOf("piper:xx_XX-nobody-medium", "Hello there.", 1)).rejects.toThrow("not installed");
    expect(await piperClockedNarrationOf(calibration.voice, "   ", 1)).toBeUndefined();
  });
});
