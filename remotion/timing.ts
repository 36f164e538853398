// Frame arithmetic shared by the composition, the render activity (progress per scene) and the tests.
// Pure: no React, no Node.

export const VIDEO_FPS = 30;
/** Silence after each voiceover, so one scene's last word does not run into the next scene. */
export const SCENE_PAD_SECONDS = 0.5;

export function sceneDurationInFrames(audioDurationInSeconds: number, fps: number = VIDEO_FPS): number {
  return Math.max(1, Math.ceil((audioDurationInSeconds + SCENE_PAD_SECONDS) * fps));
}

/** The first frame of every scene, plus the total frame count as the last element. */
export function sceneBoundaries(audioDurations: readonly number[], fps: number = VIDEO_FPS): number[] {
  const bounds = [0];
  for (const seconds of audioDurations) bounds.push(bounds[bounds.length - 1]! + sceneDurationInFrames(seconds, fps));
  return bounds;
}

export function totalDurationInFrames(audioDurations: readonly number[], fps: number = VIDEO_FPS): number {
  return Math.max(1, sceneBoundaries(audioDurations, fps).at(-1)!);
}

/** How many scenes are fully rendered once `renderedFrames` frames are done. */
export function completedScenesAt(boundaries: readonly number[], renderedFrames: number): number {
  let done = 0;
  for (let i = 1; i < boundaries.length; i++) if (renderedFrames >= boundaries[i]!) done = i;
  return done;
}
