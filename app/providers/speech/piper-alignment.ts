// Word timings of a Piper voice from its own phoneme durations. The voice is fed eSpeak NG's phonemes for a whole
// clause (as it was trained); eSpeak also gives each word's phonemes on its own. The two are lined up phoneme by
// phoneme (an edit-distance alignment that ignores stress and length marks), so every phoneme the voice spoke
// belongs to one word of the script: "2,000" spoken as "two thousand", "$5" as "five dollars" or "of the" run
// together as one eSpeak word all map back to the script's words. A word then lasts from its first phoneme's start
// to its last phoneme's end, in the model's own frames. Pure: no Node.
import { roundSeconds as round, type WordTiming } from "~/lib/timeline/word-timings";

/** One clause as the voice reads it: the script's words, eSpeak's phonemes for the clause, and for each word. */
export type PhonemizedClause = {
  /** the script's words, punctuation kept (as captions show them) */
  words: string[];
  /** eSpeak's IPA for the clause read whole */
  phonemes: string;
  /** eSpeak's IPA for each word read alone (same length as `words`; "" for a word with nothing to say) */
  wordPhonemes: string[];
  /** the clause's closing punctuation the voice hears (",", ".", "?"...), or "" */
  stop: string;
};

/** Piper's phoneme id map (the voice's .onnx.json): each phoneme, one code point, to its ids. */
export type PhonemeIdMap = Record<string, number[]>;

/** A sentence encoded for the voice: its ids, and for each phoneme fed which clause it came from. */
export type EncodedSentence = {
  ids: number[];
  /** the phonemes fed, in order: phoneme k is at ids[2 + 2k] (Piper: BOS, pad, then each phoneme and a pad, EOS) */
  phonemes: { char: string; clause: number }[];
};

const PAD = "_";
const BOS = "^";
const EOS = "$";

/** Marks that do not sound on their own: stress, length, syllable and tie marks. */
const SILENT_MARKS = new Set(["ˈ", "ˌ", "ː", "ˑ", ".", "‿", "\u035C", "\u0361", "-"]);

/** Piper's encoding of a sentence: BOS, pad, each known phoneme followed by a pad, EOS. */
export function encodeSentence(clauses: PhonemizedClause[], ids: PhonemeIdMap): EncodedSentence {
  const out: number[] = [...(ids[BOS] ?? []), ...(ids[PAD] ?? [])];
  const phonemes: EncodedSentence["phonemes"] = [];
  clauses.forEach((clause, index) => {
    const closing = clause.stop ? clause.stop + ([",", ";", ":"].includes(clause.stop) ? " " : "") : index < clauses.length - 1 ? " " : "";
    for (const char of Array.from(`${clause.phonemes}${closing}`.normalize("NFD"))) {
      const id = ids[char];
      if (!id) continue;
      out.push(...id, ...(ids[PAD] ?? []));
      phonemes.push({ char, clause: index });
    }
  });
  out.push(...(ids[EOS] ?? []));
  return { ids: out, phonemes };
}

/** A phoneme that makes a sound of its own (not a stress, length or tie mark, a space or punctuation). */
export const sounding = (char: string) => /\p{L}|\p{M}/u.test(char) && !SILENT_MARKS.has(char);

/**
 * For each phoneme of the clause read whole, the index of the word it belongs to (or -1: a space, punctuation, a
 * mark between words). Needleman-Wunsch over the sounding phonemes of both readings; a phoneme with no partner takes
 * the word of the nearest matched phoneme before it (after it at the clause's start).
 */
export function wordOfEachPhoneme(clausePhonemes: string[], wordPhonemes: string[]): number[] {
  const a = clausePhonemes.map((c, i) => ({ c, i })).filter((p) => sounding(p.c));
  const b = wordPhonemes.flatMap((w, word) => Array.from(w.normalize("NFD")).filter(sounding).map((c) => ({ c, word })));
  const n = a.length;
  const m = b.length;
  const result = clausePhonemes.map(() => -1);
  if (n === 0) return result;
  if (m === 0) return result;
  // cost matrix, row-major; gap 1, mismatch 1 (a substitution beats a gap pair), match 0
  const cost = new Uint32Array((n + 1) * (m + 1));
  const at = (i: number, j: number) => i * (m + 1) + j;
  for (let i = 0; i <= n; i++) cost[at(i, 0)] = i;
  for (let j = 0; j <= m; j++) cost[at(0, j)] = j;
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      const diagonal = cost[at(i - 1, j - 1)]! + (a[i - 1]!.c === b[j - 1]!.c ? 0 : 1);
      cost[at(i, j)] = Math.min(diagonal, cost[at(i - 1, j)]! + 1, cost[at(i, j - 1)]! + 1);
    }
  }
  const labels = new Array<number>(n).fill(-1);
  let i = n;
  let j = m;
  while (i > 0 && j > 0) {
    const here = cost[at(i, j)]!;
    if (here === cost[at(i - 1, j - 1)]! + (a[i - 1]!.c === b[j - 1]!.c ? 0 : 1)) {
      labels[i - 1] = b[j - 1]!.word;
      i--;
      j--;
    } else if (here === cost[at(i - 1, j)]! + 1) i--;
    else j--;
  }
  // unmatched phonemes join the word before them; the clause's first ones the first word matched after them
  let last = labels.find((l) => l >= 0) ?? 0;
  for (let k = 0; k < n; k++) {
    if (labels[k]! < 0) labels[k] = last;
    else last = Math.max(last, labels[k]!);
    labels[k] = Math.max(labels[k]!, k > 0 ? labels[k - 1]! : 0);
    result[a[k]!.i] = labels[k]!;
  }
  return result;
}

/**
 * The words of one sentence timed by the voice's durations: `frames` per id as the model output them (w_ceil),
 * `secondsPerFrame` the model's hop, `offset` where the sentence starts in the whole audio. Every word of every
 * clause is returned, in order; a word with no phoneme of its own (punctuation only) takes no time at the end of the
 * word before it.
 */
export function timeSentenceWords(
  clauses: PhonemizedClause[],
  encoded: EncodedSentence,
  frames: ArrayLike<number>,
  secondsPerFrame: number,
  offset: number,
): WordTiming[] {
  // each fed phoneme's start and end: its id and the pad after it
  const starts: number[] = [];
  const ends: number[] = [];
  let t = 0;
  const frameAt = (k: number) => Number(frames[k] ?? 0);
  t += (frameAt(0) + frameAt(1)) * secondsPerFrame;
  encoded.phonemes.forEach((_, k) => {
    starts.push(t);
    t += frameAt(2 + 2 * k) * secondsPerFrame;
    ends.push(t);
    t += frameAt(3 + 2 * k) * secondsPerFrame;
  });
  const timings: WordTiming[] = [];
  let previousEnd = offset + (starts[0] ?? 0);
  clauses.forEach((clause, c) => {
    const positions = encoded.phonemes.flatMap((p, k) => (p.clause === c ? [k] : []));
    const owner = wordOfEachPhoneme(
      positions.map((k) => encoded.phonemes[k]!.char),
      clause.wordPhonemes,
    );
    clause.words.forEach((text, w) => {
      const mine = positions.filter((_, i) => owner[i] === w);
      if (mine.length === 0) {
        timings.push({ text, start: round(previousEnd), end: round(previousEnd) });
        return;
      }
      const start = offset + starts[mine[0]!]!;
      const end = offset + ends[mine.at(-1)!]!;
      timings.push({ text, start: round(start), end: round(end) });
      previousEnd = end;
    });
  });
  return timings;
}
