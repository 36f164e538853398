// How fast a voice speaks, in words per second of speech: measured once for each offline voice by synthesising a
// sample of ordinary narration (kept in memory and in DATA_DIR/cache/speaking-rates.json), and a documented
// typical rate for cloud voices (measuring those would spend the creator's credits).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pLimit from "p-limit";
import { timingSample, TYPICAL_CLOUD_WORDS_PER_SECOND, VOICE_EDGE_SECONDS } from "~/lib/narration";
import { getEnv } from "~/core/env.server";
import { isPiperVoice } from "~/lib/voices";
import { countWords, splitSentences } from "../text/language";
import { proofreadText, splitVoiceover } from "../text/scenes";
import { writeOfflineChunk } from "../text/offline-writer";
import type { SpeechProvider } from "../types";
import { readWavInfo, trimWavSilence } from "../wav";
import { phonemesOf, phonemizerVoiceFor, type PhonemeClock } from "./phoneme-clock.server";
import { piperClockedNarrationOf } from "./piper-clock.server";

/** Narration as the offline writer and most models write it: sentences of 10 to 25 words, a few commas. */
export const RATE_SAMPLE = [
  "Every coastline on Earth breathes with the tides, and most of us never stop to ask why.",
  "Twice a day the water climbs the beach, lingers for a while, and then slips quietly back out to sea.",
  "The moon pulls hardest on the ocean that faces it, raising a gentle bulge of water.",
  "On the far side of the planet, a second bulge forms as the Earth itself is drawn toward the moon.",
  "As the planet turns, each shore passes through both bulges, which is why so many places see two high tides.",
].join(" ");

/**
 * The same narration in the languages the offline writer writes: an eSpeak voice is timed on its own language's
 * words (French and Spanish read more syllables per word than English).
 */
export const RATE_SAMPLES: Readonly<Record<string, string>> = {
  en: RATE_SAMPLE,
  fr: [
    "Chaque littoral sur Terre respire au rythme des marées, et la plupart d'entre nous ne se demandent jamais pourquoi.",
    "Deux fois par jour, l'eau monte sur la plage, s'attarde un moment, puis repart doucement vers le large.",
    "La lune attire davantage l'océan qui lui fait face, et soulève un léger renflement d'eau.",
    "De l'autre côté de la planète, un second renflement se forme, car la Terre elle-même est attirée vers la lune.",
    "Comme la planète tourne, chaque rivage traverse les deux renflements, et c'est pourquoi tant d'endroits connaissent deux marées hautes.",
  ].join(" "),
  es: [
    "Cada costa de la Tierra respira con las mareas, y la mayoría de nosotros nunca se pregunta por qué.",
    "Dos veces al día, el agua sube por la playa, se queda un rato y luego vuelve despacio hacia el mar.",
    "La luna atrae con más fuerza el océano que tiene enfrente y levanta un suave abultamiento de agua.",
    "Al otro lado del planeta se forma un segundo abultamiento, porque la propia Tierra es atraída hacia la luna.",
    "Como el planeta gira, cada orilla pasa por los dos abultamientos, y por eso tantos lugares tienen dos mareas altas.",
  ].join(" "),
};

/**
 * What the phoneme clock is calibrated on (decision 258): a draft of the offline writer, the only scripts the fit
 * times, in the sample's languages. Calibrated on the five sentences above instead, the clock read the writer's
 * drafts 3.8 % long for the neural voice and 2.8 % short for Flite's slt; on a writer's draft alone, 1.3 % short
 * for the neural voice, 3 % short for both Flite voices (texts differ in their pauses per phoneme).
 */
const CLOCK_SUBJECTS: Readonly<Record<string, { title: string; topic: string }>> = {
  en: { title: "Why the Sea Has Tides", topic: "How the moon and the sun pull the oceans twice a day" },
  fr: { title: "Pourquoi la mer a des marées", topic: "Comment la lune et le soleil attirent les océans deux fois par jour" },
  es: { title: "Por qué el mar tiene mareas", topic: "Cómo la luna y el sol atraen los océanos dos veces al día" },
};
/** The clock's sample: about a minute of the writer's narration, read as four scenes as the voiceovers read it. */
export const CLOCK_SAMPLE_WORDS = 200;
export const CLOCK_SAMPLE_SCENES = 4;

