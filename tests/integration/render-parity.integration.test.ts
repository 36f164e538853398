// Parity of the two renderers: the same timeline (a textured image with hard edges moving slowly, two
// voiceovers, music, three caption lines) rendered by the fast renderer (one ffmpeg run) and by the exact
// renderer (Remotion capturing every frame) gives the same video: the same frame count, audio as long as the
// video, every 15th frame alike (PSNR >= 35 dB or SSIM >= 0.98), and each caption on exactly its frames.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Timeline } from "../../remotion/timeline";
import { closeBrowser } from "../../workflows/activities/render-engine";
import { compareFrames, parityFixture, regionBrightness, renderExact, renderFast } from "../fixtures/render-parity";
import { meanVolumeDb, probeVideo, type VideoFacts } from "../fixtures/video-probe";

const size = { width: 640, height: 360 };
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-parity-"));
const fastFile = path.join(dir, "fast.mp4");
const exactFile = path.join(dir, "exact.mp4");
let timeline: Timeline;
let fast: VideoFacts;
let exact: VideoFacts;

beforeAll(async () => {
  const fixture = await parityFixture(dir, size);
  timeline = await renderFast(fixture, dir, fastFile);
  await renderExact(fixture, exactFile);
  fast = await probeVideo(fastFile);
  exact = await probeVideo(exactFile);
}, 600_000);

afterAll(async () => {
  await closeBrowser();
  fs.rmSync(dir, { recursive: true, force: true });
});

const alike = (c: { psnr: number; ssim: number }) => c.psnr >= 35 || c.ssim >= 0.98;

describe("the fast renderer against the exact one", () => {
  it("has exactly the timeline's frames, and audio as long as the video", () => {
    expect(timeline.durationInFrames).toBe(102);
    expect(fast.video.frames).toBe(timeline.durationInFrames);
    expect(exact.video.frames).toBe(timeline.durationInFrames);
    expect(fast.video).toMatchObject({ codec: "h264", width: 640, height: 360, pixFmt: "yuv420p" });
    const seconds = timeline.durationInFrames / 30;
    // within one AAC frame (1024 samples at 48 kHz) of the video; the exact renderer pads up to a few more
    expect(Math.abs(fast.audio!.durationSeconds - seconds)).toBeLessThan(0.025);
    expect(Math.abs(exact.audio!.durationSeconds - fast.audio!.durationSeconds)).toBeLessThan(0.07);
  });

  it("draws every 15th frame alike (PSNR >= 35 dB or SSIM >= 0.98)", async () => {
    const frames = Array.from({ length: Math.ceil(timeline.durationInFrames / 15) }, (_, i) => i * 15);
    const comparisons = await compareFrames(fastFile, exactFile, frames);
    expect(comparisons).toHaveLength(frames.length);
    for (const c of comparisons) expect(alike(c), `frame ${c.frame}: PSNR ${c.psnr} dB, SSIM ${c.ssim}`).toBe(true);
  });

  it("shows each caption line on exactly its frames: the first and last frame of every line match", async () => {
    const edges = timeline.overlays.flatMap((o) => [o.fromFrame, o.fromFrame + o.durationInFrames - 1]);
    // the bottom third, where the captions are
    const comparisons = await compareFrames(fastFile, exactFile, edges, `${size.width}:${size.height / 3}:0:${(size.height * 2) / 3}`);
    for (const c of comparisons) expect(alike(c), `caption frame ${c.frame}: PSNR ${c.psnr} dB, SSIM ${c.ssim}`).toBe(true);
    // and the box is really there on the line's last frame and gone on the next (the caption's dark box)
    const lastLine = timeline.overlays.at(-1)!;
    const end = lastLine.fromFrame + lastLine.durationInFrames;
    expect(end).toBeLessThan(timeline.durationInFrames);
    const box = `${size.width / 2}:${size.height / 8}:${size.width / 4}:${size.height * 0.8}`;
    for (const file of [fastFile, exactFile]) {
      const withCaption = await regionBrightness(file, end - 1, box);
      const without = await regionBrightness(file, end, box);
      expect(without - withCaption, `${path.basename(file)}: the caption's box darkens its frames`).toBeGreaterThan(10);
    }
  });

  it("plays each voiceover in its scene, as the exact renderer does", async () => {
    const secondScene = timeline.scenes[1]!.fromFrame / 30;
    for (const file of [fastFile, exactFile]) {
      expect(await meanVolumeDb(file, 0.1, 0.8)).toBeGreaterThan(-40);
      expect(await meanVolumeDb(file, secondScene + 0.1, 1.0)).toBeGreaterThan(-40);
    }
    const fastLoudness = await meanVolumeDb(fastFile, secondScene + 0.1, 1.0);
    const exactLoudness = await meanVolumeDb(exactFile, secondScene + 0.1, 1.0);
    expect(Math.abs(fastLoudness - exactLoudness)).toBeLessThan(3);
  });
});
