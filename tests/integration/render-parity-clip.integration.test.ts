// Parity of the two renderers on a clip scene: a moving 1.0 s clip (larger than the video, so scaled to cover) in a
// scene longer than it, so it plays again from its start, as the composition's <Loop> does; then an image scene.
// The fast renderer (one ffmpeg run) and the exact one (Remotion's OffthreadVideo) give the same frames.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { clipLoopFrames } from "../../app/lib/timeline/timeline";
import { fastRendererSupport } from "../../workflows/engine/render-fast-compile";
import { alike, clipParityFixture, compareFrames, framePairPsnr, parityRenders } from "../fixtures/render-parity";

const size = { width: 640, height: 360 };
const renders = parityRenders("parity-clip", clipParityFixture, size);

describe("a clip scene, by the fast renderer against the exact one", () => {
  it("is drawn by the fast renderer, with exactly the timeline's frames", () => {
    const { timeline, fast, exact } = renders;
    expect(fastRendererSupport(timeline)).toEqual({ supported: true });
    const clipScene = timeline.scenes[0]!;
    expect(clipScene.layer.kind).toBe("clip");
    // the scene outlasts one pass of the clip, so the loop is exercised
    expect(clipScene.durationInFrames).toBeGreaterThan(clipLoopFrames(1, 30));
    expect(fast.video.frames).toBe(timeline.durationInFrames);
    expect(exact.video.frames).toBe(timeline.durationInFrames);
    expect(Math.abs(fast.audio!.durationSeconds - timeline.durationInFrames / 30)).toBeLessThan(0.022);
  });

  it("draws the clip's frames alike, before and after it starts again, and the image scene after it", async () => {
    const { timeline, fastFile, exactFile } = renders;
    const loop = clipLoopFrames(1, 30);
    const clipEnd = timeline.scenes[0]!.durationInFrames;
    // the clip's first frames, the last frame of its first pass, the first frames of the second, then scene 2
    const frames = [0, 10, loop - 1, loop, loop + 5, clipEnd - 1, clipEnd, clipEnd + 15];
    const comparisons = await compareFrames(fastFile, exactFile, frames);
    expect(comparisons).toHaveLength(frames.length);
    for (const c of comparisons) expect(alike(c), `frame ${c.frame}: PSNR ${c.psnr} dB, SSIM ${c.ssim}`).toBe(true);
    // and the clip really moves and starts again: in both, frame `loop` is the clip's first frame again, and the
    // frames between differ from it (the top half only: the caption line may change meanwhile)
    const topHalf = `${size.width}:${size.height / 2}:0:0`;
    for (const file of [fastFile, exactFile]) {
      expect(await framePairPsnr(file, 0, file, loop, topHalf), `${path.basename(file)}: the second pass starts like the first`).toBeGreaterThan(35);
      expect(await framePairPsnr(file, 0, file, loop - 1, topHalf), `${path.basename(file)}: the clip moves`).toBeLessThan(25);
    }
  });
});
