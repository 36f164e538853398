// Voiceovers trimmed of the voice's own edge silence: what makes every pause between scenes the same (issue 24).
import { describe, expect, it } from "vitest";
import { VOICE_EDGE_SECONDS } from "~/lib/narration";
import { wavHeader, readWavInfo, trimWavSilence, wavSoundSpan } from "../wav";
import { createFliteSpeechProvider } from "./flite.server";
import { trimVoiceover } from "./voiceover";

/** A WAV of `lead` s of silence, `tone` s of a 220 Hz tone, `tail` s of silence, at 16 kHz. */
function toneWav(lead: number, tone: number, tail: number): Buffer {
  const rate = 16000;
  const total = Math.round((lead + tone + tail) * rate);
  const pcm = Buffer.alloc(total * 2);
  for (let i = Math.round(lead * rate); i < Math.round((lead + tone) * rate); i++) pcm.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 220 * i) / rate) * 8000), i * 2);
  return Buffer.concat([wavHeader(pcm.length, rate, 1), pcm]);
}

describe("trimWavSilence", () => {
  it("cuts the silence at both ends to the kept edge, and keeps the sound whole", () => {
    const wav = toneWav(0.3, 1, 0.5);
    const trimmed = trimWavSilence(wav, 0.04);
    expect(readWavInfo(trimmed).durationSeconds).toBeCloseTo(1.08, 2);
    const span = wavSoundSpan(trimmed)!;
    expect(span.start).toBeCloseTo(0.04, 2);
    expect(readWavInfo(trimmed).durationSeconds - span.end).toBeCloseTo(0.04, 2);
  });

  it("leaves a silent file as it is", () => {
    const silent = toneWav(1, 0, 0);
    expect(trimWavSilence(silent, 0.04)).toBe(silent);
  });
});

describe("trimVoiceover with word timings", () => {
  it("moves the voice's word timings with the silence it cuts from the start (ElevenLabs' answer is a WAV too)", () => {
    const wav = toneWav(0.3, 1, 0.5);
    const result = trimVoiceover({
      audio: wav,
      mimeType: "audio/wav",
      durationSeconds: 1.8,
      words: [
        { text: "Hello", start: 0.3, end: 0.8 },
        { text: "there.", start: 0.8, end: 1.3 },
      ],
    });
    // the tone (the speech) now starts at the kept edge, and so does the first word
    expect(result.words![0]!.start).toBeCloseTo(VOICE_EDGE_SECONDS, 2);
    expect(result.words![1]!.start).toBeCloseTo(0.5 + VOICE_EDGE_SECONDS, 2);
    expect(result.words![1]!.end).toBeCloseTo(result.durationSeconds - VOICE_EDGE_SECONDS, 2);
  });
});

describe("trimVoiceover with the offline voices", () => {
  it("gives every Flite voice the same short edges, whatever silence the voice made", async () => {
    const flite = createFliteSpeechProvider();
    for (const voiceId of ["rms", "awb", "kal16"]) {
      const raw = await flite.synthesize({ text: "The tide comes in. The tide goes out.", voiceId });
      const before = wavSoundSpan(raw.audio)!;
      const result = trimVoiceover(raw);
      const after = wavSoundSpan(result.audio)!;
      // Flite leaves 0.07-0.29 s at each end; trimmed, each end is the kept edge (to a sample or two)
      expect(before.start + (raw.durationSeconds - before.end)).toBeGreaterThan(0.15);
      expect(after.start).toBeCloseTo(VOICE_EDGE_SECONDS, 2);
      expect(result.durationSeconds - after.end).toBeCloseTo(VOICE_EDGE_SECONDS, 2);
      expect(result.durationSeconds).toBeCloseTo(after.end - after.start + 2 * VOICE_EDGE_SECONDS, 2);
    }
  });
});