export function clockSampleOf(language: string): string {
  const subject = CLOCK_SUBJECTS[language] ?? CLOCK_SUBJECTS.en!;
  const draft = writeOfflineChunk({ ...subject, chunkIndex: 0, totalChunks: 1, targetWords: CLOCK_SAMPLE_WORDS, seed: "phoneme-clock", language });
  return proofreadText(draft);
}

/**
 * The sample's language for a voice: an eSpeak voice id carries its language ("espeak:fr+f3"), a neural voice's
 * file name too ("piper:fr_FR-siwis-medium"); English otherwise.
 */
export function sampleLanguageOf(voiceId: string | null | undefined): string {
  const language = /^(?:espeak:|piper:)([a-z]{2,3})(?![a-z])/.exec(voiceId ?? "")?.[1];
  return language && RATE_SAMPLES[language] ? language : "en";
}

/** Bump when the sample or the measurement changes: older cached figures are then measured again. */
const MEASUREMENT_VERSION = 2;

export type SpeakingRate = {
  wordsPerSecond: number;
  /**
   * The pause the voice makes between two sentences read together, which a cut between scenes replaces with the
   * timeline's own pause (measured: the sample read whole, less its sentences read one by one).
   */
  sentencePauseSeconds: number;
  /**
   * The voice's phoneme clock (phoneme-clock.server.ts), calibrated on the same syntheses: what the narration fit
   * times drafts with. Absent for a cloud voice, or where eSpeak NG cannot phonemize (the fit then speaks drafts).
   */
  clock?: PhonemeClock;
  measured: boolean;
};
type Measured = Omit<SpeakingRate, "measured">;

const memory = new Map<string, Promise<Measured>>();

function cacheFile(): string {
  return path.join(getEnv().DATA_DIR, "cache", "speaking-rates.json");
}

function readCache(): Record<string, Measured> {
  try {
    const json = JSON.parse(fs.readFileSync(cacheFile(), "utf8")) as unknown;
    return json && typeof json === "object" ? (json as Record<string, Measured>) : {};
  } catch {
    return {};
  }
}

function writeCache(key: string, value: Measured) {
  const file = cacheFile();
  const all = { ...readCache(), [key]: value };
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  // written whole, then renamed: two workers measuring at once never leave half a file
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, JSON.stringify(all, null, 2), { mode: 0o600 });
  fs.renameSync(temp, file);
}

/** Seconds of speech in a synthesised voiceover, its edge silence left out (MP3: its whole length). */
export async function speechSecondsOf(speech: SpeechProvider, text: string, voiceId?: string): Promise<number> {
  const result = await speech.synthesize({ text, voiceId });
  if (result.mimeType !== "audio/wav") return result.durationSeconds;
  const seconds = readWavInfo(trimWavSilence(result.audio, VOICE_EDGE_SECONDS)).durationSeconds - 2 * VOICE_EDGE_SECONDS;
  if (!(seconds > 0)) throw new Error("The voice synthesised the text as silence");
  return seconds;
}

/**
 * The voice's phoneme clock, from what the voice read to calibrate it: the rate sample's sentences read alone
 * (`apartSeconds`) and the clock's sample read scene by scene, its sentence pauses taken off, over their phonemes.
 * Both texts count: calibrated on either alone, the clock's error on the writer's drafts was 1-4 % larger for some
 * voices (decision 258). Undefined where eSpeak NG cannot phonemize (not installed): the fit then speaks its drafts.
 */
