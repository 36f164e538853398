// The pure parts of a chunked render (decision 156): how many chunks, where the cuts fall, what a chunk draws.
import { describe, expect, it } from "vitest";
import { storyboardVideoSchema } from "../../app/lib/timeline/video-props";
import { buildTimeline } from "../../app/lib/timeline/timeline";
import { chunkConcatList, chunkCountFor, cutAtScenes, sliceTimeline, soundOf } from "./render-chunks";

describe("chunkCountFor", () => {
  it("keeps short videos, single workers and single scenes in one piece", () => {
    expect(chunkCountFor({ durationSeconds: 19.9, scenes: 4, renderWorkers: 4, minSeconds: 20 })).toBe(1);
    expect(chunkCountFor({ durationSeconds: 600, scenes: 40, renderWorkers: 1, minSeconds: 20 })).toBe(1);
    expect(chunkCountFor({ durationSeconds: 600, scenes: 1, renderWorkers: 4, minSeconds: 20 })).toBe(1);
  });

  it("gives one chunk per polling worker, bounded by the scenes and by chunks of half the threshold", () => {
    expect(chunkCountFor({ durationSeconds: 60, scenes: 12, renderWorkers: 2, minSeconds: 20 })).toBe(2);
    expect(chunkCountFor({ durationSeconds: 60, scenes: 3, renderWorkers: 8, minSeconds: 20 })).toBe(3);
    expect(chunkCountFor({ durationSeconds: 25, scenes: 5, renderWorkers: 8, minSeconds: 20 })).toBe(2);
    expect(chunkCountFor({ durationSeconds: 10, scenes: 2, renderWorkers: 2, minSeconds: 0 })).toBe(2);
  });
});

describe("chunkCountFor with a longest chunk", () => {
  const long = { minSeconds: 20, maxChunkSeconds: 300 };

  it("cuts a long video into chunks of at most that length even on one worker", () => {
    expect(chunkCountFor({ durationSeconds: 3600, scenes: 240, renderWorkers: 1, ...long })).toBe(12);
    expect(chunkCountFor({ durationSeconds: 1200, scenes: 80, renderWorkers: 1, ...long })).toBe(4);
    expect(chunkCountFor({ durationSeconds: 316, scenes: 20, renderWorkers: 0, ...long })).toBe(2);
    expect(chunkCountFor({ durationSeconds: 300, scenes: 20, renderWorkers: 1, ...long })).toBe(1);
    // a default 5-minute video a second or a few over the bound stays in one piece (decision 194)
    expect(chunkCountFor({ durationSeconds: 300.83, scenes: 20, renderWorkers: 1, ...long })).toBe(1);
    expect(chunkCountFor({ durationSeconds: 315, scenes: 20, renderWorkers: 1, ...long })).toBe(1);
    // never more chunks than scenes: a long single scene stays whole
    expect(chunkCountFor({ durationSeconds: 900, scenes: 2, renderWorkers: 1, ...long })).toBe(2);
    expect(chunkCountFor({ durationSeconds: 900, scenes: 1, renderWorkers: 1, ...long })).toBe(1);
  });

  it("keeps one chunk per worker when that is more, and every chunk of the cut within the bound", () => {
    expect(chunkCountFor({ durationSeconds: 600, scenes: 40, renderWorkers: 4, ...long })).toBe(4);
    expect(chunkCountFor({ durationSeconds: 3600, scenes: 240, renderWorkers: 4, ...long })).toBe(12);
    expect(chunkCountFor({ durationSeconds: 3600, scenes: 240, renderWorkers: 1, minSeconds: 20, maxChunkSeconds: 0 })).toBe(1);
    const sceneFrames = Array.from({ length: 240 }, () => 450);
    const chunks = cutAtScenes(sceneFrames, chunkCountFor({ durationSeconds: 3600, scenes: 240, renderWorkers: 1, ...long }));
    expect(chunks.every((c) => c.frames <= 300 * 30)).toBe(true);
    expect(chunks.reduce((sum, c) => sum + c.frames, 0)).toBe(240 * 450);
  });
});

describe("cutAtScenes", () => {
  it("cuts at the scene edges nearest an even share, every chunk holding a scene", () => {
    const chunks = cutAtScenes([150, 150, 150, 150, 300, 100], 2);
    expect(chunks).toEqual([
      { index: 0, fromScene: 0, toScene: 3, fromFrame: 0, frames: 450 },
      { index: 1, fromScene: 3, toScene: 6, fromFrame: 450, frames: 550 },
    ]);
    expect(cutAtScenes([10, 1000], 2).map((c) => c.frames)).toEqual([10, 1000]);
    expect(cutAtScenes([10, 20, 30], 5)).toHaveLength(3);
  });
});

describe("sliceTimeline", () => {
  const timeline = buildTimeline(
    storyboardVideoSchema.parse({
      width: 320,
      height: 180,
      fps: 30,
      captions: true,
      scenes: [0, 1, 2].map((i) => ({ imageSrc: `image-${i}`, audioSrc: `audio-${i}`, audioDurationInSeconds: 1.7, text: `Scene ${i + 1} says one thing.` })),
      music: { src: "music", volume: 0.1 },
    }),
  );

  it("draws the chunk's scenes and their captions from frame 0, keeping each scene's own motion, without sound", () => {
    const [, second] = cutAtScenes(
      timeline.scenes.map((s) => s.durationInFrames),
      2,
    );
    const slice = sliceTimeline(timeline, second!);
    const scenes = timeline.scenes.slice(second!.fromScene);
    expect(slice.durationInFrames).toBe(second!.frames);
    expect(slice.scenes.map((s) => s.index)).toEqual(scenes.map((s) => s.index));
    expect(slice.scenes.map((s) => s.layer)).toEqual(scenes.map((s) => s.layer));
    expect(slice.scenes[0]!.fromFrame).toBe(0);
    const captions = timeline.overlays.filter((o) => o.fromFrame >= second!.fromFrame);
    expect(slice.overlays.map((o) => o.fromFrame)).toEqual(captions.map((o) => o.fromFrame - second!.fromFrame));
    expect(slice.audio).toEqual([]);
  });

  it("mixes the whole timeline's sound with no captions to draw", () => {
    const sound = soundOf(timeline);
    expect(sound.audio).toEqual(timeline.audio);
    expect(sound.overlays).toEqual([]);
  });

  it("lists the chunk files for the concat demuxer, quoted", () => {
    expect(chunkConcatList(["/tmp/a.mp4", "/tmp/it's.mp4"])).toBe("ffconcat version 1.0\nfile '/tmp/a.mp4'\nfile '/tmp/it'\\''s.mp4'\n");
  });
});
