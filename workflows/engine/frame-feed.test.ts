import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { feedFrames } from "./frame-feed";

const SLOTS = 3;
const FRAME = 64 * 1024;

/** Frames as the moving image hands them out: frame k drawn (filled with k) into slot k % SLOTS when asked for. */
async function* ringFrames(count: number, drawn: number[]): AsyncGenerator<Uint8Array> {
  const memory = new Uint8Array(SLOTS * FRAME);
  for (let k = 0; k < count; k++) {
    const slot = memory.subarray((k % SLOTS) * FRAME, (k % SLOTS + 1) * FRAME);
    slot.fill(k);
    drawn.push(k);
    yield slot;
  }
}

/** A pipe that takes each write a while later (as ffmpeg reads when it can), and records what it took then. */
function slowPipe(took: number[][], failAt = -1) {
  let n = 0;
  return new Writable({
    highWaterMark: 1,
    write(chunk: Buffer, _encoding, callback) {
      const index = n++;
      setTimeout(() => {
        if (index === failAt) return callback(Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
        took.push([...new Set(chunk)]);
        callback();
      }, index % 4);
    },
  });
}

describe("feedFrames", () => {
  it("writes every frame as it was drawn: a slot is drawn over only after its frame was taken", async () => {
    const drawn: number[] = [];
    const took: number[][] = [];
    await feedFrames(ringFrames(40, drawn), slowPipe(took), SLOTS);
    expect(drawn).toHaveLength(40);
    // each write held one frame's bytes, unchanged, in order
    expect(took).toEqual(Array.from({ length: 40 }, (_, k) => [k]));
  });

  it("fails with the pipe's error and stops drawing", async () => {
    const drawn: number[] = [];
    await expect(feedFrames(ringFrames(40, drawn), slowPipe([], 5), SLOTS)).rejects.toThrow("write EPIPE");
    expect(drawn.length).toBeLessThan(40);
  });
});
