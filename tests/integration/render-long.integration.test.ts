// A 60-minute, 240-scene video through the fast renderer, captions on, at 256x144 and 2 fps to stay cheap (decision 273): it
// renders (no fallback: the fast renderer is called directly and must draw all of it), ffmpeg's argument list stays
// under 32 KiB, the video has exactly the timeline's frames with every scene on exactly its frames and every
// caption on exactly its frames (read back from the decoded frames), and the audio is as long as the video.
// The sound is the render activity's own: 24-bit PCM in a .mov, which the loudness step encodes to AAC once
// (decision 192). Encoding an hour of AAC here as well cost 200 of the file's 317 CPU s and tested nothing the
// loudness tests do not.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storyboardVideoSchema } from "../../app/lib/timeline/video-props";
import { buildTimeline, type Timeline } from "../../app/lib/timeline/timeline";
import { sceneDurationInFrames } from "../../app/lib/timeline/timing";
import { closeBrowser } from "../../workflows/engine/render-engine";
import { renderTimelineFast } from "../../workflows/engine/render-fast";
import { fastRendererSupport } from "../../workflows/engine/render-fast-compile";
import { toneWav } from "../fixtures/render-project";
import { probeVideo, type VideoFacts } from "../fixtures/video-probe";

const WIDTH = 256;
const HEIGHT = 144;
const FPS = 2;
const SCENES = 240;
const VOICE_SECONDS = 14.65; // + the 0.3 s pause: 30 frames at 2 fps, 15 s a scene, 60 minutes in all
// three greys, so neighbouring scenes differ and a frame tells its scene apart
const GREYS = [170, 200, 235];
const TEXTS = [
  "Bees dance to tell their sisters where flowers grow. The angle points the way.",
  "Every flower counts! A hive visits millions of them each summer.",
  "Wax is made by young workers, in thin flakes, from glands under the belly.",
  "The queen lays two thousand eggs a day in spring.",
];

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-long-"));
const output = path.join(dir, "long.mov");
let timeline: Timeline;
let args: string[];
let facts: VideoFacts;
let elapsed = 0;

