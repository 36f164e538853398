// The timeline: one pure definition of the video that the composition and the fast renderer both draw.
import { describe, expect, it } from "vitest";
import type { StoryboardVideoProps } from "../../app/lib/timeline/video-props";
import { buildTimeline, MOVES, overlaysAt, trackVolumeAt, visibleRectAt } from "../../app/lib/timeline/timeline";

const props = (overrides: Partial<StoryboardVideoProps> = {}): StoryboardVideoProps => ({
  width: 1280,
  height: 720,
  fps: 30,
  scenes: [
    { imageSrc: "a.png", audioSrc: "a.wav", audioDurationInSeconds: 2, text: "One sentence. Two sentences!" },
    { imageSrc: "b.png", audioSrc: "b.wav", audioDurationInSeconds: 1.5, text: "Three." },
  ],
  music: { src: "m.wav", volume: 0.3 },
  captions: true,
  ...overrides,
});

describe("buildTimeline", () => {
  it("lays the scenes end to end, each as long as its voiceover plus the pad", () => {
    const t = buildTimeline(props());
    // 2 s + 0.3 s pad = 69 frames; 1.5 s + 0.3 s = 54
    expect(t.scenes.map((s) => [s.fromFrame, s.durationInFrames])).toEqual([
      [0, 69],
      [69, 54],
    ]);
    expect(t.durationInFrames).toBe(123);
    expect(t.scenes.map((s) => s.layer)).toEqual([
      { kind: "image", src: "a.png", move: MOVES[0] },
      { kind: "image", src: "b.png", move: MOVES[1] },
    ]);
  });

  it("starts each voiceover with its scene and lays the music under the whole video with fades", () => {
    const t = buildTimeline(props());
    expect(t.audio.filter((a) => a.kind === "voiceover").map((a) => [a.src, a.fromFrame, a.durationInFrames])).toEqual([
      ["a.wav", 0, 69],
      ["b.wav", 69, 54],
    ]);
    const music = t.audio.find((a) => a.kind === "music")!;
    expect(music).toMatchObject({ fromFrame: 0, durationInFrames: 123, loop: true, fadeInFrames: 30, fadeOutFrames: 30 });
    expect(trackVolumeAt(music, 0)).toBe(0);
    expect(trackVolumeAt(music, 15)).toBeCloseTo(0.15);
    expect(trackVolumeAt(music, 60)).toBeCloseTo(0.3);
    expect(trackVolumeAt(music, 122)).toBeCloseTo(0.01);
  });

  it("shows each sentence as a caption within its scene, in order, without overlaps", () => {
    const t = buildTimeline(props());
    expect(t.overlays.map((o) => o.text)).toEqual(["One sentence.", "Two sentences!", "Three."]);
    expect(t.overlays[2]!.fromFrame).toBe(69);
    for (const [i, o] of t.overlays.entries()) {
      const scene = t.scenes[o.sceneIndex]!;
      expect(o.fromFrame).toBeGreaterThanOrEqual(scene.fromFrame);
      expect(o.fromFrame + o.durationInFrames).toBeLessThanOrEqual(scene.fromFrame + scene.durationInFrames);
      if (i > 0) expect(o.fromFrame).toBeGreaterThanOrEqual(t.overlays[i - 1]!.fromFrame + t.overlays[i - 1]!.durationInFrames);
    }
    expect(overlaysAt(t, 76).map((o) => o.text)).toEqual(["Three."]);
  });

  it("has no captions when they are off, no music track at volume 0, and a clip layer for a clip scene", () => {
    const t = buildTimeline(props({ captions: false, music: { src: "m.wav", volume: 0 } }));
    expect(t.overlays).toEqual([]);
    expect(t.audio.every((a) => a.kind === "voiceover")).toBe(true);
    const clip = buildTimeline(props({ scenes: [{ imageSrc: "a.png", clipSrc: "a.mp4", audioSrc: "a.wav", audioDurationInSeconds: 1, text: "" }] }));
    expect(clip.scenes[0]!.layer).toEqual({ kind: "clip", src: "a.mp4" });
  });
});

describe("visibleRectAt", () => {
  it("shows the whole frame at scale 1 and a centred, smaller part at the largest zoom", () => {
    expect(visibleRectAt(MOVES[0]!, 0, 150, 1280, 720)).toEqual({ left: 0, top: 0, width: 1280, height: 720 });
    const end = visibleRectAt(MOVES[0]!, 149, 150, 1280, 720);
    expect(end.width).toBeCloseTo(1280 / 1.12);
    expect(end.height).toBeCloseTo(720 / 1.12);
    // 2 % of the width to the left in CSS moves the visible part right
    expect(end.left).toBeCloseTo(640 - 640 / 1.12 + 0.02 * 1280);
  });

  it("moves by a fraction of a pixel every frame of a slow zoom: no frame repeats, no jumps", () => {
    for (const move of MOVES) {
      const lefts = Array.from({ length: 300 }, (_, f) => visibleRectAt(move, f, 300, 1920, 1080).left);
      const steps = lefts.slice(1).map((l, i) => Math.abs(l - lefts[i]!));
      expect(Math.min(...steps)).toBeGreaterThan(0);
      expect(Math.max(...steps)).toBeLessThan(1);
      // even steps: a smooth move, not integer jumps with still frames between
      expect(Math.max(...steps) / Math.min(...steps)).toBeLessThan(1.5);
    }
  });
});
