// Frame arithmetic shared by the composition, the render activity (progress per scene) and the tests.
// Pure: no React, no Node.

export const VIDEO_FPS = 30;
/**
 * Silence after each voiceover, so one scene's last word does not run into the next scene. Voiceovers are trimmed
 * to 0.04 s of silence at each end (app/providers/speech/voiceover.ts), so every cut pauses about 0.38 s.
 */
export const SCENE_PAD_SECONDS = 0.3;

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
