// Word timings for a voice that gives none (eSpeak NG: the offline voices of French, Spanish and the other
// languages), anchored on the pauses heard in its audio: the voice pauses at each comma and sentence end, so each
// clause is timed between two pauses and only its words are shared out by syllables. The plain syllable estimate
// over a whole scene drifts at every pause (a pause is not the length the estimate gives it); this resets it.
import { clausesOf, estimateWordTimings, roundSeconds as round, wordsOf, type WordTiming } from "~/lib/timeline/word-timings";
import { readWavInfo, wavSoundSpan } from "../wav";

/** Loudness below which a 10 ms window is silent (as the trim's threshold). */
const SILENCE = 0.01;
const WINDOW_SECONDS = 0.01;
/** The shortest pause taken for a clause break: the closure of a stop consonant is shorter. */
const MIN_PAUSE_SECONDS = 0.07;
/** A clause break's pause is at least this many times longer than any silence left out (else the pauses are unclear). */
const CLEAR_MARGIN = 1.3;

type Span = { start: number; end: number };

/** Silent stretches inside the sound (not the lead or tail), longest first. */
function silencesOf(wav: Buffer): Span[] {
  const info = readWavInfo(wav);
  const sound = wavSoundSpan(wav, SILENCE);
  if (!sound || info.bitsPerSample !== 16 || info.channels !== 1) return [];
  const window = Math.max(1, Math.round(info.sampleRate * WINDOW_SECONDS));
  const first = Math.floor(sound.start * info.sampleRate);
  const last = Math.ceil(sound.end * info.sampleRate);
  const silences: Span[] = [];
  let from = -1;
  for (let at = first; at + window <= last; at += window) {
    let sum = 0;
    for (let i = at; i < at + window; i++) sum += (wav.readInt16LE(info.dataOffset + 2 * i) / 32768) ** 2;
    const quiet = Math.sqrt(sum / window) < SILENCE;
    if (quiet && from < 0) from = at;
    if (!quiet && from >= 0) {
      silences.push({ start: from / info.sampleRate, end: at / info.sampleRate });
      from = -1;
    }
  }
  return silences.sort((a, b) => b.end - b.start - (a.end - a.start));
}

/**
 * Word timings of `text` as spoken in `wav` (seconds into it), each clause between the pauses the voice made;
 * null when the pauses do not clearly match the clause breaks (then the caller estimates over the whole audio).
 */
export function wordTimingsByPauses(text: string, wav: Buffer): WordTiming[] | null {
  const words = wordsOf(text);
  const clauses = clausesOf(words);
  const sound = wavSoundSpan(wav, SILENCE);
  if (words.length === 0 || !sound) return null;
  const breaks = clauses.length - 1;
  const silences = silencesOf(wav);
  const chosen = silences.slice(0, breaks);
  const longestLeft = silences[breaks] ? silences[breaks].end - silences[breaks].start : 0;
  const shortestChosen = Math.min(...chosen.map((s) => s.end - s.start));
  if (chosen.length < breaks || (breaks > 0 && (shortestChosen < MIN_PAUSE_SECONDS || shortestChosen < CLEAR_MARGIN * longestLeft))) return null;
  chosen.sort((a, b) => a.start - b.start);
  const timings: WordTiming[] = [];
  clauses.forEach((clause, c) => {
    const from = c === 0 ? sound.start : chosen[c - 1]!.end;
    const to = c === breaks ? sound.end : chosen[c]!.start;
    const estimate = estimateWordTimings(clause.map((i) => words[i]!).join(" "), to - from);
    for (const w of estimate) timings.push({ text: w.text, start: round(from + w.start), end: round(from + w.end) });
  });
  return timings.length === words.length ? timings : null;
}
