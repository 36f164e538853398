// The offline speech, image and music generators: outputs checked, not just produced.
import fs from "node:fs";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { createOfflineImageProvider } from "~/providers/image/offline-scene.server";
import { createOfflineMusicProvider, OFFLINE_MUSIC_MAX_SECONDS } from "~/providers/music/offline.server";
import { readPrompt } from "~/providers/music/composer";
import { createFliteSpeechProvider } from "~/providers/speech/flite.server";
import { trimVoiceover } from "~/providers/speech/voiceover";
import { readWavInfo, wavRms } from "~/providers/wav";
import { loudness } from "../../support/loudness";

describe("offline speech (Flite)", () => {
  const speech = createFliteSpeechProvider();

  it("lists its voices as premade, with gender", async () => {
    const voices = await speech.listVoices();
    expect(voices.length).toBeGreaterThanOrEqual(4);
    expect(voices.every((v) => v.category === "premade" && v.gender)).toBe(true);
    expect(voices.some((v) => v.gender === "female")).toBe(true);
    expect(await speech.listVoices("cloned")).toEqual([]);
  });

  it("speaks text into a WAV whose duration grows with the text and which is not silent", async () => {
    const short = await speech.synthesize({ text: "Bees dance to share directions.", voiceId: "slt" });
    const long = await speech.synthesize({
      text: "Bees dance to share directions. A forager returns to the hive and repeats a figure of eight, and the angle of its run points the others toward the flowers it found.",
      voiceId: "slt",
    });
    for (const r of [short, long]) {
      expect(r.mimeType).toBe("audio/wav");
      expect(r.durationSeconds).toBeCloseTo(readWavInfo(r.audio).durationSeconds, 6);
      expect(wavRms(r.audio)).toBeGreaterThan(0.02);
    }
    // About 2 to 5 words a second is how people speak.
    expect(short.durationSeconds).toBeGreaterThan(5 / 5);
    expect(short.durationSeconds).toBeLessThan(5 / 1.5);
    expect(long.durationSeconds).toBeGreaterThan(33 / 5);
    expect(long.durationSeconds).toBeLessThan(33 / 1.5);
  });

  it("times every word from the phones it spoke: after a comma, a word starts where the sound comes back", async () => {
    const text = "Octopuses change colour, squeeze through gaps, and outsmart crabs.";
    const result = trimVoiceover(await speech.synthesize({ text, voiceId: "rms" }));
    const words = result.words!;
    expect(words.map((w) => w.text)).toEqual(text.split(" "));
    expect(words[0]!.start).toBeLessThan(0.1);
    for (let i = 1; i < words.length; i++) expect(words[i]!.start).toBeGreaterThan(words[i - 1]!.start);
    expect(words.at(-1)!.end).toBeLessThanOrEqual(result.durationSeconds + 0.001);
    for (const after of ["squeeze", "and"]) {
      const start = words.find((w) => w.text === after)!.start;
      // the pause before the word is near silent; the word itself is not
      expect(loudness(result.audio, start - 0.08, start - 0.01), after).toBeLessThan(0.4 * loudness(result.audio, start + 0.01, start + 0.15));
    }
  });

  it("uses its default voice when asked for one it does not have", async () => {
    const r = await speech.synthesize({ text: "Hello there.", voiceId: "elevenlabs-id" });
    expect(r.durationSeconds).toBeGreaterThan(0.3);
  });

  it("refuses empty text with a clear message", async () => {
    await expect(speech.synthesize({ text: "   " })).rejects.toThrow(/no text to speak/);
  });

  it("speaks text after text in a process that stays (decision 283); a process killed mid-text fails that text only", async () => {
    const fliteProcesses = () =>
      fs.readdirSync("/proc").filter((pid) => {
        try {
          return /^\d+$/.test(pid) && fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")[1] === String(process.pid) && fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("flite-process.mjs");
        } catch {
          return false;
        }
      });
    const texts = ["Whales sing.", "Ants farm fungus.", "Crows remember faces.", "Owls fly without a sound."];
    const first = await Promise.all(texts.map((text) => speech.synthesize({ text, voiceId: "rms" })));
    for (const text of texts) await speech.synthesize({ text, voiceId: "rms" });
    // at most one a core, and the same processes for the second round
    const running = fliteProcesses();
    expect(running.length).toBeGreaterThanOrEqual(1);
    expect(running.length).toBeLessThanOrEqual(2);
    // a fresh instance for every text: the same text twice is the same audio
    const again = await speech.synthesize({ text: texts[0]!, voiceId: "rms" });
    expect(again.audio.equals(first[0]!.audio)).toBe(true);
    expect(fliteProcesses()).toEqual(running);

    const long = speech.synthesize({ text: "The deep sea is dark and cold, and still it teems with life. ".repeat(30), voiceId: "rms" });
    await new Promise((r) => setTimeout(r, 150));
    const killed = fliteProcesses();
    for (const pid of killed) process.kill(Number(pid), "SIGKILL");
    await expect(long).rejects.toThrow(/The offline voice stopped: the offline voice's process stopped \(signal SIGKILL\)/);
    // every killed process reaped (its exit seen by its owner) before the next text: one whose exit was still on its
    // way took that text and failed it too (CI, stop 71)
    await expect.poll(() => killed.filter((pid) => fs.existsSync(`/proc/${pid}`)), { timeout: 10_000 }).toEqual([]);
    const after = await speech.synthesize({ text: "Whales sing.", voiceId: "rms" });
    expect(after.audio.equals(first[0]!.audio)).toBe(true);
    expect(fliteProcesses().some((pid) => running.includes(pid))).toBe(false);
  });
});

describe("offline scene images", () => {
  const images = createOfflineImageProvider();

  it("renders 1920x1080 for 16:9 and 1080x1920 for 9:16 as PNG", async () => {
    for (const [aspectRatio, width, height] of [["16:9", 1920, 1080], ["9:16", 1080, 1920]] as const) {
      const r = await images.generateImage({ prompt: "A calm ocean at sunrise", aspectRatio, seed: "s" });
      const meta = await sharp(r.image).metadata();
      expect([r.mimeType, r.width, r.height]).toEqual(["image/png", width, height]);
      expect([meta.format, meta.width, meta.height]).toEqual(["png", width, height]);
    }
  });

  it("draws each scene differently, with a palette from the prompt's words", async () => {
    const mean = async (prompt: string) => {
      const r = await images.generateImage({ prompt, aspectRatio: "16:9", seed: "s" });
      const stats = await sharp(r.image).stats();
      return { image: r.image, rgb: stats.channels.slice(0, 3).map((c) => c.mean) };
    };
    const sea = await mean("Waves of the ocean under a blue winter sky");
    const fire = await mean("A desert sunset glowing orange over the dunes");
    const forest = await mean("A green forest with tall trees and ferns");
    expect(sea.image.equals(fire.image)).toBe(false);
    expect(sea.rgb[2]!).toBeGreaterThan(sea.rgb[0]!); // blue over red
    expect(fire.rgb[0]!).toBeGreaterThan(fire.rgb[2]!); // red over blue
    expect(forest.rgb[1]!).toBeGreaterThan(forest.rgb[0]!); // green over red
  });

  it("draws the same picture again for the same prompt and seed", async () => {
    const a = await images.generateImage({ prompt: "Scene one", aspectRatio: "16:9", seed: "s" });
    const again = await images.generateImage({ prompt: "Scene one", aspectRatio: "16:9", seed: "s" });
    expect(a.image.equals(again.image)).toBe(true);
  });
});

describe("offline music", () => {
  const music = createOfflineMusicProvider();

  async function track(prompt: string, seconds: number, trackCount = 1) {
    const { taskId } = await music.startGeneration({ prompt, trackCount, durationSeconds: seconds, seed: "seed" });
    const result = await music.poll(taskId);
    expect(result.status).toBe("completed");
    return result.tracks;
  }

  it("reads mood and tempo words from the prompt", () => {
    expect(readPrompt("an upbeat dance tune").mood).toBe("upbeat");
    expect(readPrompt("calm ambient pads").mood).toBe("calm");
    expect(readPrompt("epic cinematic trailer").bpm).toBeGreaterThan(readPrompt("epic cinematic trailer, slow").bpm);
    expect(readPrompt("lofi at 90 bpm").bpm).toBe(90);
  });

  it("renders tracks of the requested duration that are not silent", async () => {
    const tracks = await track("calm piano for studying", 12, 2);
    expect(tracks).toHaveLength(2);
    for (const t of tracks) {
      const info = readWavInfo(t.audio!);
      expect(t.mimeType).toBe("audio/wav");
      expect(info.durationSeconds).toBeCloseTo(12, 2);
      expect(t.durationSeconds).toBe(12);
      expect(wavRms(t.audio!)).toBeGreaterThan(0.01);
    }
    expect(tracks[0]!.audio!.equals(tracks[1]!.audio!)).toBe(false);
    expect(tracks[0]!.title).not.toBe(tracks[1]!.title);
  });

  it("gives different audio for different prompts, and the same for the same prompt and seed", async () => {
    const [calm] = await track("calm ambient", 8);
    const [upbeat] = await track("upbeat energetic dance", 8);
    const [calmAgain] = await track("calm ambient", 8);
    expect(calm!.audio!.equals(upbeat!.audio!)).toBe(false);
    expect(calm!.audio!.equals(calmAgain!.audio!)).toBe(true);
  });

  it("caps a track at the offline maximum and says so in its duration", async () => {
    const { taskId } = await music.startGeneration({ prompt: "calm", trackCount: 1, durationSeconds: 3600 });
    expect(taskId).toMatch(/^offline-music:/);
    const decoded = JSON.parse(Buffer.from(taskId.slice("offline-music:".length), "base64url").toString("utf8"));
    expect(decoded.durationSeconds).toBe(OFFLINE_MUSIC_MAX_SECONDS);
  });

  it("refuses an empty prompt or a damaged task id clearly", async () => {
    await expect(music.startGeneration({ prompt: " ", trackCount: 1, durationSeconds: 10 })).rejects.toThrow(/enter a music prompt/);
    await expect(music.poll("offline-music:garbage")).rejects.toThrow(/damaged/);
  });
});
