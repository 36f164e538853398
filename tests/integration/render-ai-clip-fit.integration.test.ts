// AI clips fitted to their scenes (issue 50, decision 243), by the fast, the exact and the chunked renderer: a
// 3-scene video whose first scene is an AI clip shorter than it (slowed by at most 1.5x, then its last frame held),
// whose second is a picture, and whose third is an AI clip longer than it (trimmed). Each clip frame has its own
// brightness, so which clip frame each rendered frame shows is read back from the render, frame by frame, and must
// be the one the timeline names (stretchedClipFrame), to the frame, in all three renders.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storyboardVideoSchema, type StoryboardVideoProps } from "../../app/lib/timeline/video-props";
import { buildTimeline, clipLoopFrames, clipStretch, stretchedClipFrame, type Timeline } from "../../app/lib/timeline/timeline";
import { prepareSceneClip } from "../../app/core/scene-media-files.server";
import { prescaleImage } from "../../workflows/engine/render-assets";
import { closeBrowser } from "../../workflows/engine/render-engine";
import { renderTimelineFast } from "../../workflows/engine/render-fast";
import { cutAtScenes, joinChunks, renderChunkPicture, renderTimelineSound } from "../../workflows/engine/render-chunks";
import { renderExact } from "../fixtures/render-parity";
import { toneWav } from "../fixtures/render-project";
import { probeVideo, type VideoFacts } from "../fixtures/video-probe";

const run = promisify(execFile);
const SIZE = { width: 320, height: 180 };
const FPS = 30;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-ai-clip-fit-"));

/** Mean brightness (0-255) of every frame of a video, in order. */
async function frameBrightness(file: string): Promise<number[]> {
  const { stderr } = await run("ffmpeg", ["-hide_banner", "-i", file, "-vf", "signalstats,metadata=print:key=lavfi.signalstats.YAVG", "-an", "-f", "null", "-"], { maxBuffer: 1 << 24 });
  return [...stderr.matchAll(/lavfi\.signalstats\.YAVG=([\d.]+)/g)].map((m) => Number(m[1]));
}

/** The clip frame whose brightness is nearest: which frame of the clip a rendered frame shows. */
const nearestFrame = (clip: number[], value: number) => clip.reduce((best, v, i) => (Math.abs(v - value) < Math.abs(clip[best]! - value) ? i : best), 0);

/** A clip whose every frame is one flat grey, a different one per frame (`lum` of the frame number N). */
async function greyRampClip(name: string, seconds: number, lum: string) {
  const source = path.join(dir, `${name}-source.mp4`);
  await run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", `color=c=black:s=${SIZE.width * 2}x${SIZE.height * 2}:r=${FPS}:d=${seconds},format=yuv420p,geq=lum='${lum}':cb=128:cr=128`, "-c:v", "libx264", "-preset", "veryfast", "-crf", "8", "-pix_fmt", "yuv420p", source]);
  // converted as an AI clip is (the ai-clips activity: prepareSceneClip at the format's size)
  const prepared = await prepareSceneClip(source, SIZE);
  return { file: prepared.clipPath, seconds: prepared.durationSeconds, brightness: await frameBrightness(prepared.clipPath) };
}

let timeline: Timeline;
let clips: Awaited<ReturnType<typeof greyRampClip>>[];
const renders: Record<"fast" | "exact" | "chunked", { file: string; facts?: VideoFacts; brightness?: number[] }> = {
  fast: { file: path.join(dir, "fast.mp4") },
  exact: { file: path.join(dir, "exact.mp4") },
  chunked: { file: path.join(dir, "chunked.mp4") },
};