async function calibrateClock(
  speech: SpeechProvider,
  voiceId: string | undefined,
  language: string,
  rate: { apartSeconds: number; sentencePauseSeconds: number },
): Promise<PhonemeClock | undefined> {
  const sample = clockSampleOf(language);
  const phonemizer = phonemizerVoiceFor(voiceId);
  let phonemes: number;
  try {
    const counts = await Promise.all([phonemesOf(sample, phonemizer), ...splitSentences(RATE_SAMPLES[language]!).map((s) => phonemesOf(s, phonemizer))]);
    phonemes = counts.reduce((a, b) => a + b, 0);
  } catch {
    return undefined;
  }
  if (!(phonemes > 0)) return undefined;
  const scenes = splitVoiceover(sample, CLOCK_SAMPLE_SCENES);
  let spoken = 0;
  for (const scene of scenes) spoken += await speechSecondsOf(speech, scene, voiceId);
  const sentences = scenes.reduce((sum, scene) => sum + splitSentences(scene).length, 0);
  const phonemeSeconds = rate.apartSeconds + spoken - (sentences - scenes.length) * rate.sentencePauseSeconds;
  return phonemeSeconds > 0 ? { secondsPerPhoneme: phonemeSeconds / phonemes, sentencePauseSeconds: rate.sentencePauseSeconds } : undefined;
}

/**
 * A neural voice's readings of the rate sample (whole, and its sentences one by one) timed by the voice's own
 * durations (piper-clock.server.ts) instead of spoken: the fit times this voice's drafts by the same durations, so the
 * plan and the fit agree, and a new install's first script no longer waits for six readings spoken by the voice
 * (about 6 CPU s, most of the script's time; decision 289). Undefined where the model gives no durations (or the voice
 * is not installed): the voice then speaks them.
 */
