// The neural voice's own clock (issue 53, decision 258): how long a Piper voice takes to say a draft, from the
// voice's own duration predictor instead of its audio. A Piper voice is a VITS model: a text encoder and a duration
// predictor work per phoneme, then a flow and a HiFi-GAN decoder make 256 samples of audio for each frame the
// durations ask for (most of the work). The model cut down to its durations (onnx-duration-output.ts) gives each
// phoneme id's frames at a small share of a synthesis's CPU, sampled as the voice samples them (the same noise), so
// the clock errs only by how much two readings of the voice differ, not by what eSpeak's phoneme count misses (the
// voice's pauses at commas, its long vowels): about an eighth of the voice's CPU for a draft (the text encoder is
// most of it), against 0.1 CPU s for the phoneme clock, whose calibration erred by 3 % on this voice.
import os from "node:os";
import { countWords } from "../text/language";
import { splitVoiceover } from "../text/scenes";
import { encodeSentence, sounding } from "./piper-alignment";
import { phonemizeSentences, sentencesOf } from "./piper-phonemes.server";
import { perVoiceFile, PiperSession } from "./piper-session.server";
import { findPiperVoice, type PiperVoice } from "./piper-voices.server";
import { DEFAULT_INFERENCE, SENTENCE_SILENCE_SECONDS } from "./piper.server";

/** Samples of audio a frame of duration makes: Piper's hop length, the same for its voices of every quality. */
export const PIPER_HOP_SAMPLES = 256;
/**
 * Readings of the durations a draft is timed by (their mean). One: each costs about an eighth of speaking the text
 * (the text encoder is most of it, and runs again for every reading), and one reading of a 30 s Short erred by
 * 1.0 % (sd) against the voice, whose own second reading differed from its first by 0.6 % (decision 258).
 */
export const DURATION_READINGS = 1;

/**
 * Sentences a fit has timed, by voice file, scales and phoneme ids: the offline writer's drafts of one script share
 * about half their sentences (45 % of a rewrite's sentences were in an earlier draft of a 60 s script), so a fit's
 * rewrites time only their new ones (decision 291). One reading each, as a draft is timed by one reading; bounded.
 */
const timedSentences = new Map<string, Float32Array>();
const TIMED_SENTENCES_KEPT = 5000;

/**
 * Durations-only sessions (processes) a voice may have at once: one a core, at most CLOCK_SESSIONS_MAX. Each times one
 * draft at a time on one core; under bench:load the one clock was the scripts' limit, its process at about 40 % of a
 * core beside two renders while fits queued for it (decision 298). A second starts only while the first is busy, and
 * each ends when idle like any voice (about 200 MB each).
 */
const CLOCK_SESSIONS_MAX = 2;
const clockSessionCount = () => Math.max(1, Math.min(CLOCK_SESSIONS_MAX, os.availableParallelism()));

/** A voice file's duration sessions, the first loaded at once, the others when every one is busy. */
class ClockSessions {
  private readonly loaded: PiperSession[] = [];
  private starting: Promise<PiperSession> | null = null;

  private constructor(private readonly voice: PiperVoice) {}

  static async open(voice: PiperVoice): Promise<ClockSessions> {
    const clocks = new ClockSessions(voice);
    clocks.loaded.push(await clocks.load());
    return clocks;
  }

  private load(): Promise<PiperSession> {
    return PiperSession.load(this.voice.modelFile, { durationsOnly: true }).catch((e: Error) => {
      throw new Error(`the neural voice ${this.voice.name} could not be loaded to time drafts with: ${e.message}`);
    });
  }

  /** An idle session; else a new one while there is room (one at a time); else the one with the fewest waiting. */
  async pick(): Promise<PiperSession> {
    const idle = this.loaded.find((s) => s.pending === 0);
    if (idle) return idle;
    if (!this.starting && this.loaded.length < clockSessionCount()) {
      this.starting = this.load().then(
        (session) => {
          this.loaded.push(session);
          this.starting = null;
          return session;
        },
        () => {
          // a second clock that cannot start: the first times the drafts as before
          this.starting = null;
          return this.leastBusy();
        },
      );
      return this.starting;
    }
    return this.leastBusy();
  }

  private leastBusy(): PiperSession {
    return this.loaded.reduce((a, b) => (b.pending < a.pending ? b : a));
  }
}

/** Each voice file's (and version's) clocks, kept for the process's life. */
const clocks = new Map<string, Promise<ClockSessions>>();

async function durationSession(voice: PiperVoice): Promise<PiperSession> {
  return (await perVoiceFile(clocks, voice.modelFile, () => ClockSessions.open(voice))).pick();
}

