// When each word of an offline voiceover is spoken, read from the synthesiser's own phone timings (Flite's
// `-psdur`: every phone with the time it ends) instead of guessed from syllables. Flite gives phones, not words:
// the words are laid over them by their syllables (one vowel phone a syllable) and first letters, clause by clause,
// where a clause ends at a pause Flite makes (comma, sentence end). Pure: no Node.
import { clausesOf, roundSeconds as round, syllablesIn, wordsOf, type WordTiming } from "~/lib/timeline/word-timings";

export type TimedPhone = { phone: string; start: number; end: number };

/** Flite's pause phone. */
const PAUSE = "pau";
/** The vowels of Flite's US English phone set (CMU): one a syllable. */
const VOWELS = new Set(["aa", "ae", "ah", "ao", "aw", "ax", "axr", "ay", "eh", "er", "ey", "ih", "ix", "iy", "ow", "oy", "uh", "uw"]);
const ANY_VOWEL = [...VOWELS];
/**
 * The phones a word may start with, by its first letter (CMU phones; a silent letter's following sound included:
 * "know", "hour", "write"). A word starting with another character (a digit, an accented letter) may start with any.
 */
const FIRST_PHONES: Record<string, string[]> = {
  a: ANY_VOWEL, e: [...ANY_VOWEL, "y"], i: ANY_VOWEL, o: [...ANY_VOWEL, "w"], u: [...ANY_VOWEL, "y"], y: ["y", ...ANY_VOWEL],
  b: ["b"], c: ["k", "s", "ch", "sh"], d: ["d", "jh"], f: ["f"], g: ["g", "jh", "zh"], h: ["hh", ...ANY_VOWEL], j: ["jh", "y", "hh"],
  k: ["k", "n"], l: ["l"], m: ["m"], n: ["n"], p: ["p", "f"], q: ["k"], r: ["r"], s: ["s", "sh", "z"], t: ["t", "th", "dh", "ch"],
  v: ["v"], w: ["w", "hh", "r"], x: ["z", "eh", "k"], z: ["z", "s"],
};
/** The longest a word may be, in phones (bounds the search). */
const MAX_WORD_PHONES = 40;


/**
 * `pau:0.177 aa:0.328 ...` (each phone with the second it ends) as phones with their start and end. Flite prints a
 * line per utterance (sentence), each timed from its own start; the WAV holds them one after another.
 */
export function parsePhoneDurations(output: string): TimedPhone[] {
  const phones: TimedPhone[] = [];
  let offset = 0;
  for (const line of output.split("\n")) {
    let start = offset;
    for (const token of line.trim().split(/\s+/)) {
      const match = /^([a-z]+):(\d+(?:\.\d+)?)$/.exec(token);
      if (!match) continue;
      const end = offset + Number(match[2]);
      if (end < start) return [];
      phones.push({ phone: match[1]!, start, end });
      start = end;
    }
    offset = start;
  }
  return phones;
}

/** Runs of phones between pauses. */
function spokenRuns(phones: TimedPhone[]): TimedPhone[][] {
  const runs: TimedPhone[][] = [[]];
  for (const p of phones) {
    if (p.phone === PAUSE) {
      if (runs.at(-1)!.length) runs.push([]);
    } else runs.at(-1)!.push(p);
  }
  return runs.filter((r) => r.length > 0);
}

/**
 * The clause's words laid over its phones: the cut into consecutive runs, one a word, that best matches each
 * word's syllables (one vowel phone each) and its first letter (the phone it may start with), found by dynamic
 * programming. The syllable count is a guess from the spelling and may be off by one; the first letters pin the
 * cuts. Starts and ends are seconds into the audio.
 */
function alignClause(words: string[], indexes: number[], phones: TimedPhone[], out: WordTiming[]): void {
  const n = indexes.length;
  const m = phones.length;
  if (m < n) {
    // fewer phones than words (should not happen): share the time evenly
    const from = phones[0]!.start;
    const step = (phones.at(-1)!.end - from) / n;
    indexes.forEach((i, k) => out.push({ text: words[i]!, start: round(from + k * step), end: round(from + (k + 1) * step) }));
    return;
  }
  const vowelsBefore = [0];
  for (const p of phones) vowelsBefore.push(vowelsBefore.at(-1)! + (VOWELS.has(p.phone) ? 1 : 0));
  const firstPhones = indexes.map((i) => {
    const letter = words[i]!.replace(/^[^\p{L}\p{N}]+/u, "").charAt(0).toLowerCase();
    return FIRST_PHONES[letter];
  });
  const syllables = indexes.map((i) => syllablesIn(words[i]!));
  /** How badly word k fits phones [a, b): syllables off, and a first phone its first letter cannot make. */
  const cost = (k: number, a: number, b: number) => {
    const vowels = vowelsBefore[b]! - vowelsBefore[a]!;
    const off = Math.abs(vowels - syllables[k]!) + (syllables[k]! > 0 && vowels === 0 ? 2 : 0);
    const allowed = firstPhones[k];
    return off + (allowed && !allowed.includes(phones[a]!.phone) ? 1.5 : 0);
  };
  // best[k][j]: the least cost of words 0..k-1 over phones 0..j-1; from[k][j] the start of word k-1 there
  const best = Array.from({ length: n + 1 }, () => new Float64Array(m + 1).fill(Infinity));
  const from = Array.from({ length: n + 1 }, () => new Int32Array(m + 1));
  best[0]![0] = 0;
  for (let k = 1; k <= n; k++) {
    for (let j = k; j <= m - (n - k); j++) {
      for (let i = Math.max(k - 1, j - MAX_WORD_PHONES); i < j; i++) {
        const c = best[k - 1]![i]! + cost(k - 1, i, j);
        if (c < best[k]![j]!) {
          best[k]![j] = c;
          from[k]![j] = i;
        }
      }
    }
  }
  const starts: number[] = new Array(n);
  let end = m;
  for (let k = n; k >= 1; k--) {
    // a word longer than MAX_WORD_PHONES leaves no path: fall back to one phone per word at the end
    const start = Number.isFinite(best[k]![end]!) ? from[k]![end]! : Math.max(k - 1, end - 1);
    starts[k - 1] = start;
    end = start;
  }
  indexes.forEach((i, k) =>
    out.push({ text: words[i]!, start: round(phones[starts[k]!]!.start), end: round(k + 1 < n ? phones[starts[k + 1]!]!.start : phones.at(-1)!.end) }),
  );
}

/**
 * Word timings of `text` as the synthesiser spoke it, from its phones; null when there is nothing to lay the
 * words over. Clause by clause when the voice paused once per clause, else over the whole text at once.
 */
export function wordTimingsFromPhones(text: string, phones: TimedPhone[]): WordTiming[] | null {
  const words = wordsOf(text);
  const runs = spokenRuns(phones);
  if (words.length === 0 || runs.length === 0) return null;
  const clauses = clausesOf(words);
  const out: WordTiming[] = [];
  if (clauses.length === runs.length) clauses.forEach((clause, c) => alignClause(words, clause, runs[c]!, out));
  else alignClause(words, words.map((_, i) => i), runs.flat(), out);
  return out;
}
