// How often a render's activities signal its workflow with their progress. Each signal adds four events to the
// workflow's history (the signal and a workflow task's three), and Temporal ends a workflow past 50,000 events or
// 50 MB; issue 38 keeps every stage within a tenth of that. At one signal a second a 60-minute video's 40-minute
// render would hold about 9,600 events; spacing the signals by the video's length keeps a render near 350 signals
// (1,400 events) at any length, and a 5-minute video still moves its bar every second.

/** The least time between two progress signals of a render of `videoSeconds`: 1 s, or 2 ms per second of video. */
export function signalSpacingMs(videoSeconds: number): number {
  return Math.max(1000, Math.round(videoSeconds * 2));
}

/** A gate for progress signals: `due()` says whether one may go now (a forced one always may, and restarts the wait). */
export function signalPace(videoSeconds: number, now: () => number = Date.now) {
  const spacing = signalSpacingMs(videoSeconds);
  let last = -Infinity;
  return {
    spacingMs: spacing,
    due(force = false): boolean {
      const at = now();
      if (!force && at - last < spacing) return false;
      last = at;
      return true;
    },
  };
}
