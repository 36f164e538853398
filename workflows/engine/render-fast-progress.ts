// A fast render's progress as one number: its captions are drawn first (a browser pass: 44 s of a 20-minute 1080p
// render, when the render page used to sit at 4 %; issue 38), then its frames are encoded. Both phases move it,
// and it never moves back.
import type { FastProgress } from "./render-fast";

/**
 * The share of a fast render's time that drawing its captions takes (npm run bench:long at 1080p, load average about
 * 3: 7 s of 191 s at 5 minutes in one piece, 28 s of 810 s at 20 minutes in four chunks). A render with no captions
 * gives the whole range to its frames.
 */
export const CAPTIONS_SHARE = 0.04;

/**
 * Follows one fast render's progress events: each call returns how much of it is done, from 0 to 1 (the captions
 * fill the first CAPTIONS_SHARE, the frames the rest), never less than the call before.
 */
export function fastRenderDone(): (p: FastProgress) => number {
  let drewCaptions = false;
  let done = 0;
  return (p) => {
    const of = (n: number, total: number) => Math.min(1, Math.max(0, n / Math.max(1, total)));
    if (p.phase === "captions") drewCaptions = true;
    const share = drewCaptions ? CAPTIONS_SHARE : 0;
    const now = p.phase === "captions" ? share * of(p.done, p.total) : share + (1 - share) * of(p.frame, p.total);
    done = Math.max(done, now);
    return done;
  };
}