async function greyImage(grey: number): Promise<string> {
  const file = path.join(dir, `grey-${grey}.png`);
  const hex = grey.toString(16).padStart(2, "0").repeat(3);
  await new Promise<void>((resolve, reject) =>
    spawn("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", `color=c=0x${hex}:s=${WIDTH}x${HEIGHT}:d=1`, "-frames:v", "1", file])
      .on("error", reject)
      .on("close", (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exit ${code}`)))),
  );
  return file;
}

/** Per decoded frame (grey), the mean of its top third and of its bottom third. */
async function frameMeans(file: string): Promise<{ top: number; bottom: number }[]> {
  const size = WIDTH * HEIGHT;
  const third = Math.floor(HEIGHT / 3) * WIDTH;
  const means: { top: number; bottom: number }[] = [];
  const child = spawn("ffmpeg", ["-v", "error", "-i", file, "-f", "rawvideo", "-pix_fmt", "gray", "-"], { stdio: ["ignore", "pipe", "inherit"] });
  let pending: Buffer = Buffer.alloc(0);
  for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    let offset = 0;
    for (; offset + size <= pending.length; offset += size) {
      let top = 0;
      let bottom = 0;
      for (let i = 0; i < third; i++) {
        top += pending[offset + i]!;
        bottom += pending[offset + size - third + i]!;
      }
      means.push({ top: top / third, bottom: bottom / third });
    }
    pending = pending.subarray(offset);
  }
  return means;
}

beforeAll(async () => {
  expect(sceneDurationInFrames(VOICE_SECONDS, FPS)).toBe(15 * FPS);
  const images = await Promise.all(GREYS.map(greyImage));
  const voice = path.join(dir, "voice.wav");
  fs.writeFileSync(voice, toneWav(VOICE_SECONDS, 220, 0.2));
  const music = path.join(dir, "music.wav");
  fs.writeFileSync(music, toneWav(5, 196, 0.2));
  timeline = buildTimeline(
    storyboardVideoSchema.parse({
      width: WIDTH,
      height: HEIGHT,
      fps: FPS,
      captions: true,
      captionStyle: { preset: "boxed", position: "bottom", size: "large" },
      scenes: Array.from({ length: SCENES }, (_, i) => ({ imageSrc: images[i % 3]!, audioSrc: voice, audioDurationInSeconds: VOICE_SECONDS, text: TEXTS[i % TEXTS.length]! })),
      music: { src: music, volume: 0.2 },
    }),
  );
  expect(fastRendererSupport(timeline)).toEqual({ supported: true });
  const workDir = path.join(dir, "work");
  fs.mkdirSync(workDir);
  const started = performance.now();
  ({ args } = await renderTimelineFast({ timeline, workDir, output, audioFormat: "pcm" }));
  elapsed = (performance.now() - started) / 1000;
  facts = await probeVideo(output);
}, 1_500_000);

afterAll(async () => {
  await closeBrowser();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("a 60-minute, 240-scene video with the fast renderer", () => {
  it("runs ffmpeg with an argument list under 32 KiB", () => {
    const bytes = args.reduce((sum, a) => sum + Buffer.byteLength(a) + 1, 0);
    console.log(`60 min at ${WIDTH}x${HEIGHT}, ${FPS} fps: rendered in ${elapsed.toFixed(0)} s; ${timeline.overlays.length} captions; ffmpeg's arguments ${bytes} bytes`);
    expect(timeline.overlays.length).toBeGreaterThan(SCENES);
    expect(bytes).toBeLessThan(32 * 1024);
  });

  it("is exactly 60 minutes, with audio as long as the video", () => {
    expect(timeline.durationInFrames).toBe(60 * 60 * FPS);
    expect(facts.video).toMatchObject({ codec: "h264", width: WIDTH, height: HEIGHT, frames: timeline.durationInFrames });
    expect(Math.abs(facts.video.durationSeconds - 3600)).toBeLessThan(0.5 / FPS);
    expect(facts.audio).toMatchObject({ codec: "pcm_s24le" });
    // PCM is cut to the sample: as long as the video within a millisecond
    expect(Math.abs(facts.audio!.durationSeconds - facts.video.durationSeconds)).toBeLessThan(0.001);
  });

  it("shows every scene on exactly its frames and every caption on exactly its frames", async () => {
    const means = await frameMeans(output);
    expect(means).toHaveLength(timeline.durationInFrames);
    const captioned = new Uint8Array(timeline.durationInFrames);
    for (const o of timeline.overlays) captioned.fill(1, o.fromFrame, o.fromFrame + o.durationInFrames);
    const wrongScene: number[] = [];
    const wrongCaption: number[] = [];
    for (const scene of timeline.scenes) {
      for (let f = scene.fromFrame; f < scene.fromFrame + scene.durationInFrames; f++) {
        const { top, bottom } = means[f]!;
        const nearest = GREYS.reduce((best, g) => (Math.abs(g - top) < Math.abs(best - top) ? g : best));
        if (nearest !== GREYS[scene.index % 3]) wrongScene.push(f);
        // the caption's dark box darkens the bottom third by tens of levels; without it both thirds are alike
        if (top - bottom > 8 !== (captioned[f] === 1)) wrongCaption.push(f);
      }
    }
    expect(wrongScene.slice(0, 10), `${wrongScene.length} frames show another scene's picture`).toEqual([]);
    expect(wrongCaption.slice(0, 10), `${wrongCaption.length} frames have a caption where none is due, or none where one is`).toEqual([]);
    // the last scene's captions are still on time after an hour
    const last = timeline.overlays.at(-1)!;
    expect(means[last.fromFrame + last.durationInFrames - 1]!.top - means[last.fromFrame + last.durationInFrames - 1]!.bottom).toBeGreaterThan(8);
  });
});
