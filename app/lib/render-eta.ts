// The render page's progress as a creator reads it: a percentage that never moves back during one render (the
// exact renderer's encoding phase restarts its own count), and an estimate of the time left once a tenth is done.
// Pure: the panel keeps the returned track between progress updates.

/** One progress update: percent done (0 to 100) and seconds since the render started. */
export type ProgressSample = { percent: number; elapsedSeconds: number };

export type ProgressTrack = {
  /** The highest percent seen in this render: what the page shows. */
  percent: number;
  elapsedSeconds: number;
  /** Recent samples (percent rising), oldest first: the pace is measured over them. */
  recent: ProgressSample[];
  /** Seconds left, or null before a tenth is done. */
  remainingSeconds: number | null;
};

export const ESTIMATE_FROM_PERCENT = 10;

/** The pace is measured over the last quarter of the progress made (2 points at least): past the slower start-up, smoothed later. */
const windowPercent = (percent: number) => Math.max(2, percent / 4);

/**
 * The track after `sample`. A sample whose elapsed time is earlier than the track's is a new render: the track
 * starts again. Otherwise the percent is kept at its highest, and from a tenth on the time left is the percent still
 * to do at the pace of the recent samples (from the render's start when there are none far enough back).
 */
export function trackProgress(previous: ProgressTrack | null, sample: ProgressSample): ProgressTrack {
  const sameRender = previous !== null && sample.elapsedSeconds >= previous.elapsedSeconds;
  const percent = Math.min(100, Math.max(0, sample.percent, sameRender ? previous.percent : 0));
  const elapsedSeconds = Math.max(0, sample.elapsedSeconds);
  const recent = sameRender ? [...previous.recent] : [];
  if (!recent.length || percent > recent.at(-1)!.percent) recent.push({ percent, elapsedSeconds });
  // keep one sample at or beyond the window's far end
  const from = percent - windowPercent(percent);
  while (recent.length > 2 && recent[1]!.percent <= from) recent.shift();
  let remainingSeconds: number | null = null;
  if (percent >= 100) remainingSeconds = 0;
  else if (percent >= ESTIMATE_FROM_PERCENT) {
    // the pace as of the last rise of the percent, counted down since: between two rises the time left falls as a
    // clock does, rather than climbing with every read while a chunk or a stage reports nothing new (decision 276);
    // a percent still stuck after that time holds at a sixth of it, and the next rise measures the pace again
    const oldest = recent[0]!;
    const risen = recent.at(-1)!;
    const windowed = oldest.percent <= from && risen.percent > oldest.percent;
    const secondsPerPercent = windowed ? (risen.elapsedSeconds - oldest.elapsedSeconds) / (risen.percent - oldest.percent) : risen.elapsedSeconds / risen.percent;
    const atRise = (100 - percent) * secondsPerPercent;
    remainingSeconds = Math.max(0, Math.round(Math.max(atRise - (elapsedSeconds - risen.elapsedSeconds), atRise / 6)));
  }
  return { percent, elapsedSeconds, recent, remainingSeconds };
}