async function readingsByDurations(voiceId: string, sample: string, sentences: string[]): Promise<{ whole: number; apart: number } | undefined> {
  try {
    const whole = (await piperClockedNarrationOf(voiceId, sample, 1))?.speechSeconds ?? 0;
    let apart = 0;
    for (const sentence of sentences) apart += (await piperClockedNarrationOf(voiceId, sentence, 1))?.speechSeconds ?? 0;
    return whole > 0 && apart > 0 ? { whole, apart } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Measures a voice's pace (and its phoneme clock). A neural voice gets no phoneme clock: the narration fit times its
 * drafts by the voice's own durations (piper-clock.server.ts; by speaking them where its model gives none), and the
 * clock's four scenes of calibration were half the voice's first-use cost (`phonemeClock` forces it, for benchmarks).
 */
export async function measureSpeakingRate(
  speech: SpeechProvider,
  voiceId: string | undefined,
  language: string,
  { phonemeClock = !isPiperVoice(voiceId) }: { phonemeClock?: boolean } = {},
): Promise<Measured> {
  const sample = RATE_SAMPLES[language]!;
  const sentences = splitSentences(sample);
  // the phoneme clock is calibrated on what the voice itself read
  const timed = isPiperVoice(voiceId) && !phonemeClock ? await readingsByDurations(voiceId, sample, sentences) : undefined;
  const whole = timed?.whole ?? (await speechSecondsOf(speech, sample, voiceId));
  let apart = timed?.apart ?? 0;
  if (!timed) for (const sentence of sentences) apart += await speechSecondsOf(speech, sentence, voiceId);
  const sentencePauseSeconds = Math.max(0, (whole - apart) / (sentences.length - 1));
  const clock = phonemeClock ? await calibrateClock(speech, voiceId, language, { apartSeconds: apart, sentencePauseSeconds }) : undefined;
  return { wordsPerSecond: countWords(sample) / whole, sentencePauseSeconds, ...(clock ? { clock } : {}) };
}

/** The voice's speaking rate: measured (and cached) for offline voices, typical for cloud ones. */
export async function speakingRateOf(speech: SpeechProvider, voiceId?: string | null): Promise<SpeakingRate> {
  if (speech.source !== "offline") return { wordsPerSecond: TYPICAL_CLOUD_WORDS_PER_SECOND, sentencePauseSeconds: 0, measured: false };
  const language = sampleLanguageOf(voiceId);
  // English keeps the key it always had; other samples are keyed by their language (figures from before were
  // measured on the English sample, so they are measured again)
  const key = `v${MEASUREMENT_VERSION}|${speech.name}|${voiceId ?? "default"}${language === "en" ? "" : `|${language}`}`;
  const cached = readCache()[key];
  if (cached && cached.wordsPerSecond > 0.5 && cached.wordsPerSecond < 10 && cached.sentencePauseSeconds >= 0) return { ...cached, measured: true };
  let pending = memory.get(key);
  if (!pending) {
    pending = measureSpeakingRate(speech, voiceId ?? undefined, language).then((rate) => {
      try {
        writeCache(key, rate);
      } catch {
        // a read-only data directory: the figure stays in memory for this process
      }
      return rate;
    });
    pending.catch(() => memory.delete(key));
    memory.set(key, pending);
  }
  return { ...(await pending), measured: true };
}

/**
 * Scripts up to this many words are timed whole, every scene spoken; longer ones on a sample of their scenes.
 * Flite speaks about 115 words a second of work on one idle core, so timing 2,000 words takes about 17 s.
 */
export const MAX_TIMED_WORDS = 2000;

/**
 * Words of the sample a longer script is timed on: evenly spaced scenes, whose pace stands for the whole script's.
 * Measured on an offline 20-minute (80 scenes) and 60-minute (240 scenes) script with every scene spoken (decision
 * 111): samples of about 1,500 words came within 1.0 % of the whole script's speech wherever the spacing started,
 * about 1,000 words within 2.7 %, 500 within 5.9 %. Timing 60 minutes then speaks a seventh of it.
 */
export const TIMING_SAMPLE_WORDS = 1500;

export type Narration = {
  /** Seconds of speech of all the scenes (a long script's from its sample's pace). */
  speechSeconds: number;
  /** How many scenes the script splits into (at most the planned count). */
  scenes: number;
  /** Words actually spoken to time it: the cost of the timing. */
  spokenWords: number;
};

/**
 * The speech the scenes of `script` will have once each is read on its own by this offline voice (each scene
 * synthesised, without its edge silence); and how many scenes it splits into (at most `sceneCount`). A script over
 * MAX_TIMED_WORDS is timed on evenly spaced scenes of about TIMING_SAMPLE_WORDS words, its speech their seconds per
 * word times its words. Undefined for a cloud voice (timing it would spend the creator's credits) or no words.
 */
export async function narrationOf(
  speech: SpeechProvider,
  voiceId: string | null | undefined,
  script: string,
  sceneCount: number,
): Promise<Narration | undefined> {
  const words = countWords(script);
  if (speech.source !== "offline" || words === 0) return undefined;
  // Each scene spoken on its own, as the voiceover activity speaks it: reading the whole script once and taking
  // off a measured pause per cut was off by up to 10 % for a 30 s Short, depending on where the cuts fell.
  // The scenes are timed side by side, one per core: each offline synthesis is its own process, and a Short's
  // fit (several drafts of six scenes each) took over 20 s one scene at a time.
  const scenes = splitVoiceover(script, sceneCount);
  const sample = timingSample(
    scenes.map((scene) => countWords(scene)),
    { wholeUpTo: MAX_TIMED_WORDS, sampleWords: TIMING_SAMPLE_WORDS },
  ).map((i) => scenes[i]!);
  const limit = pLimit(Math.max(1, os.cpus().length));
  const seconds = await Promise.all(sample.map((scene) => limit(() => speechSecondsOf(speech, scene, voiceId ?? undefined))));
  const spokenWords = sample.reduce((sum, scene) => sum + countWords(scene), 0);
  const sampleSeconds = seconds.reduce((a, b) => a + b, 0);
  return { speechSeconds: (sampleSeconds * words) / spokenWords, scenes: scenes.length, spokenWords };
}
