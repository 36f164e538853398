// Bounds on the work one user can ask for: how long a render may be, how many runs at once.

/** A render may run this much past the project's chosen duration (voiceovers rarely land exactly on it). */
export const RENDER_MARGIN = { fraction: 0.25, minSeconds: 30 };

/** The longest video a project of this duration may render, in seconds. */
export function renderLengthCapSeconds(projectDurationSeconds: number): number {
  return projectDurationSeconds + Math.max(RENDER_MARGIN.minSeconds, projectDurationSeconds * RENDER_MARGIN.fraction);
}

export function renderTooLongMessage(videoSeconds: number, projectDurationSeconds: number): string {
  const cap = Math.round(renderLengthCapSeconds(projectDurationSeconds));
  return `The voiceovers add up to ${Math.round(videoSeconds)} s, longer than this project's ${projectDurationSeconds} s allows (at most ${cap} s). Shorten the voiceover texts on the Storyboard page.`;
}

/** Per user: renders at once, and pipeline workflows (script, storyboard, scene media, generate-all) at once. */
export const CONCURRENCY_LIMITS = { rendersPerUser: 1, pipelineRunsPerUser: 4 };

/**
 * The worker's activity slots for a machine with `cores` cores: a render takes one slot per 2 cores (so
 * cores/2 renders fit, at least one), and the light activities (provider calls, database) get one more slot
 * per core beside them.
 */
export function workerSlots(cores: number): { activities: number; renders: number } {
  const renders = Math.max(1, Math.floor(cores / 2));
  return { renders, activities: renders + Math.max(2, cores) };
}
