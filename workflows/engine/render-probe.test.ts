// A voiceover's length from its WAV header must be ffprobe's figure to the microsecond: the frames each scene gets,
// and so the fast and exact renderers' parity, come from it (decision 287).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { probeDurationSeconds, voiceoverDurationSeconds, wavHeaderSeconds } from "./render-probe";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-probe-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** `samples` of a tone at `rate`, encoded by ffmpeg with `codec` (its own WAV writer, LIST chunk and all). */
function tone(name: string, rate: number, samples: number, codec: string, channels = 1) {
  const file = path.join(dir, name);
  execFileSync("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", `sine=frequency=300:sample_rate=${rate}`, "-af", `atrim=end_sample=${samples}`, "-ac", String(channels), "-c:a", codec, "-y", file]);
  return file;
}

describe("voiceoverDurationSeconds", () => {
  it.each([
    ["22050 Hz mono, an odd count of samples", "a.wav", 22050, 33_077, "pcm_s16le", 1],
    ["44100 Hz stereo", "b.wav", 44100, 130_001, "pcm_s16le", 2],
    ["24000 Hz 24-bit", "c.wav", 24000, 71_993, "pcm_s24le", 1],
    ["48000 Hz float", "d.wav", 48000, 100_003, "pcm_f32le", 1],
  ])("reads %s as ffprobe does", async (_label, name, rate, samples, codec, channels) => {
    const file = tone(name, rate, samples, codec, channels);
    // read from the header, no ffprobe started
    const fromHeader = await wavHeaderSeconds(file);
    expect(fromHeader).toBe(await probeDurationSeconds(file));
    expect(await voiceoverDurationSeconds(file)).toBe(fromHeader);
    expect(fromHeader).toBeCloseTo(samples / rate, 5);
  });

  it("reads a streaming writer's WAV, whose sizes say 'to the end', as ffprobe does", async () => {
    const file = tone("stream.wav", 22050, 40_000, "pcm_s16le");
    const bytes = fs.readFileSync(file);
    const data = bytes.indexOf("data", 12, "ascii");
    bytes.writeUInt32LE(0xffffffff, 4);
    bytes.writeUInt32LE(0xffffffff, data + 4);
    fs.writeFileSync(file, bytes);
    const seconds = await wavHeaderSeconds(file);
    expect(seconds).toBeCloseTo(40_000 / 22050, 5);
    expect(seconds).toBeCloseTo(await probeDurationSeconds(file), 5);
  });

  it("measures anything that is not PCM WAV with ffprobe, and refuses what is not sound", async () => {
    const file = tone("e.m4a", 44100, 44_100, "aac");
    expect(await wavHeaderSeconds(file)).toBeNull();
    expect(await voiceoverDurationSeconds(file)).toBe(await probeDurationSeconds(file));
    const junk = path.join(dir, "junk.wav");
    fs.writeFileSync(junk, Buffer.from("RIFF\0\0\0\0WAVEjunk that is no chunk at all"));
    await expect(wavHeaderSeconds(junk)).rejects.toThrow("no data chunk");
    await expect(voiceoverDurationSeconds(junk)).rejects.toThrow();
  });
});
