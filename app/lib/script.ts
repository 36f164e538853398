// Script arithmetic shared by the browser and the server (spec sections 5 and 9).
import { WORDS_PER_MINUTE } from "./constants";

/** Words split on whitespace. */
export function countWords(text: string): number {
  const trimmed = text.trim();
  return trimmed ? trimmed.split(/\s+/).length : 0;
}

/** Video minutes a script fills: words / 150, rounded. */
export function minutesForWords(words: number): number {
  return Math.round(words / WORDS_PER_MINUTE);
}

/** Target words for a video: minutes x 150. */
export function targetWordsFor(durationSeconds: number): number {
  return Math.max(1, Math.round((durationSeconds / 60) * WORDS_PER_MINUTE));
}

/** Download name: the title lowercased, non-alphanumerics as underscores, plus '_script.txt'. */
export function scriptFileName(title: string): string {
  return `${title.toLowerCase().replace(/[^a-z0-9]/g, "_")}_script.txt`;
}

/** Longest chunk a single text request writes; long scripts are written in several bounded chunks. */
export const MAX_CHUNK_WORDS = 450;

/** Word targets of the chunks a script of `targetWords` is written in; they sum to targetWords. */
export function planChunks(targetWords: number): number[] {
  const count = Math.max(1, Math.ceil(targetWords / MAX_CHUNK_WORDS));
  const base = Math.floor(targetWords / count);
  return Array.from({ length: count }, (_, i) => base + (i < targetWords % count ? 1 : 0));
}

/** A chunk shorter than this share of its target is expanded. */
export const EXPANSION_THRESHOLD = 0.85;
export const MAX_EXPANSION_ATTEMPTS = 3;
