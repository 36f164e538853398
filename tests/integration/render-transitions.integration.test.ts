// Transitions between scenes (issue 50, decision 225), drawn from the one timeline by both renderers: four scenes of
// different pictures joined by a crossfade, a slide and a zoom. The video keeps the length it has with hard cuts
// (every scene starts on the same frame, so the voiceovers do not move), has its sound, and each renderer draws each
// transition alike; the middle frames are kept under .data/transition-frames for people to look at.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storyboardVideoSchema } from "../../app/lib/timeline/video-props";
import { buildTimeline, type Timeline } from "../../app/lib/timeline/timeline";
import { prescaleImage } from "../../workflows/engine/render-assets";
import { closeBrowser } from "../../workflows/engine/render-engine";
import { compareFrames, framePairPsnr, renderExact, renderFast, type ParityFixture } from "../fixtures/render-parity";
import { toneWav } from "../fixtures/render-project";
import { probeVideo, type VideoFacts } from "../fixtures/video-probe";

const run = promisify(execFile);
const size = { width: 320, height: 180 };
const SOURCES = ["testsrc2", "smptebars", "rgbtestsrc", "mandelbrot"];
const KINDS = ["fade", "slide", "zoom"] as const;

async function transitionFixture(dir: string, transitions: boolean): Promise<ParityFixture> {
  const files = new Map<string, string>();
  for (const [i, source] of SOURCES.entries()) {
    const raw = path.join(dir, `raw-${i}.png`);
    await run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", `${source}=s=${size.width * 2}x${size.height * 2}`, "-frames:v", "1", raw]);
    const image = path.join(dir, `scene-${i}.png`);
    await prescaleImage(raw, image, size.width, size.height);
    files.set(`scene-${i}.png`, image);
    const voice = path.join(dir, `voice-${i}.wav`);
    fs.writeFileSync(voice, toneWav(0.7, 300 + i * 80));
    files.set(`voice-${i}.wav`, voice);
  }
  return {
    files,
    props: (src) =>
      storyboardVideoSchema.parse({
        ...size,
        fps: 30,
        captions: false,
        music: null,
        ...(transitions ? { transition: { kind: "fade", seconds: 0.4 } } : {}),
        scenes: SOURCES.map((_, i) => ({
          imageSrc: src(`scene-${i}.png`),
          audioSrc: src(`voice-${i}.wav`),
          audioDurationInSeconds: 0.7,
          text: `Scene ${i + 1}`,
          // per scene: the second comes in with the video's crossfade, the third slides, the fourth zooms
          ...(transitions && i > 0 ? { transitionIn: KINDS[i - 1] } : {}),
        })),
      }),
  };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-transitions-"));
const framesDir = path.resolve(".data/transition-frames");
let timeline: Timeline;
let hardCuts: Timeline;
let fast: VideoFacts;
let exact: VideoFacts;
const fastFile = path.join(dir, "fast.mp4");
const exactFile = path.join(dir, "exact.mp4");

beforeAll(async () => {
  const fixture = await transitionFixture(dir, true);
  hardCuts = buildTimeline((await transitionFixture(dir, false)).props((n) => n));
  timeline = await renderFast(fixture, dir, fastFile);
  await renderExact(fixture, exactFile);
  [fast, exact] = await Promise.all([probeVideo(fastFile), probeVideo(exactFile)]);
}, 600_000);
afterAll(async () => {
  await closeBrowser();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The middle frame of scene i's transition. */
const middleOf = (i: number) => timeline.scenes[i]!.fromFrame + Math.floor(timeline.scenes[i]!.transitionIn!.durationInFrames / 2);

describe("transitions between scenes", () => {
  it("are in the timeline: each scene comes in as chosen, starting on the frame it starts with hard cuts", () => {
    expect(timeline.scenes.map((s) => s.transitionIn?.kind ?? null)).toEqual([null, "fade", "slide", "zoom"]);
    expect(timeline.scenes.map((s) => s.transitionIn?.durationInFrames ?? 0)).toEqual([0, 12, 12, 12]);
    expect(timeline.scenes.map((s) => s.fromFrame)).toEqual(hardCuts.scenes.map((s) => s.fromFrame));
    expect(timeline.durationInFrames).toBe(hardCuts.durationInFrames);
  });

  it("keep the video's length in both renderers, with its sound", () => {
    expect(fast.video.frames).toBe(timeline.durationInFrames);
    expect(exact.video.frames).toBe(timeline.durationInFrames);
    const seconds = timeline.durationInFrames / 30;
    expect(fast.audio).not.toBeNull();
    expect(exact.audio).not.toBeNull();
    expect(Math.abs(fast.audio!.durationSeconds - seconds)).toBeLessThan(0.03);
    expect(Math.abs(exact.audio!.durationSeconds - seconds)).toBeLessThan(0.08);
  });

  it("draw each transition: its middle frame is neither scene alone, in both renderers", async () => {
    for (const i of [1, 2, 3]) {
      const middle = middleOf(i);
      const before = timeline.scenes[i]!.fromFrame - 1;
      const after = timeline.scenes[i]!.fromFrame + timeline.scenes[i]!.transitionIn!.durationInFrames;
      for (const file of [fastFile, exactFile]) {
        expect(await framePairPsnr(file, middle, file, before), `${path.basename(file)} scene ${i + 1}: the middle is not the old scene`).toBeLessThan(25);
        expect(await framePairPsnr(file, middle, file, after), `${path.basename(file)} scene ${i + 1}: the middle is not the new scene`).toBeLessThan(25);
      }
    }
  });

  it("draws every transition frame alike in both renderers", async () => {
    const frames = [1, 2, 3].flatMap((i) => {
      const s = timeline.scenes[i]!;
      return Array.from({ length: s.transitionIn!.durationInFrames + 1 }, (_, k) => s.fromFrame + k - 1);
    });
    const comparisons = await compareFrames(fastFile, exactFile, frames);
    const worst = [1, 2, 3].map((i) => {
      const s = timeline.scenes[i]!;
      const own = comparisons.filter((c) => c.frame >= s.fromFrame - 1 && c.frame <= s.fromFrame + s.transitionIn!.durationInFrames - 1);
      return { kind: s.transitionIn!.kind, psnr: Math.min(...own.map((c) => c.psnr)), ssim: Math.min(...own.map((c) => c.ssim)) };
    });
    console.log("transition parity (worst frame of each):", JSON.stringify(worst));
    for (const w of worst) expect(w.psnr >= 35 || w.ssim >= 0.98, `${w.kind}: PSNR ${w.psnr} dB, SSIM ${w.ssim}`).toBe(true);
    // the middle frames, side by side (fast left, exact right), for people to look at
    fs.mkdirSync(framesDir, { recursive: true });
    for (const i of [1, 2, 3]) {
      const middle = middleOf(i);
      const out = path.join(framesDir, `${timeline.scenes[i]!.transitionIn!.kind}-frame-${middle}.png`);
      await run("ffmpeg", ["-v", "error", "-y", "-i", fastFile, "-i", exactFile, "-filter_complex", `[0:v]select='eq(n,${middle})'[a];[1:v]select='eq(n,${middle})'[b];[a][b]hstack`, "-frames:v", "1", out]);
    }
  });
});
