// Parity of the two renderers: the same timeline (a textured image with hard edges moving slowly, two
// voiceovers, music, three caption lines) rendered by the fast renderer (one ffmpeg run) and by the exact
// renderer (Remotion capturing every frame) gives the same video: the same frame count, audio as long as the
// video, every 15th frame alike (PSNR >= 33.5 dB or SSIM >= 0.975 under the delivery bitrate cap), and each caption on exactly its frames.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { alikeUnderBitrateCap as alike, compareFrames, parityFixture, parityRenders, regionBrightness } from "../fixtures/render-parity";
import { meanVolumeDb } from "../fixtures/video-probe";

const size = { width: 640, height: 360 };
const renders = parityRenders("parity", parityFixture, size);

describe("the fast renderer against the exact one", () => {
  it("has exactly the timeline's frames, and audio as long as the video", () => {
    const { timeline, fast, exact } = renders;
    expect(timeline.durationInFrames).toBe(90);
    expect(fast.video.frames).toBe(timeline.durationInFrames);
    expect(exact.video.frames).toBe(timeline.durationInFrames);
    expect(fast.video).toMatchObject({ codec: "h264", width: 640, height: 360, pixFmt: "yuv420p" });
    const seconds = timeline.durationInFrames / 30;
    // within one AAC frame (1024 samples at 48 kHz) of the video: the mix is cut to the video's exact sample count
    // (measured: 3.000 s for this 3.0 s video; it was 2.965 s while -frames:v closed the file before the audio
    // encoder's last packets); the exact renderer pads up to a few frames more (measured 3.051 s)
    expect(Math.abs(fast.audio!.durationSeconds - seconds)).toBeLessThan(0.022);
    expect(Math.abs(exact.audio!.durationSeconds - fast.audio!.durationSeconds)).toBeLessThan(0.07);
  });

  it("draws every 15th frame alike (PSNR >= 33.5 dB or SSIM >= 0.975 under the delivery bitrate cap)", async () => {
    const { timeline, fastFile, exactFile } = renders;
    const frames = Array.from({ length: Math.ceil(timeline.durationInFrames / 15) }, (_, i) => i * 15);
    const comparisons = await compareFrames(fastFile, exactFile, frames);
    expect(comparisons).toHaveLength(frames.length);
    for (const c of comparisons) expect(alike(c), `frame ${c.frame}: PSNR ${c.psnr} dB, SSIM ${c.ssim}`).toBe(true);
  });

  it("shows each caption line on exactly its frames, as the exact renderer does", async () => {
    const { timeline, fastFile, exactFile } = renders;
    const edges = timeline.overlays.flatMap((o) => [o.fromFrame, o.fromFrame + o.durationInFrames - 1]);
    for (const c of await compareFrames(fastFile, exactFile, edges)) expect(alike(c), `caption frame ${c.frame}: PSNR ${c.psnr} dB, SSIM ${c.ssim}`).toBe(true);
    // the middle of the caption box (dark, with white text) is as dark in both on a line's first and last frame
    const boxMiddle = `80:20:${size.width / 2 - 40}:${Math.round(size.height * 0.85)}`;
    for (const frame of edges) {
      const inFast = await regionBrightness(fastFile, frame, boxMiddle);
      const inExact = await regionBrightness(exactFile, frame, boxMiddle);
      expect(Math.abs(inFast - inExact), `frame ${frame}: box brightness ${inFast} (fast) against ${inExact} (exact)`).toBeLessThan(10);
    }
    // and the box is gone on the frame after the last line, in both
    const lastLine = timeline.overlays.at(-1)!;
    const end = lastLine.fromFrame + lastLine.durationInFrames;
    expect(end).toBeLessThan(timeline.durationInFrames);
    for (const file of [fastFile, exactFile]) {
      const withCaption = await regionBrightness(file, end - 1, boxMiddle);
      const without = await regionBrightness(file, end, boxMiddle);
      expect(without - withCaption, `${path.basename(file)}: the caption's box darkens its frames`).toBeGreaterThan(10);
    }
  });

  it("plays each voiceover in its scene, as the exact renderer does", async () => {
    const { timeline, fastFile, exactFile } = renders;
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