/**
 * One reading's speech of a scene from its sentences' frames, as the voiceover is measured: the sentences' audio
 * with Piper's silence between them, less the silence before the scene's first sound and after its last (the
 * voiceover's edge silence is trimmed).
 */
export function sceneSpeechSeconds(
  sentences: { frames: ArrayLike<number>; firstSound: number; lastSound: number }[],
  sampleRate: number,
): number {
  if (sentences.length === 0) return 0;
  let frames = 0;
  for (const s of sentences) for (let i = 0; i < s.frames.length; i++) frames += s.frames[i]!;
  const first = sentences[0]!;
  const last = sentences.at(-1)!;
  for (let i = 0; i < first.firstSound; i++) frames -= first.frames[i]!;
  for (let i = last.lastSound + 1; i < last.frames.length; i++) frames -= last.frames[i]!;
  return (frames * PIPER_HOP_SAMPLES) / sampleRate + (sentences.length - 1) * SENTENCE_SILENCE_SECONDS;
}

/**
 * The speech of `script`'s scenes (at most `sceneCount`, split as the voiceovers are) read by the Piper voice
 * `voiceId` at speed 1, each scene on its own, by the voice's durations (the mean of `readings` readings).
 * Undefined for no words; throws when the voice is not installed or its model gives no durations (the caller then
 * times the draft another way). `reuse`: a sentence timed before by this voice keeps the reading it had (a fit's
 * drafts); otherwise every sentence is read afresh (the pace's sample, whose readings are meant to differ).
 */
export async function piperClockedNarrationOf(
  voiceId: string,
  script: string,
  sceneCount: number,
  readings = DURATION_READINGS,
  reuse = false,
): Promise<{ speechSeconds: number; scenes: number } | undefined> {
  if (countWords(script) === 0) return undefined;
  const times = Math.max(1, Math.round(readings));
  const voice = findPiperVoice(voiceId);
  if (!voice) throw new Error(`the neural voice ${voiceId} is not installed`);
  const inference = { ...DEFAULT_INFERENCE, ...voice.config.inference };
  const scales: [number, number, number] = [inference.noise_scale, inference.length_scale, inference.noise_w];
  const scenes = splitVoiceover(script, sceneCount);
  const sceneSentences = scenes.map((scene) => sentencesOf(scene));
  // every sentence of the draft phonemized in one eSpeak run
  const phonemized = await phonemizeSentences(sceneSentences.flat(), voice.config.espeak.voice);
  let next = 0;
  const encoded = sceneSentences.map((sentences) =>
    sentences
      .map(() => encodeSentence(phonemized[next++]!, voice.config.phoneme_id_map))
      // a sentence with nothing the voice can say is skipped, as the voice skips it
      .filter((e) => e.phonemes.length > 0)
      .map((e) => {
        const sounds = e.phonemes.map((p, k) => (sounding(p.char) ? 2 + 2 * k : -1)).filter((i) => i >= 0);
        return { ids: e.ids, firstSound: sounds[0] ?? 0, lastSound: sounds.at(-1) ?? e.ids.length - 1 };
      }),
  );
  let total = 0;
  for (let r = 0; r < times; r++) {
    // the first reading may be one kept from an earlier draft; a second reading is always a fresh one
    const keyOf = (ids: number[]) => (reuse && r === 0 ? `${voice.modelFile}|${scales.join(",")}|${ids.join(",")}` : null);
    const kept = encoded.map((sentences) =>
      sentences.map((s) => {
        const key = keyOf(s.ids);
        return key === null ? undefined : timedSentences.get(key);
      }),
    );
    // the rest read in one message to the clock's process (decision 298)
    const missing = encoded.flatMap((sentences, i) => sentences.filter((_, j) => !kept[i]![j]));
    // the clock picked as the request goes, so that one busy with another draft is passed over
    const fresh = missing.length === 0 ? [] : await (await durationSession(voice)).durations(missing.map((s) => s.ids), scales);
    let nextFresh = 0;
    for (const [i, sentences] of encoded.entries()) {
      const read = sentences.map((s, j) => {
        let frames = kept[i]![j];
        if (!frames) {
          frames = fresh[nextFresh++];
          if (!frames || frames.length !== s.ids.length) throw new Error(`the neural voice ${voice.name} gave no durations`);
          const key = keyOf(s.ids);
          if (key !== null) {
            timedSentences.set(key, frames);
            if (timedSentences.size > TIMED_SENTENCES_KEPT) timedSentences.delete(timedSentences.keys().next().value!);
          }
        }
        return { frames, firstSound: s.firstSound, lastSound: s.lastSound };
      });
      total += sceneSpeechSeconds(read, voice.config.audio.sample_rate);
    }
  }
  return { speechSeconds: total / times, scenes: scenes.length };
}
