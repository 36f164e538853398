// Chunks kept for the next render (decision 260): the cut an edit moves least, and the key that changes exactly when
// what a chunk draws changes.
import { describe, expect, it } from "vitest";
import { storyboardVideoSchema } from "../../app/lib/timeline/video-props";
import { buildTimeline } from "../../app/lib/timeline/timeline";
import { chunkContentKey, cutByLength, earlyChunkSeconds, MAX_KEPT_CHUNKS, PIPELINE_CHUNK_SECONDS, reuseChunkSeconds } from "./render-chunk-key";

describe("reuseChunkSeconds", () => {
  it("cuts only a video past the length (and its 5 % slack), into chunks of it, fewer and longer for a long video", () => {
    expect(
      reuseChunkSeconds({
        reuseSeconds: 20,
        durationSeconds: 20.9,
        fleetChunks: 1,
      })
    ).toBeNull();
    expect(
      reuseChunkSeconds({
        reuseSeconds: 20,
        durationSeconds: 60,
        fleetChunks: 1,
      })
    ).toBe(20);
    expect(
      reuseChunkSeconds({
        reuseSeconds: 0,
        durationSeconds: 600,
        fleetChunks: 1,
      })
    ).toBeNull();
    expect(
      reuseChunkSeconds({
        reuseSeconds: 20,
        durationSeconds: 3600,
        fleetChunks: 12,
      })
    ).toBe(3600 / MAX_KEPT_CHUNKS);
    // a fleet's share when it is shorter
    expect(
      reuseChunkSeconds({
        reuseSeconds: 60,
        durationSeconds: 300,
        fleetChunks: 10,
      })
    ).toBe(30);
  });
});

describe("earlyChunkSeconds", () => {
  const at = (durationSeconds: number, minSeconds: number | null = 20) => earlyChunkSeconds({ reuseSeconds: 60, durationSeconds, fleetChunks: 1, minSeconds });
  it("cuts a video under the reuse length into the pipeline's chunks, and a long one as it is cut for reuse", () => {
    // a minute of 16:9 (four 15 s scenes): a chunk a scene, each drawn once its scene is ready
    expect(at(60)).toBe(PIPELINE_CHUNK_SECONDS);
    expect(at(30)).toBe(PIPELINE_CHUNK_SECONDS);
    expect(at(300)).toBe(60);
  });
  it("leaves a video too short to be cut in one piece, and cuts only for reuse when asked to (runs before decision 292)", () => {
    expect(at(15)).toBeNull();
    expect(at(19)).toBeNull();
    expect(at(60, null)).toBeNull();
    expect(at(300, null)).toBe(60);
  });
});

describe("cutByLength", () => {
  it("cuts runs of whole scenes of at least the target, the short rest a run of its own", () => {
    expect(cutByLength([45, 45, 45, 45, 45, 45], 75)).toEqual([
      { index: 0, fromScene: 0, toScene: 2, fromFrame: 0, frames: 90 },
      { index: 1, fromScene: 2, toScene: 4, fromFrame: 90, frames: 90 },
      { index: 2, fromScene: 4, toScene: 6, fromFrame: 180, frames: 90 },
    ]);
    expect(cutByLength([100, 100, 20], 100).map((c) => [c.fromScene, c.toScene])).toEqual([
      [0, 1],
      [1, 2],
      [2, 3],
    ]);
    expect(cutByLength([100, 100, 60], 100).map((c) => [c.fromScene, c.toScene])).toEqual([
      [0, 1],
      [1, 2],
      [2, 3],
    ]);
    // a video shorter than the target is one chunk; a scene longer than it is a chunk alone
    expect(cutByLength([30, 30], 100)).toEqual([{ index: 0, fromScene: 0, toScene: 2, fromFrame: 0, frames: 60 }]);
    expect(cutByLength([500, 20, 90], 100).map((c) => c.frames)).toEqual([500, 110]);
    expect(cutByLength([500, 20, 30], 100).map((c) => c.frames)).toEqual([500, 50]);
  });

  it("moves no cut before an edited scene, and none at all when its length is kept", () => {
    const before = cutByLength([450, 300, 450, 300, 450, 300, 450, 300], 900);
    const longer = cutByLength([450, 300, 450, 300, 450, 300, 600, 300], 900);
    expect(longer.slice(0, 2)).toEqual(before.slice(0, 2));
    expect(cutByLength([450, 300, 450, 300, 450, 300, 450, 300], 900)).toEqual(before);
  });
});

describe("chunkContentKey", () => {
  const timeline = (images: string[], texts = images.map((_, i) => `Scene ${i + 1} says one thing.`), seconds = images.map(() => 1.7)) =>
    buildTimeline(
      storyboardVideoSchema.parse({
        width: 320,
        height: 180,
        fps: 30,
        captions: true,
        scenes: images.map((imageSrc, i) => ({
          imageSrc,
          audioSrc: `audio-${i}`,
          audioDurationInSeconds: seconds[i]!,
          text: texts[i]!,
        })),
        music: { src: "music", volume: 0.1 },
      })
    );
  const images = ["image:a", "image:b", "image:c", "image:d"];
  const chunks = [
    { fromScene: 0, toScene: 2 },
    { fromScene: 2, toScene: 4 },
  ];
  const keys = (t: ReturnType<typeof timeline>) => chunks.map((c) => chunkContentKey(t, c));

  it("is the same for the same scenes, and differs between chunks", () => {
    const [first, second] = keys(timeline(images));
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(keys(timeline(images))).toEqual([first, second]);
    expect(first).not.toBe(second);
  });

  it("changes for the chunk whose scene has a new picture, caption or length, and only for it", () => {
    const [first, second] = keys(timeline(images));
    expect(keys(timeline(["image:a", "image:b", "image:C2", "image:d"]))).toEqual([first, expect.not.stringMatching(second!)]);
    const texts = images.map((_, i) => (i === 1 ? "Scene 2 now says another thing." : `Scene ${i + 1} says one thing.`));
    expect(keys(timeline(images, texts))).toEqual([expect.not.stringMatching(first!), second]);
    // a scene that grew moves the frames after it, but a chunk's slice starts at its own frame 0
    expect(keys(timeline(images, undefined, [2.4, 1.7, 1.7, 1.7]))).toEqual([expect.not.stringMatching(first!), second]);
  });

  it("changes with the frame size, and does not hear the sound (mixed once for the whole video)", () => {
    const [first] = keys(timeline(images));
    expect(chunkContentKey({ ...timeline(images), width: 640, height: 360 }, chunks[0]!)).not.toBe(first);
    expect(chunkContentKey({ ...timeline(images), audio: [] }, chunks[0]!)).toBe(first);
  });
});
