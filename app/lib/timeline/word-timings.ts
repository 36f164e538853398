// When each word of a voiceover is spoken: from the voice provider where it says so (ElevenLabs' character
// alignment), else estimated by syllables (offline voices), always scaled to the real audio length. Stored with the
// scene's voiceover (StoryboardCell.wordTimings) and turned into caption cues by the timeline.
// Pure: no React, no Node.
import { syllable } from "syllable";

/** One spoken word: its text as written in the voiceover, and when it starts and ends (seconds into the audio). */
export type WordTiming = { text: string; start: number; end: number };

/** What is stored with a voiceover: the words, where they came from, and the audio length they were measured on. */
export type VoiceoverWordTimings = {
  source: "provider" | "estimate";
  audioSeconds: number;
  words: WordTiming[];
};

/** The words of a text as captions show them: split on whitespace, punctuation kept with its word. */
export function wordsOf(text: string): string[] {
  return text.split(/\s+/).filter((w) => w.length > 0);
}

/** Syllables in a word (at least 1; digits count as their spoken length, roughly). */
export function syllablesIn(word: string): number {
  const letters = word.replace(/[^\p{L}\p{N}'’-]/gu, "");
  if (!letters) return 0;
  const digits = letters.replace(/\D/g, "").length;
  // a number like 2026 is read as several words ("twenty twenty six"): about one syllable per digit, plus one
  const spoken = letters.replace(/\d/g, "");
  return Math.max(
    1,
    (spoken ? syllable(spoken) : 0) + (digits > 0 ? digits + 1 : 0)
  );
}

/** Extra time (in syllables) a reader pauses after a word, by its punctuation. */
function pauseAfter(word: string): number {
  if (/[.!?…]["')\]]*$/.test(word)) return 2;
  if (/[,;:—–]["')\]]*$/.test(word)) return 1;
  return 0;
}

/**
 * An estimate for a voice that gives no timings: the audio is shared among the words by their syllables (plus a
 * pause after commas and sentence ends), so long words last longer than short ones.
 */
export function estimateWordTimings(
  text: string,
  audioSeconds: number
): WordTiming[] {
  const words = wordsOf(text);
  if (words.length === 0 || audioSeconds <= 0) return [];
  const weights = words.map((w) => ({
    speak: Math.max(1, syllablesIn(w)),
    pause: pauseAfter(w),
  }));
  // the last word's pause is the end of the audio, not a gap
  weights[weights.length - 1]!.pause = 0;
  const total = weights.reduce((n, w) => n + w.speak + w.pause, 0);
  const secondsPerUnit = audioSeconds / total;
  const timings: WordTiming[] = [];
  let at = 0;
  for (const [i, word] of words.entries()) {
    const start = at;
    const end = start + weights[i]!.speak * secondsPerUnit;
    timings.push({ text: word, start: round(start), end: round(end) });
    at = end + weights[i]!.pause * secondsPerUnit;
  }
  return timings;
}

/** ElevenLabs' `alignment` of a with-timestamps answer: one start and end time per character of the text. */
export type CharacterAlignment = {
  characters: string[];
  character_start_times_seconds: number[];
  character_end_times_seconds: number[];
};

/**
 * Word timings from a per-character alignment: a word starts at its first character's start and ends at its last
 * character's end. Null when the alignment does not spell the same words as the text (then estimate instead).
 */
export function wordTimingsFromAlignment(
  text: string,
  alignment: CharacterAlignment
): WordTiming[] | null {
  const {
    characters,
    character_start_times_seconds: starts,
    character_end_times_seconds: ends,
  } = alignment;
  if (characters.length !== starts.length || characters.length !== ends.length)
    return null;
  const found: WordTiming[] = [];
  let current: { text: string; start: number; end: number } | null = null;
  for (const [i, c] of characters.entries()) {
    if (/^\s*$/.test(c)) {
      if (current) found.push(current);
      current = null;
      continue;
    }
    if (current) {
      current.text += c;
      current.end = ends[i]!;
    } else {
      current = { text: c, start: starts[i]!, end: ends[i]! };
    }
  }
  if (current) found.push(current);
  const expected = wordsOf(text);
  if (
    found.length !== expected.length ||
    found.some((w, i) => w.text !== expected[i])
  )
    return null;
  return found.map((w) => ({
    text: w.text,
    start: round(w.start),
    end: round(Math.max(w.start, w.end)),
  }));
}

/**
 * The timings to caption a voiceover with: the stored ones when they spell the scene's current text (the text may
 * have been edited since the audio was made), scaled from the audio length they were measured on to the real one;
 * otherwise the syllable estimate.
 */
export function wordTimingsFor(
  text: string,
  audioSeconds: number,
  stored?: VoiceoverWordTimings | null
): WordTiming[] {
  const words = wordsOf(text);
  if (
    stored &&
    stored.audioSeconds > 0 &&
    stored.words.length === words.length &&
    stored.words.every((w, i) => w.text === words[i])
  ) {
    const scale = audioSeconds / stored.audioSeconds;
    return stored.words.map((w) => ({
      text: w.text,
      start: round(Math.min(audioSeconds, w.start * scale)),
      end: round(Math.min(audioSeconds, w.end * scale)),
    }));
  }
  return estimateWordTimings(text, audioSeconds);
}

/** Seconds rounded to the millisecond, as timings are stored. */
export const roundSeconds = (n: number) => Math.round(n * 1000) / 1000;
const round = roundSeconds;

/** A word after which a voice pauses: it ends with a comma, a dash, a colon or a sentence's end. */
const ENDS_CLAUSE = /[,;:.!?…—–]["'”’)\]]*$/;

/** Word indexes grouped into clauses, each ending where the voice pauses. */
export function clausesOf(words: readonly string[]): number[][] {
  const clauses: number[][] = [[]];
  words.forEach((w, i) => {
    clauses.at(-1)!.push(i);
    if (ENDS_CLAUSE.test(w) && i < words.length - 1) clauses.push([]);
  });
  return clauses;
}

/** Timings moved by `offsetSeconds` (the audio's trimmed lead) and kept inside the audio. */
export function shiftWordTimings(words: WordTiming[], offsetSeconds: number, audioSeconds: number): WordTiming[] {
  const clamp = (t: number) => round(Math.min(audioSeconds, Math.max(0, t - offsetSeconds)));
  return words.map((w) => ({ text: w.text, start: clamp(w.start), end: clamp(w.end) }));
}
