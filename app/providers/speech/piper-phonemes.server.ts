// Phonemes for a Piper voice from eSpeak NG, run as a separate program (`espeak-ng -q --ipa`), as Piper's own
// phonemizer does with the library: the voice was trained on eSpeak's IPA. The text is cut into sentences (one
// inference each, so a long narration streams) and clauses (the voice hears their punctuation). For word timings
// each word is also phonemized alone (piper-alignment.ts lines the two readings up). Two eSpeak runs a voiceover
// (phonemizeSentences), two a sentence when eSpeak's lines do not match ours (phonemizeSentence).
import { spawn } from "node:child_process";
import { getEnv } from "~/core/env.server";
import { ProviderError } from "../errors";
import { splitSentences } from "../text/language";
import { wordsOf } from "~/lib/timeline/word-timings";
import { ESPEAK_MISSING } from "./espeak.server";
import type { PhonemizedClause } from "./piper-alignment";
import { speakable } from "./speakable";

const PROVIDER = "Offline neural voice (Piper)";
/** The eSpeak NG program, as the eSpeak voice finds it: the checked setting (env.server.ts, issue 47). */
const espeakProgram = () => getEnv().ESPEAK_NG_PATH;

/** eSpeak's IPA for `text` (one clause or word a line), one output line per clause eSpeak heard. */
function espeakIpa(voice: string, text: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(espeakProgram(), ["-q", "--ipa", "-v", voice], { stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.once("error", (e: NodeJS.ErrnoException) =>
      reject(new ProviderError(PROVIDER, "rejected", e.code === "ENOENT" ? ESPEAK_MISSING : `eSpeak NG could not start: ${e.message}`)),
    );
    child.once("close", (code) => {
      if (code !== 0) reject(new ProviderError(PROVIDER, "unavailable", `eSpeak NG stopped with exit code ${code}: ${stderr.trim().slice(0, 200)}`));
      // language-switch marks such as "(en)" are eSpeak's notes, not sounds
      else resolve(stdout.split("\n").map((l) => l.replace(/\([^)]*\)/g, "").replace(/\s+/g, " ").trim()));
    });
    child.stdin.end(text);
  });
}

/** A clause's closing punctuation as the voice hears it. */
const stopOf = (word: string) => /([,;:.!?])["'”’)\]]*$/.exec(word)?.[1] ?? "";
/** A word as eSpeak should read it alone: without the punctuation that would end a clause around it. */
const bare = (word: string) => word.replace(/^[^\p{L}\p{N}$€£%&@#]+/u, "").replace(/[^\p{L}\p{N}%]+$/u, "");

/** The sentence's words cut into clauses after a comma, semicolon or colon (a sentence end closes the last). */
export function clausesOfSentence(sentence: string): string[][] {
  const clauses: string[][] = [[]];
  for (const word of wordsOf(sentence)) {
    clauses.at(-1)!.push(word);
    if (/[,;:]["'”’)\]]*$/.test(word)) clauses.push([]);
  }
  return clauses.filter((c) => c.length > 0);
}

/** One sentence as clauses with eSpeak's phonemes, for the eSpeak voice `voice` ("en-us", "fr"...). */
export async function phonemizeSentence(sentence: string, voice: string): Promise<PhonemizedClause[]> {
  // the script's own words label the timings (captions match them to the text); eSpeak reads their speakable form
  const clauses = clausesOfSentence(sentence);
  const said = (word: string) => speakable(word);
  const words = clauses.flat();
  const spoken = words.filter((w) => bare(said(w))).map((w) => bare(said(w)));
  const [whole, alone] = await Promise.all([
    espeakIpa(voice, clauses.map((c) => c.map(said).join(" ")).join("\n")),
    spoken.length ? espeakIpa(voice, spoken.join("\n")) : Promise.resolve([]),
  ]);
  let clauseIpa = whole.filter(Boolean);
  // eSpeak cuts clauses where it hears them: when that is not where we cut, each clause is read on its own
  if (clauseIpa.length !== clauses.length) clauseIpa = await Promise.all(clauses.map(async (c) => (await espeakIpa(voice, c.map(said).join(" "))).filter(Boolean).join(" ")));
  // one line a word, unless eSpeak cut a word in two ("e.g"): then each word is read on its own
  let wordIpa = alone.filter(Boolean);
  if (wordIpa.length !== spoken.length) wordIpa = await Promise.all(spoken.map(async (w) => (await espeakIpa(voice, w)).filter(Boolean).join(" ")));
  let next = 0;
  return clauses.map((c, i) => ({
    words: c,
    phonemes: clauseIpa[i] ?? "",
    wordPhonemes: c.map((word) => (bare(said(word)) ? (wordIpa[next++] ?? "") : "")),
    stop: stopOf(said(c.at(-1)!)),
  }));
}

/** The text's sentences, in order (each is one inference). */
export const sentencesOf = (text: string) => splitSentences(text);

/**
 * Many sentences as clauses with eSpeak's phonemes: one eSpeak run for all their clauses (a clause a line) and, with
 * `words`, one for all their words (a word a line), whatever the number of sentences. A program started from a worker
 * that holds a neural voice costs tens of milliseconds of its event loop (the fork copies its page tables), so two
 * runs a voiceover rather than two a sentence. Sentence by sentence (phonemizeSentence) when eSpeak does not answer a
 * line a clause or a word. Without `words` (no word timings) it is what the neural voice's clock
 * (piper-clock.server.ts) reads a draft with; with them, what the voice speaks from (piper.server.ts).
 */
export async function phonemizeSentences(sentences: string[], voice: string, { words = false } = {}): Promise<PhonemizedClause[][]> {
  const clauses = sentences.map(clausesOfSentence);
  const said = (word: string) => speakable(word);
  const lines = clauses.flatMap((sentence) => sentence.map((c) => c.map(said).join(" ")));
  if (lines.length === 0) return sentences.map(() => []);
  const spoken = words ? clauses.flat(2).map((w) => bare(said(w))).filter(Boolean) : [];
  const [answer, alone] = await Promise.all([
    espeakIpa(voice, lines.join("\n")),
    spoken.length ? espeakIpa(voice, spoken.join("\n")) : Promise.resolve([]),
  ]);
  const clauseIpa = answer.filter(Boolean);
  const wordIpa = alone.filter(Boolean);
  if (clauseIpa.length !== lines.length || wordIpa.length !== spoken.length) {
    const each: PhonemizedClause[][] = [];
    for (const sentence of sentences) each.push(await phonemizeSentence(sentence, voice));
    return each;
  }
  let nextClause = 0;
  let nextWord = 0;
  return clauses.map((sentence) =>
    sentence.map((c) => ({
      words: c,
      phonemes: clauseIpa[nextClause++]!,
      wordPhonemes: c.map((word) => (words && bare(said(word)) ? wordIpa[nextWord++]! : "")),
      stop: stopOf(said(c.at(-1)!)),
    })),
  );
}
