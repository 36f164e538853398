// Voice speed (issue 24): each offline voice at 1.3x speaks the same text about 23 % faster (1/1.3) with the same
// pitch, measured on the audio (duration from the WAV, fundamental frequency by autocorrelation); the time-stretch
// used beyond a provider's own range (ElevenLabs above 1.2x) keeps the pitch of a tone exactly.
import { describe, expect, it } from "vitest";
import { synthesizeWithEspeak } from "~/providers/speech/espeak.server";
import { createFliteSpeechProvider } from "~/providers/speech/flite.server";
import { timeStretchWav } from "~/providers/speech/tempo.server";
import { pcm16ToWav, readWavInfo } from "~/providers/wav";
import { medianPitchHz } from "../support/pitch";

const FRENCH = "Les abeilles dansent pour indiquer aux autres ouvrières où se trouvent les fleurs les plus riches en nectar.";
const ENGLISH = "Bees dance to tell the other workers where the richest flowers are, and how far away they lie.";

function tone(hz: number, seconds: number, rate = 24_000): Buffer {
  const pcm = Buffer.alloc(Math.round(seconds * rate) * 2);
  for (let i = 0; i < pcm.length / 2; i++) pcm.writeInt16LE(Math.round(Math.sin((2 * Math.PI * hz * i) / rate) * 12_000), i * 2);
  return pcm16ToWav(pcm, rate);
}

function expectFasterSamePitch(normal: Buffer, fast: Buffer) {
  const ratio = readWavInfo(fast).durationSeconds / readWavInfo(normal).durationSeconds;
  // 1/1.3 = 0.769: "about 23 % shorter"
  expect(ratio).toBeGreaterThan(0.72);
  expect(ratio).toBeLessThan(0.82);
  const [p1, p2] = [medianPitchHz(normal), medianPitchHz(fast)];
  expect(p1.voicedFrames).toBeGreaterThan(10);
  expect(p2.voicedFrames).toBeGreaterThan(10);
  expect(p1.hz).toBeGreaterThan(60);
  expect(Math.abs(p2.hz / p1.hz - 1)).toBeLessThan(0.05);
  return { ratio, pitch: [p1.hz, p2.hz] };
}

describe("voice speed keeps the pitch", () => {
  it("eSpeak NG (French) at 1.3x: about 23 % shorter, same fundamental frequency", async () => {
    const normal = await synthesizeWithEspeak({ text: FRENCH, voiceId: "espeak:fr", speed: 1 });
    const fast = await synthesizeWithEspeak({ text: FRENCH, voiceId: "espeak:fr", speed: 1.3 });
    expect(fast).toMatchObject({ voiceId: "espeak:fr", provider: "eSpeak NG", mimeType: "audio/wav" });
    expect(readWavInfo(fast.audio)).toMatchObject({ sampleRate: 22_050, channels: 1, bitsPerSample: 16 });
    const measured = expectFasterSamePitch(normal.audio, fast.audio);
    console.log(`eSpeak NG fr: 1.3x/1x duration ${measured.ratio.toFixed(3)}, pitch ${measured.pitch.map((p) => p.toFixed(1)).join(" -> ")} Hz`);
  });

  it("Flite at 1.3x (duration_stretch): about 23 % shorter, same fundamental frequency", async () => {
    const flite = createFliteSpeechProvider();
    const normal = await flite.synthesize({ text: ENGLISH, voiceId: "rms", speed: 1 });
    const fast = await flite.synthesize({ text: ENGLISH, voiceId: "rms", speed: 1.3 });
    const measured = expectFasterSamePitch(normal.audio, fast.audio);
    console.log(`Flite rms: 1.3x/1x duration ${measured.ratio.toFixed(3)}, pitch ${measured.pitch.map((p) => p.toFixed(1)).join(" -> ")} Hz`);
    const slow = await flite.synthesize({ text: ENGLISH, voiceId: "rms", speed: 0.7 });
    expect(slow.durationSeconds / normal.durationSeconds).toBeGreaterThan(1.3);
  });

  it("the ffmpeg time-stretch (atempo) shortens a 220 Hz tone by the factor and leaves it at 220 Hz", async () => {
    const wav = tone(220, 2);
    const stretched = await timeStretchWav(wav, 1.3 / 1.2);
    expect(readWavInfo(stretched).durationSeconds).toBeCloseTo(2 / (1.3 / 1.2), 1);
    expect(medianPitchHz(stretched).hz).toBeCloseTo(220, -1);
    expect(Math.abs(medianPitchHz(stretched).hz / 220 - 1)).toBeLessThan(0.02);
  });
});
