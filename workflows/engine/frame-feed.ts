// Frames written to ffmpeg's pipe in place: the fast renderer's moving pictures are views of a few frames' memory
// (pan-zoom.ts), not a fresh buffer each, so a frame's memory may be drawn over only once its write is done.
import type { Writable } from "node:stream";
import { finished } from "node:stream/promises";

/**
 * Writes `frames` to `input`, each in place (no copy), at most `slots` not yet taken: a frame's memory is drawn
 * over only once the stream's write callback says it has been handed on (to the kernel's pipe, for ffmpeg).
 */
export async function feedFrames(frames: AsyncGenerator<Uint8Array>, input: Writable, slots: number): Promise<void> {
  let failure: unknown;
  // a write's error comes to its callback too; listened for so it is not an uncaught 'error' event (left on: the
  // pipe may fail after the last frame, when ffmpeg ends first)
  input.on("error", (e: unknown) => void (failure ??= e));
  const taken: Promise<void>[] = [];
  try {
    for (;;) {
      if (taken.length === slots) await taken.shift();
      if (failure !== undefined) throw failure;
      const next = await frames.next();
      if (next.done) break;
      const written = new Promise<void>((resolve, reject) => input.write(next.value, (e) => (e ? reject(e) : resolve())));
      written.catch(() => undefined); // awaited in its turn
      taken.push(written);
    }
    for (const written of taken) await written;
    input.end();
    await finished(input, { readable: false });
  } finally {
    await frames.return(undefined);
  }
}
