// Which runs of a video's scenes make good Shorts (issue 51, decision 229): the length a run has once rendered (the
// renderers' own timing, with the end card), an opening line from its first sentence, and the rule-based pick of
// suggested runs. Pure: the page, the server and the API share it.
import { z } from "zod";
import { totalDurationInFrames, VIDEO_FPS } from "./timeline/timing";

/**
 * The longest Short YouTube takes: 3 minutes for uploads since 15 October 2024
 * (https://support.google.com/youtube/answer/15424877). Reelsmith's default is the classic 60 s.
 */
export const SHORT_MAX_SECONDS = 180;
export const SHORT_DEFAULT_SECONDS = 60;
/** The end card's length: silent, long enough to read the title. */
export const END_CARD_SECONDS = 2.5;
const HOOK_MAX = 90;

export const ShortRequestSchema = z
  .object({
    fromScene: z.int("fromScene must be a whole number.").min(0, "fromScene must be 0 or more.").max(999, "fromScene must be at most 999."),
    toScene: z.int("toScene must be a whole number.").min(0, "toScene must be 0 or more.").max(999, "toScene must be at most 999."),
    hook: z.string().trim().min(1, "hook must not be empty.").max(HOOK_MAX, `hook must be at most ${HOOK_MAX} characters.`).optional(),
    maxSeconds: z.int("maxSeconds must be a whole number.").min(10, "maxSeconds must be at least 10.").max(SHORT_MAX_SECONDS, `maxSeconds must be at most ${SHORT_MAX_SECONDS}.`).optional(),
  })
  .strict()
  .refine((r) => r.toScene >= r.fromScene, { message: "toScene must not come before fromScene.", path: ["toScene"] });
export type ShortRequest = z.infer<typeof ShortRequestSchema>;

type SceneFacts = { cellIndex: number; voiceoverText: string; audioDuration: number | null };

/** The Short's length in seconds as the renderers time it: each scene's voiceover plus its pause, then the end card. */
export function shortSeconds(durations: readonly number[]): number {
  return totalDurationInFrames([...durations, END_CARD_SECONDS], VIDEO_FPS) / VIDEO_FPS;
}

const firstSentence = (text: string) => (/^.*?[.!?…](?=\s|$)/s.exec(text.trim())?.[0] ?? text.trim()).trim();

/** An opening line from the run's first sentence: a question stays as it is; a long sentence is cut at a word. */
export function hookFor(text: string): string {
  const sentence = firstSentence(text).replace(/\s+/g, " ");
  if (sentence.length <= 70) return sentence;
  const words = sentence.split(" ");
  let line = "";
  for (const word of words) {
    if ((line ? line.length + 1 : 0) + word.length > 60) break;
    line = line ? `${line} ${word}` : word;
  }
  return `${line.replace(/[,;:]$/, "")}…`;
}

const HOOK_WORDS = /\b(why|how|what|secret|never|always|most|best|worst|only|surprising|actually|really|you|your|imagine|did you know)\b/gi;

/** How strongly a run's first sentence opens a Short: a question, a number, a word that promises something. */
function hookScore(text: string): number {
  const sentence = firstSentence(text);
  let score = 0;
  if (sentence.endsWith("?")) score += 3;
  if (/\d/.test(sentence)) score += 1.5;
  score += Math.min(3, (sentence.match(HOOK_WORDS) ?? []).length);
  // a run should not open mid-thought
  if (/^(and|but|so|then|also|because|which|this|that|it|they)\b/i.test(sentence)) score -= 2;
  return score;
}

export type ShortSuggestion = { fromScene: number; toScene: number; seconds: number; hook: string; reason: string };

/**
 * The rule-based pick: for every scene, the longest run from it that fits `maxSeconds`; each scored by its opening
 * (a question, a number, a promise) and by how much of the Short it fills; the best ones that do not overlap.
 */
export function suggestShortRuns(scenes: readonly SceneFacts[], maxSeconds = SHORT_DEFAULT_SECONDS, count = 3): ShortSuggestion[] {
  const ready = scenes.every((s) => s.audioDuration && s.audioDuration > 0);
  if (!ready || !scenes.length) return [];
  const runs: (ShortSuggestion & { score: number })[] = [];
  for (let i = 0; i < scenes.length; i++) {
    let j = i;
    const durations = [scenes[i]!.audioDuration!];
    if (shortSeconds(durations) > maxSeconds) continue;
    while (j + 1 < scenes.length && shortSeconds([...durations, scenes[j + 1]!.audioDuration!]) <= maxSeconds) durations.push(scenes[++j]!.audioDuration!);
    const seconds = shortSeconds(durations);
    const opening = hookScore(scenes[i]!.voiceoverText);
    const fill = seconds / maxSeconds;
    const first = firstSentence(scenes[i]!.voiceoverText);
    const reason = first.endsWith("?") ? "Opens with a question" : opening >= 2 ? "Opens with a strong line" : i === 0 ? "The video's opening" : "A complete run of scenes";
    runs.push({ fromScene: scenes[i]!.cellIndex, toScene: scenes[j]!.cellIndex, seconds: Math.round(seconds * 10) / 10, hook: hookFor(scenes[i]!.voiceoverText), reason, score: opening + 3 * fill + (i === 0 ? 0.5 : 0) });
  }
  runs.sort((a, b) => b.score - a.score || a.fromScene - b.fromScene);
  const chosen: typeof runs = [];
  for (const run of runs) {
    if (chosen.length >= count) break;
    if (chosen.some((c) => run.fromScene <= c.toScene && c.fromScene <= run.toScene)) continue;
    chosen.push(run);
  }
  return chosen.sort((a, b) => a.fromScene - b.fromScene).map(({ score: _score, ...run }) => run);
}

