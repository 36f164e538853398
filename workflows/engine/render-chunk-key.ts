// Render chunks kept for the next render of their project (issue 53, decision 260): a cut at scene boundaries that
// an edit moves as little as possible, and the key of what a chunk draws. A chunk whose key is unchanged is taken
// from storage as it is; only a chunk whose scenes changed is drawn again. Pure, unit-tested; the storage side is in
// workflows/activities/render-chunk-parts.ts.
import { createHash } from "node:crypto";
import type { Timeline } from "../../app/lib/timeline/timeline";
import { CHUNK_LENGTH_SLACK, sliceTimeline, type RenderChunk } from "./render-chunks";

/**
 * What a kept chunk was drawn by: raise it whenever the fast renderer draws or encodes a chunk differently (a new
 * motion, caption look, encoder setting), so that no chunk drawn by the older code is joined with newer ones.
 */
export const CHUNK_DRAWING_VERSION = 1;

/** At most about this many chunks are kept for a video: a longer video's chunks grow instead (each costs a fixed start). */
export const MAX_KEPT_CHUNKS = 24;

/**
 * How long (seconds) the chunks of a render cut for reuse are, or null when it is not cut for reuse: a video longer
 * than `reuseSeconds` (RENDER_REUSE_CHUNK_SECONDS, by more than CHUNK_LENGTH_SLACK) is cut into chunks of that
 * length, longer for a video of more than MAX_KEPT_CHUNKS of them, shorter when the fleet asks for more chunks
 * (`fleetChunks`, chunkCountFor's count).
 */
export function reuseChunkSeconds(options: { reuseSeconds: number; durationSeconds: number; fleetChunks: number }): number | null {
  const { reuseSeconds, durationSeconds, fleetChunks } = options;
  if (reuseSeconds <= 0 || durationSeconds <= reuseSeconds * (1 + CHUNK_LENGTH_SLACK)) return null;
  return Math.min(Math.max(reuseSeconds, durationSeconds / MAX_KEPT_CHUNKS), durationSeconds / Math.max(1, fleetChunks));
}

/**
 * The pipeline's chunks (decision 292): a make-video run draws a video's chunks while the later scenes' media are
 * made, so a video under the reuse length, long enough to be cut at all, is cut into chunks of about this many
 * seconds (whole scenes), each drawn once its scenes are ready.
 */
export const PIPELINE_CHUNK_SECONDS = 10;

/**
 * How long (seconds) the chunks of a render drawn while its scenes are made are: the reuse length when the video is
 * cut for reuse (reuseChunkSeconds), else PIPELINE_CHUNK_SECONDS for a video of at least `minSeconds`
 * (RENDER_CHUNKED_MIN_SECONDS; null: cut for reuse only), else null (it renders in one piece).
 */
export function earlyChunkSeconds(options: { reuseSeconds: number; durationSeconds: number; fleetChunks: number; minSeconds: number | null }): number | null {
  const reuse = reuseChunkSeconds(options);
  if (reuse !== null || options.minSeconds === null) return reuse;
  return options.durationSeconds >= Math.max(options.minSeconds, 2 * PIPELINE_CHUNK_SECONDS) ? PIPELINE_CHUNK_SECONDS : null;
}

/**
 * Cuts scenes (their frame counts, in order) into runs of whole scenes of at least `targetFrames` each, from the
 * first scene on; what is left at the end (shorter) is the last run. Unlike cutAtScenes' even shares, a chunk's scenes
 * depend only on its own scenes and the ones before it: a scene edited to a new length moves the cut only from its
 * own chunk on, a scene edited at the same length (a new picture, a new caption) moves nothing, and a run that
 * reached the target is final before the scenes after it exist (decision 261 draws it then).
 */
export function cutByLength(sceneFrames: readonly number[], targetFrames: number): RenderChunk[] {
  const chunks: RenderChunk[] = [];
  let fromScene = 0;
  let fromFrame = 0;
  let frames = 0;
  for (const [i, sceneFrameCount] of sceneFrames.entries()) {
    frames += sceneFrameCount;
    if (frames >= targetFrames || i === sceneFrames.length - 1) {
      chunks.push({ index: chunks.length, fromScene, toScene: i + 1, fromFrame, frames });
      fromScene = i + 1;
      fromFrame += frames;
      frames = 0;
    }
  }
  return chunks;
}

/**
 * The key of what a chunk draws: its slice of the timeline (scenes, motions, captions, transitions inside it, the
 * frame size and rate), with each source named by its stored file's id (a new picture is a new file, so a new key),
 * and the renderer's drawing version. The slice starts at frame 0, so the same scenes give the same key wherever
 * they sit in the video.
 */
export function chunkContentKey(timeline: Timeline, chunk: Pick<RenderChunk, "fromScene" | "toScene">): string {
  const slice = sliceTimeline(timeline, chunk);
  return createHash("sha256")
    .update(JSON.stringify({ version: CHUNK_DRAWING_VERSION, slice }))
    .digest("hex");
}