beforeAll(async () => {
  // 1.0 s rising from dark, 1.5 s falling from light, steps wide enough that the exact renderer's colour path
  // (Chromium's RGB, then YUV again) never moves a frame's grey to its neighbour's
  clips = [await greyRampClip("short", 1, "20+7*N"), await greyRampClip("long", 1.5, "225-4.5*N")];
  const files = new Map<string, string>([
    ["clip-1.mp4", clips[0]!.file],
    ["clip-3.mp4", clips[1]!.file],
  ]);
  const picture = path.join(dir, "picture-source.png");
  await run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", `testsrc2=s=${SIZE.width * 2}x${SIZE.height * 2}:d=1`, "-frames:v", "1", picture]);
  await prescaleImage(picture, path.join(dir, "picture.png"), SIZE.width, SIZE.height);
  files.set("picture.png", path.join(dir, "picture.png"));
  // voiceovers of 1.2 s, 0.7 s and 0.7 s: scenes of 45, 30 and 30 frames (each with its 0.3 s pause)
  const voices = [1.2, 0.7, 0.7];
  for (const [i, seconds] of voices.entries()) {
    files.set(`voice-${i + 1}.wav`, path.join(dir, `voice-${i + 1}.wav`));
    fs.writeFileSync(files.get(`voice-${i + 1}.wav`)!, toneWav(seconds, 260 + 60 * i, 0.3));
  }
  const props = (src: (name: string) => string): StoryboardVideoProps =>
    storyboardVideoSchema.parse({
      ...SIZE,
      fps: FPS,
      captions: false,
      music: null,
      scenes: voices.map((seconds, i) => ({
        imageSrc: src("picture.png"),
        audioSrc: src(`voice-${i + 1}.wav`),
        audioDurationInSeconds: seconds,
        text: "",
        ...(i === 1 ? {} : { clipSrc: src(`clip-${i + 1}.mp4`), clipDurationInSeconds: clips[i === 0 ? 0 : 1]!.seconds, clipFit: "stretch" }),
      })),
    });
  const fixture = { files, props };
  timeline = buildTimeline(props((name) => files.get(name)!));
  await renderTimelineFast({ timeline, workDir: fs.mkdtempSync(path.join(dir, "fast-")), output: renders.fast.file });
  await renderExact(fixture, renders.exact.file);
  // the chunked render: one chunk per scene, each its own ffmpeg run, the sound mixed once, joined by stream copy
  const chunks = cutAtScenes(
    timeline.scenes.map((s) => s.durationInFrames),
    3,
  );
  const chunkFiles: string[] = [];
  for (const chunk of chunks) {
    const file = path.join(dir, `chunk-${chunk.index}.mp4`);
    await renderChunkPicture({ timeline, chunk, workDir: fs.mkdtempSync(path.join(dir, "chunk-")), output: file });
    chunkFiles.push(file);
  }
  const sound = path.join(dir, "sound.m4a");
  await renderTimelineSound({ timeline, workDir: fs.mkdtempSync(path.join(dir, "sound-")), output: sound });
  await joinChunks({ chunks: chunkFiles, sound, workDir: dir, output: renders.chunked.file });
  for (const r of Object.values(renders)) {
    r.facts = await probeVideo(r.file);
    r.brightness = await frameBrightness(r.file);
  }
}, 600_000);

afterAll(async () => {
  await closeBrowser();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("AI clips fitted to their scenes, in the fast, exact and chunked renders", () => {
  it("the timeline slows the short clip by at most 1.5x and holds its last frame, and trims the long one", () => {
    const [first, , third] = timeline.scenes;
    expect(first!.durationInFrames).toBe(45);
    expect(third!.durationInFrames).toBe(30);
    const shortFrames = clipLoopFrames(clips[0]!.seconds, FPS);
    expect(shortFrames).toBe(29);
    // 45 frames from 29 would be 1.55x: slowed 1.5x, the last clip frame from frame 42, held to the scene's end
    expect(clipStretch(shortFrames, 45)).toEqual({ num: 3, den: 2 });
    expect(stretchedClipFrame(41, shortFrames, { num: 3, den: 2 })).toBe(27);
    expect(stretchedClipFrame(42, shortFrames, { num: 3, den: 2 })).toBe(28);
    expect(stretchedClipFrame(44, shortFrames, { num: 3, den: 2 })).toBe(28);
    expect(clipStretch(clipLoopFrames(clips[1]!.seconds, FPS), 30)).toEqual({ num: 1, den: 1 });
  });

  for (const name of ["fast", "exact", "chunked"] as const) {
    it(`${name}: has exactly the timeline's frames and its sound`, () => {
      const facts = renders[name].facts!;
      expect(facts.video.frames).toBe(timeline.durationInFrames);
      // the sound as long as the picture, within AAC's padding (the exact renderer's encoder pads a little more)
      expect(Math.abs(facts.audio!.durationSeconds - timeline.durationInFrames / FPS)).toBeLessThan(0.08);
    });

    it(`${name}: every frame of each clip scene shows the clip frame the timeline names`, () => {
      const brightness = renders[name].brightness!;
      for (const [sceneIndex, clip] of [
        [0, clips[0]!],
        [2, clips[1]!],
      ] as const) {
        const scene = timeline.scenes[sceneIndex]!;
        const clipFrames = clipLoopFrames(clip.seconds, FPS);
        const stretch = clipStretch(clipFrames, scene.durationInFrames);
        const shown: number[] = [];
        const expected: number[] = [];
        for (let k = 0; k < scene.durationInFrames; k++) {
          shown.push(nearestFrame(clip.brightness, brightness[scene.fromFrame + k]!));
          expected.push(stretchedClipFrame(k, clipFrames, stretch));
        }
        expect(shown, `${name}, scene ${sceneIndex + 1}`).toEqual(expected);
      }
      // the short clip reaches its last frame before its scene ends and holds it; the long one is cut mid-way
      expect(nearestFrame(clips[0]!.brightness, brightness[44]!)).toBe(28);
      expect(nearestFrame(clips[1]!.brightness, brightness[timeline.durationInFrames - 1]!)).toBe(29);
    });
  }
});
