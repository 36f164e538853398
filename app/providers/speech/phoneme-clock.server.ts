// The phoneme clock (issue 53, decision 258): how long an offline voice takes to say a text, estimated from the
// phonemes eSpeak NG gives for it (one `espeak-ng -q --ipa` run for a whole script: milliseconds of CPU) instead of
// synthesising it (6-10 CPU seconds for a minute of the neural voice, decision 253). A voice's clock is its seconds
// per phoneme and its pause between sentences, measured once with its speaking rate (speaking-rate.server.ts) from
// the same syntheses of the rate sample, so no voice is spoken more than before to calibrate it. Its error against
// the real voice is recorded in tests/fixtures/phoneme-clock-calibration.json and decision 258.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { getEnv } from "~/core/env.server";
import { isEspeakVoice, isPiperVoice, parseEspeakVoice } from "~/lib/voices";
import { ProviderError } from "../errors";
import { countWords, splitSentences } from "../text/language";
import { splitVoiceover } from "../text/scenes";
import { ESPEAK_MISSING } from "./espeak.server";
import { findPiperVoice } from "./piper-voices.server";
import { speakable } from "./speakable";

/** Marks that do not sound on their own: stress, length, syllable and tie marks (as piper-alignment.ts). */
const SILENT_MARKS = new Set(["ˈ", "ˌ", "ː", "ˑ", ".", "‿", "\u035C", "\u0361", "-"]);

/** The phonemes of eSpeak's IPA that take time: letters and their diacritics, without stress, length or tie marks. */
export function countPhonemes(ipa: string): number {
  let n = 0;
  for (const char of ipa.normalize("NFD")) if (/\p{L}/u.test(char) && !SILENT_MARKS.has(char)) n++;
  return n;
}

/** The eSpeak NG voice whose phonemes stand for `voiceId`'s: a neural voice's own (its .onnx.json), an eSpeak voice's language, English for Flite. */
export function phonemizerVoiceFor(voiceId: string | null | undefined): string {
  if (isPiperVoice(voiceId)) return findPiperVoice(voiceId)?.config.espeak.voice ?? "en-us";
  if (isEspeakVoice(voiceId)) return parseEspeakVoice(voiceId)?.language.espeak ?? "en";
  return "en-us";
}

/** eSpeak NG's IPA for `text` (one run, the text on its standard input). */
function espeakIpa(voice: string, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(getEnv().ESPEAK_NG_PATH, ["-q", "--ipa", "-v", voice], { stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.once("error", (e: NodeJS.ErrnoException) =>
      reject(new ProviderError("eSpeak NG", "rejected", e.code === "ENOENT" ? ESPEAK_MISSING : `eSpeak NG could not start: ${e.message}`)),
    );
    child.once("close", (code) => {
      if (code !== 0) reject(new ProviderError("eSpeak NG", "unavailable", `eSpeak NG stopped with exit code ${code}: ${stderr.trim().slice(0, 200)}`));
      // language-switch marks such as "(en)" are eSpeak's notes, not sounds
      else resolve(stdout.replace(/\([^)]*\)/g, " "));
    });
    child.stdin.end(text);
  });
}

/** How many phonemes eSpeak NG's voice `voice` ("en-us", "fr"...) says for `text`, as the voices read it. */
export async function phonemesOf(text: string, voice: string): Promise<number> {
  const spoken = speakable(text);
  return spoken ? countPhonemes(await espeakIpa(voice, spoken)) : 0;
}

/** A voice's clock: measured once per voice with its speaking rate. */
export type PhonemeClock = {
  /** seconds of speech per eSpeak phoneme, sentences read alone (their edge silence trimmed) */
  secondsPerPhoneme: number;
  /** the pause the voice makes between two sentences read together */
  sentencePauseSeconds: number;
};

/**
 * The clock's reading for a text cut into scenes, each read on its own as the voiceover activity reads it: its
 * phonemes at the voice's seconds per phoneme, and a pause between every two sentences of a scene (a cut between
 * scenes replaces the voice's own pause with the timeline's).
 */
export function clockSeconds(clock: PhonemeClock, text: { phonemes: number; sentences: number; scenes: number }): number {
  return text.phonemes * clock.secondsPerPhoneme + Math.max(0, text.sentences - text.scenes) * clock.sentencePauseSeconds;
}

/** The speech of `script`'s scenes (at most `sceneCount`) read by the voice `voiceId`, by the clock: one eSpeak run (undefined: no words). */
export async function clockedNarrationOf(
  clock: PhonemeClock,
  voiceId: string | null | undefined,
  script: string,
  sceneCount: number,
): Promise<{ speechSeconds: number; scenes: number; phonemes: number } | undefined> {
  if (countWords(script) === 0) return undefined;
  const scenes = splitVoiceover(script, sceneCount);
  const sentences = scenes.reduce((sum, scene) => sum + splitSentences(scene).length, 0);
  const phonemes = await phonemesOf(script, phonemizerVoiceFor(voiceId));
  return { speechSeconds: clockSeconds(clock, { phonemes, sentences, scenes: scenes.length }), scenes: scenes.length, phonemes };
}

/**
 * The phoneme clock's running correction for a voice (decision 258): each time the voice reads a draft the clock
 * chose (the narration fit's check), the voice's seconds over the clock's are averaged in, the last
 * CORRECTION_READINGS weighing most, and kept in DATA_DIR/cache/phoneme-clock-corrections.json. The clock then
 * starts each fit nearer the voice: Flite's voices read the writer's drafts a few per cent slower than the clock
 * calibrated on the rate sample says. 1 for a voice never checked.
 */
export const CORRECTION_READINGS = 20;
/** A correction outside this range is a wrong reading (a voice swapped under its id), not the clock's bias. */
const CORRECTION_RANGE = [0.8, 1.25] as const;
type Correction = { scale: number; readings: number };

function correctionsFile(): string {
  return path.join(getEnv().DATA_DIR, "cache", "phoneme-clock-corrections.json");
}

function readCorrections(): Record<string, Correction> {
  try {
    const json = JSON.parse(fs.readFileSync(correctionsFile(), "utf8")) as unknown;
    return json && typeof json === "object" ? (json as Record<string, Correction>) : {};
  } catch {
    return {};
  }
}

const correctionKey = (speechName: string, voiceId: string | null | undefined) => `${speechName}|${voiceId ?? "default"}`;

export function clockCorrectionOf(speechName: string, voiceId: string | null | undefined): number {
  const c = readCorrections()[correctionKey(speechName, voiceId)];
  return c && c.scale >= CORRECTION_RANGE[0] && c.scale <= CORRECTION_RANGE[1] ? c.scale : 1;
}

/** Averages in one reading: the voice's seconds over the clock's (uncorrected) seconds for the same draft. */
export function recordClockReading(speechName: string, voiceId: string | null | undefined, voiceOverClock: number): void {
  if (!(voiceOverClock >= CORRECTION_RANGE[0] && voiceOverClock <= CORRECTION_RANGE[1])) return;
  const key = correctionKey(speechName, voiceId);
  const all = readCorrections();
  const before = all[key];
  const n = before && before.scale > 0 ? Math.min(before.readings, CORRECTION_READINGS - 1) : 0;
  all[key] = { scale: n ? (before!.scale * n + voiceOverClock) / (n + 1) : voiceOverClock, readings: n + 1 };
  const file = correctionsFile();
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    // written whole, then renamed: two workers recording at once never leave half a file
    const temp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, JSON.stringify(all, null, 2), { mode: 0o600 });
    fs.renameSync(temp, file);
  } catch {
    // a read-only data directory: the fit still checks each draft with the voice
  }
}
