// The render page's one percent, shared out by where a render's time goes, so that the time left it shows
// (app/lib/render-eta.ts: the percent still to do at the recent pace) holds to the end (issue 38). Until stop 45 the
// frames filled 5-95 % and the save step (the sound brought to the platform's loudness, the MP4 stored) sat at
// 96-97 %, though it took about a tenth of a fast render: near the end the estimate was 30-44 % short.
// Shares measured with `npm run bench:long` at 1080p (docs/benchmarks.md): in a fast render the save step takes
// about 7 % of the time once the loudness step is a gain and a limiter (decision 190, third round); an exact render
// draws its frames about three times slower, so its save step is a third of that share. A chunked render's sound is
// brought to loudness on a render slot; its join copies both streams and stores the MP4 in a few seconds, so the last
// point is all it gets. On one worker the sound's step now always runs last, after every chunk (Temporal hands the
// render queue's tasks out in order since decision 195), and takes 7-9 % of the chunks' time (bench:long: 63 s
// against 677 s at 20 minutes, stop 48; 67 s against 753 s, stop 47; 19-21 s against 240-304 s at 5 minutes): with
// 5 points against the frames' 89, the time left was 24 % short at 90 % (stop 48). Now 7 against 87.
import type { RenderEngine } from "./render";

/** Where the frames start: the plan, the pictures scaled and the captions drawn come before. */
const FRAMES_FROM = 5;

/** Where a one-piece render's save step starts, by renderer. */
const SAVING_FROM: Record<RenderEngine, number> = { fast: 92, exact: 97 };

/** A chunked render: the frames fill up to here, the sound at the platform's loudness adds the rest up to 99. */
const CHUNK_FRAMES_TO = 92;
const CHUNK_SOUND_POINTS = 7;

/** The percent for a one-piece render with `share` (0 to 1) of its frames (and captions) done. */
export function framesPercent(share: number, engine: RenderEngine): number {
  return Math.round(FRAMES_FROM + clamp(share) * (SAVING_FROM[engine] - FRAMES_FROM));
}

/** The percent for a one-piece render whose save step is `done` (0 to 1) through: 100 only when the render ends. */
export function savingPercent(done: number, engine: RenderEngine): number {
  return Math.min(99, Math.round(SAVING_FROM[engine] + clamp(done) * (100 - SAVING_FROM[engine])));
}

/**
 * The percent for a chunked render: `framesShare` of all chunks' frames done, and `soundShare` of its sound's step
 * (1 once at the platform's loudness). On one worker the sound takes a render slot between two chunks: counted as
 * it goes, not only at its end, the bar keeps moving there and the time left holds (bench:long, stop 47).
 */
export function chunkedPercent(framesShare: number, soundShare: number): number {
  return Math.round(FRAMES_FROM + clamp(framesShare) * (CHUNK_FRAMES_TO - FRAMES_FROM) + clamp(soundShare) * CHUNK_SOUND_POINTS);
}

/** Where a chunked render's join starts (the parts and the sound are ready). */
export const JOIN_PERCENT = CHUNK_FRAMES_TO + CHUNK_SOUND_POINTS;

const clamp = (n: number) => Math.min(1, Math.max(0, Number.isFinite(n) ? n : 0));
