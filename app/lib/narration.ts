// Narration that fits its time: how many words a script needs so that its voiceovers, plus the pause the timeline
// puts after each scene, last the requested duration. Pure (read by the script workflow, activities and tests).
// See docs/decisions/111-narration-that-fits-its-time.md.
import { SCENE_PAD_SECONDS, VIDEO_FPS } from "./timeline/timing";

/**
 * Silence kept at each end of a voiceover when its leading and trailing silence is trimmed (a little, so the
 * first consonant is never clipped). The pause between two scenes is then this twice plus SCENE_PAD_SECONDS.
 */
export const VOICE_EDGE_SECONDS = 0.04;

/** The pause heard at each cut between two scenes (trimmed voiceovers): short and the same at every cut. */
export const PAUSE_BETWEEN_SCENES_SECONDS = SCENE_PAD_SECONDS + 2 * VOICE_EDGE_SECONDS;

/**
 * Words per second of a cloud voice we do not measure (measuring costs the creator credits): about 170 words a
 * minute. Published measurements: OpenAI's TTS voices read standard passages at 176-179 words a minute, and
 * ElevenLabs voices were measured at 3.4 words a second on short texts (community.openai.com, "TTS talking speed",
 * "Eleven labs seem to be much faster"); narration guides give 150-160 for a human narrator. Scene lengths follow
 * the real audio whatever the script's length.
 */
export const TYPICAL_CLOUD_WORDS_PER_SECOND = 170 / 60;

/** The voice speed range the product offers (1 = the voice's own pace). */
export const VOICE_SPEED_RANGE = { min: 0.7, max: 1.3 } as const;

export type NarrationPlan = {
  /** Words the whole script should have. */
  targetWords: number;
  /** Seconds of speech those words take at the voice's rate and speed. */
  speechSeconds: number;
  /** Seconds of pauses and frame rounding the timeline adds around the scenes. */
  pauseSeconds: number;
};

/**
 * The script length for a video of `durationSeconds` in `sceneCount` scenes, read by a voice speaking
 * `wordsPerSecond` at `speed`. Every scene costs its pause plus half a frame on average (the timeline rounds each
 * scene up to whole frames); the rest of the time is speech.
 */
export function planNarration(input: { durationSeconds: number; sceneCount: number; wordsPerSecond: number; speed?: number; fps?: number }): NarrationPlan {
  const speed = Math.min(VOICE_SPEED_RANGE.max, Math.max(VOICE_SPEED_RANGE.min, input.speed ?? 1));
  const fps = input.fps ?? VIDEO_FPS;
  const scenes = Math.max(1, Math.round(input.sceneCount));
  const pauseSeconds = scenes * (PAUSE_BETWEEN_SCENES_SECONDS + 0.5 / fps);
  const speechSeconds = Math.max(1, input.durationSeconds - pauseSeconds);
  const targetWords = Math.max(1, Math.round(speechSeconds * input.wordsPerSecond * speed));
  return { targetWords, speechSeconds, pauseSeconds };
}

/** Ends with a sentence's closing punctuation (a closing quote or bracket may follow). */
export function endsASentence(text: string): boolean {
  return /[.!?…]["'”’)\]]?$/.test(text.trim());
}

/**
 * Which scenes to speak to time a script whose scenes have `sceneWords` words: all of them up to `wholeUpTo` words;
 * past it, evenly spaced scenes (one in the middle of each of k equal runs) totalling about `sampleWords`, so
 * timing a 60-minute script costs what timing a 5-minute one does (decision 111). Indices in order, never empty.
 */
export function timingSample(sceneWords: readonly number[], options: { wholeUpTo: number; sampleWords: number }): number[] {
  const n = sceneWords.length;
  const total = sceneWords.reduce((sum, w) => sum + w, 0);
  if (n === 0) return [];
  if (total <= options.wholeUpTo) return sceneWords.map((_, i) => i);
  const k = Math.max(1, Math.min(n, Math.ceil((n * options.sampleWords) / total)));
  return Array.from({ length: k }, (_, i) => Math.floor(((i + 0.5) * n) / k));
}
