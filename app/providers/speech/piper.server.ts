// Offline neural speech: any Piper voice (a VITS model exported to ONNX, with its .onnx.json) run by onnxruntime-node
// on the CPU in a process of its own (piper-session.server.ts), its phonemes from eSpeak NG as a separate program
// (piper-phonemes.server.ts).
// Sentence by sentence: each is one inference, written to the WAV as soon as it is made, with the event loop free
// between them (an activity's heartbeat timer keeps ticking through a long narration). The model's phoneme
// durations (its w_ceil tensor, exposed as an output: onnx-duration-output.ts) time the words for captions.
// Output: 16-bit mono WAV at the voice's rate (22,050 Hz for "medium" voices). Decision 205.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { clampVoiceSpeed } from "~/lib/voice-speed";
import { ProviderError } from "../errors";
import type { SpeechRequest, SpeechResult, SpokenWord } from "../types";
import { wavHeader } from "../wav";
import { encodeSentence, timeSentenceWords } from "./piper-alignment";
import { phonemizeSentences, sentencesOf } from "./piper-phonemes.server";
import { perVoiceFile, PiperSession } from "./piper-session.server";
import { findPiperVoice, missingVoiceMessage, PIPER_PROVIDER, type PiperVoice } from "./piper-voices.server";
import { speakable } from "./speakable";

/** Silence after each sentence, as Piper's own sentence_silence default. */
export const SENTENCE_SILENCE_SECONDS = 0.2;
/** Piper's defaults, for a voice whose .onnx.json names none. */
export const DEFAULT_INFERENCE = { noise_scale: 0.667, length_scale: 1, noise_w: 0.8 };
/** Each sentence's loudest sample is brought to this fraction of full scale (Piper normalises each sentence too). */
const PEAK = 0.95;

/** A chosen neural voice whose files are gone: the offline provider speaks with the labelled eSpeak voice instead. */
export class PiperVoiceMissingError extends ProviderError {
  constructor(readonly voiceId: string) {
    super(PIPER_PROVIDER, "rejected", missingVoiceMessage(voiceId));
  }
}

/** One session per voice file and version, kept for the process's life (loading takes about a second). */
const sessions = new Map<string, Promise<PiperSession>>();

const loadVoice = (voice: PiperVoice) => perVoiceFile(sessions, voice.modelFile, (file) => PiperSession.load(file));

/**
 * Starts loading a neural voice's session (its process and model, about 1.3 s) without waiting for it: the script's
 * fit calls it for the voice that will read the script, so the first voiceover finds it loaded (decision 291). A
 * voice that cannot be loaded is reported by the voiceover that needs it, not here.
 */
export function warmPiperVoice(voiceId: string): void {
  const voice = findPiperVoice(voiceId);
  if (!voice) return;
  try {
    loadVoice(voice).catch(() => {});
  } catch {
    // the model file went missing since the voice was listed
  }
}

/** Float samples to 16-bit PCM, the loudest brought to PEAK (a silent sentence stays silent). */
function toPcm16(samples: Float32Array): Buffer {
  let peak = 0;
  for (const v of samples) peak = Math.max(peak, Math.abs(v));
  const gain = peak > 1e-4 ? (PEAK * 32767) / peak : 0;
  const pcm = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i++) pcm.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(samples[i]! * gain))), i * 2);
  return pcm;
}

/** Speaks `request.text` with an installed Piper voice; the words timed by the voice's own phoneme durations. */
export async function synthesizeWithPiper(request: SpeechRequest & { voiceId: string }): Promise<SpeechResult> {
  const voice = findPiperVoice(request.voiceId);
  if (!voice) throw new PiperVoiceMissingError(request.voiceId);
  const spoken = speakable(request.text);
  if (!spoken) throw new ProviderError(PIPER_PROVIDER, "rejected", "There is no text to speak: the voiceover is empty.");
  let session: PiperSession;
  try {
    session = await loadVoice(voice);
  } catch (e) {
    throw new ProviderError(PIPER_PROVIDER, "rejected", `The neural voice ${voice.name} could not be loaded (${e instanceof Error ? e.message : e}): its .onnx file may be damaged.`);
  }
  const durationsOutput = session.durationsOutput;
  const rate = voice.config.audio.sample_rate;
  const inference = { ...DEFAULT_INFERENCE, ...voice.config.inference };
  // the speed is the model's own length scale: any factor, no time-stretching
  const lengthScale = inference.length_scale / clampVoiceSpeed(request.speed ?? 1);
  const scales: [number, number, number] = [inference.noise_scale, lengthScale, inference.noise_w];
  const silence = Buffer.alloc(Math.round(rate * SENTENCE_SILENCE_SECONDS) * 2);

  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "reelsmith-piper-"));
  const wavFile = path.join(dir, "out.wav");
  const out = await fs.promises.open(wavFile, "w");
  try {
    await out.write(wavHeader(0, rate, 1));
    let samplesWritten = 0;
    const words: SpokenWord[] = [];
    let timed = durationsOutput !== null;
    // the script's own text, sentence by sentence: its words label the timings (each is read in its speakable form)
    const sentences = sentencesOf(request.text);
    // every sentence's phonemes first: two eSpeak runs for the whole voiceover (a few milliseconds of eSpeak)
    const phonemized = await phonemizeSentences(sentences, voice.config.espeak.voice, { words: true });
    for (const [index, clauses] of phonemized.entries()) {
      const encoded = encodeSentence(clauses, voice.config.phoneme_id_map);
      if (encoded.phonemes.length === 0) continue;
      let audio: Float32Array;
      let frames: Float32Array | null;
      try {
        ({ audio, frames } = await session.run(encoded.ids, scales));
      } catch (e) {
        throw new ProviderError(PIPER_PROVIDER, "unavailable", `The neural voice ${voice.name} stopped (${e instanceof Error ? e.message : e}).`);
      }
      if (frames && frames.length === encoded.ids.length) {
        const totalFrames = frames.reduce((sum, f) => sum + f, 0);
        // the model's hop: its frames cover its samples exactly (256 samples a frame for Piper's voices)
        const secondsPerFrame = totalFrames > 0 ? audio.length / totalFrames / rate : 0;
        words.push(...timeSentenceWords(clauses, encoded, frames, secondsPerFrame, samplesWritten / rate));
      } else timed = false;
      await out.write(toPcm16(audio));
      samplesWritten += audio.length;
      if (index < sentences.length - 1) {
        await out.write(silence);
        samplesWritten += silence.length / 2;
      }
    }
    if (samplesWritten === 0) throw new ProviderError(PIPER_PROVIDER, "rejected", "The voiceover has no words the neural voice can say.");
    await out.write(wavHeader(samplesWritten * 2, rate, 1), 0, 44, 0);
    await out.close();
    const wav = await fs.promises.readFile(wavFile);
    return {
      audio: wav,
      mimeType: "audio/wav",
      durationSeconds: samplesWritten / rate,
      ...(timed && words.length ? { words } : {}),
      voiceId: voice.id,
      provider: PIPER_PROVIDER,
    };
  } finally {
    await out.close().catch(() => {});
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}
