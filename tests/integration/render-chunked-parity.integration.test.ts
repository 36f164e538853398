// A chunked render against the one-piece render of the same 60 s timeline (issue 30, decision 156): the timeline
// cut at scene boundaries into three chunks, each chunk's picture its own ffmpeg run, the sound mixed once, the
// chunks joined by stream copy. Same frame count, sound as long within a frame, PSNR >= 40 dB on every 15th frame
// and on the frames either side of each join (no seam), each chunk starting on a key frame, captions and music on.
// Delivered as the activities deliver them (the one-piece MP4 brought to -14 LUFS whole; the chunked render's sound
// mixed as PCM, brought to -14 LUFS alone, then joined), both sound the same. Tiny (256x144, 5 fps) to stay cheap.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storyboardVideoSchema } from "../../app/lib/timeline/video-props";
import { buildTimeline, type Timeline } from "../../app/lib/timeline/timeline";
import { cutAtScenes, joinChunks, renderChunkPicture, renderTimelineSound, type RenderChunk } from "../../workflows/engine/render-chunks";
import { closeBrowser } from "../../workflows/engine/render-engine";
import { analyseLoudness, applyLoudness, measureLoudness, normaliseLoudness } from "../../workflows/engine/loudness";
import { renderTimelineFast } from "../../workflows/engine/render-fast";
import { sceneImage, toneWav } from "../fixtures/render-project";
import { compareFrames } from "../fixtures/render-parity";
import { probeVideo, type VideoFacts } from "../fixtures/video-probe";

const run = promisify(execFile);
const WIDTH = 256;
const HEIGHT = 144;
const FPS = 5;
// eight scenes of uneven length, 60 s in all (each scene is its voiceover + the 0.3 s pause)
const VOICE_SECONDS = [6.69, 8.09, 6.89, 9.29, 5.49, 7.49, 6.69, 6.89];
const TEXTS = ["Bees dance to tell their sisters where flowers grow.", "Every flower counts! A hive visits millions of them.", "Wax is made by young workers."];

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-chunked-"));
let timeline: Timeline;
let chunks: RenderChunk[];
const onePiece = path.join(dir, "one-piece.mp4");
const joined = path.join(dir, "joined.mp4");
let whole: VideoFacts;
let chunked: VideoFacts;
const chunkFiles: string[] = [];

beforeAll(async () => {
  const scenes = await Promise.all(
    VOICE_SECONDS.map(async (seconds, i) => {
      const image = path.join(dir, `scene-${i}.png`);
      fs.writeFileSync(image, await sceneImage(i, WIDTH * 2, HEIGHT * 2));
      const voice = path.join(dir, `voice-${i}.wav`);
      fs.writeFileSync(voice, toneWav(seconds, 220 + 40 * i, 0.2));
      return { imageSrc: image, audioSrc: voice, audioDurationInSeconds: seconds, text: TEXTS[i % TEXTS.length]! };
    }),
  );
  const music = path.join(dir, "music.wav");
  fs.writeFileSync(music, toneWav(9, 196, 0.2));
  timeline = buildTimeline(
    storyboardVideoSchema.parse({
      width: WIDTH,
      height: HEIGHT,
      fps: FPS,
      captions: true,
      captionStyle: { preset: "boxed", position: "bottom", size: "large" },
      scenes,
      music: { src: music, volume: 0.3 },
    }),
  );
  expect(timeline.durationInFrames).toBe(60 * FPS);
  const work = (name: string) => fs.mkdirSync(path.join(dir, name), { recursive: true }) ?? path.join(dir, name);
  await renderTimelineFast({ timeline, workDir: work("whole"), output: onePiece });

  chunks = cutAtScenes(
    timeline.scenes.map((s) => s.durationInFrames),
    3,
  );
  for (const chunk of chunks) {
    const file = path.join(dir, `chunk-${chunk.index}.mp4`);
    await renderChunkPicture({ timeline, chunk, workDir: work(`chunk-${chunk.index}`), output: file });
    chunkFiles.push(file);
  }
  const sound = path.join(dir, "sound.m4a");
  await renderTimelineSound({ timeline, workDir: work("sound"), output: sound });
  await joinChunks({ chunks: chunkFiles, sound, workDir: dir, output: joined });
  [whole, chunked] = await Promise.all([probeVideo(onePiece), probeVideo(joined)]);
}, 300_000);

afterAll(async () => {
  await closeBrowser();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Frame numbers (in presentation order) of the key frames of a video's picture. */
async function keyFrames(file: string): Promise<number[]> {
  // JSON, not CSV: a frame with side data adds a line of its own to ffprobe's CSV
  const { stdout } = await run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=key_frame", "-of", "json", file], { maxBuffer: 1 << 26 });
  const frames = (JSON.parse(stdout) as { frames: { key_frame: number }[] }).frames;
  return frames.flatMap((frame, i) => (frame.key_frame === 1 ? [i] : []));
}

describe("a chunked render against the one-piece render", () => {
  it("cuts at scene boundaries into three chunks, each starting on a key frame", async () => {
    expect(chunks.map((c) => c.fromScene)).toEqual([0, 3, 5]);
    expect(chunks.reduce((sum, c) => sum + c.frames, 0)).toBe(timeline.durationInFrames);
    for (const [i, file] of chunkFiles.entries()) {
      const facts = await probeVideo(file);
      expect(facts.audio, "a chunk carries no sound").toBeNull();
      expect(facts.video.frames).toBe(chunks[i]!.frames);
      expect((await keyFrames(file))[0]).toBe(0);
    }
    // the join copied the streams: every join is a key frame of the joined video
    const keys = new Set(await keyFrames(joined));
    for (const chunk of chunks) expect(keys.has(chunk.fromFrame), `frame ${chunk.fromFrame} is a key frame`).toBe(true);
  });

  it("has the same frame count and sound as long within one frame", () => {
    expect(chunked.video).toMatchObject({ codec: "h264", width: WIDTH, height: HEIGHT, frames: whole.video.frames });
    expect(whole.video.frames).toBe(timeline.durationInFrames);
    expect(Math.abs(chunked.audio!.durationSeconds - whole.audio!.durationSeconds)).toBeLessThanOrEqual(1 / FPS);
    expect(Math.abs(chunked.audio!.durationSeconds - chunked.video.durationSeconds)).toBeLessThanOrEqual(1 / FPS);
  });

  it("matches the one-piece picture (PSNR >= 40 dB) on every 15th frame and on both sides of each join", async () => {
    const every15 = Array.from({ length: Math.ceil(timeline.durationInFrames / 15) }, (_, i) => i * 15);
    const joins = chunks.slice(1).flatMap((c) => [c.fromFrame - 1, c.fromFrame]);
    const frames = [...new Set([...every15, ...joins])].sort((a, b) => a - b);
    const compared = await compareFrames(onePiece, joined, frames);
    const worst = compared.reduce((a, b) => (b.psnr < a.psnr ? b : a));
    console.log(`chunked vs one-piece: ${compared.length} frames, lowest PSNR ${worst.psnr.toFixed(1)} dB at frame ${worst.frame}; joins at ${joins.join(", ")}`);
    expect(compared.filter((c) => !(c.psnr >= 40))).toEqual([]);
  });

  it("sounds the same: the sound is the one-piece render's mix", async () => {
    // the same samples encoded the same way: the decoded sound of both files is nearly identical
    await expectSameSound(onePiece, joined);
  });

  it("sounds the same delivered: the sound at -14 LUFS on its own, then joined, is the one-piece video's at -14 LUFS", async () => {
    const onePieceDelivered = path.join(dir, "one-piece-delivered.mp4");
    const wholeMeasure = await normaliseLoudness(onePiece, onePieceDelivered);
    // as mixRenderSound and normaliseRenderSound make it: PCM, measured, then the gain applied and encoded once
    const mix = path.join(dir, "sound.wav");
    await renderTimelineSound({ timeline, workDir: fs.mkdtempSync(path.join(dir, "sound-wav-")), output: mix, format: "wav" });
    const sound = path.join(dir, "sound-delivered.m4a");
    const soundMeasure = await applyLoudness(mix, sound, await analyseLoudness(mix));
    const chunkedDelivered = path.join(dir, "joined-delivered.mp4");
    await joinChunks({ chunks: chunkFiles, sound, workDir: fs.mkdtempSync(path.join(dir, "join-")), output: chunkedDelivered });
    const chunkedMeasure = await measureLoudness(chunkedDelivered);
    console.log(`delivered: one piece ${wholeMeasure.integratedLufs} LUFS / ${wholeMeasure.truePeakDbtp} dBTP, chunked ${chunkedMeasure.integratedLufs} LUFS / ${chunkedMeasure.truePeakDbtp} dBTP`);
    expect(Math.abs(chunkedMeasure.integratedLufs - wholeMeasure.integratedLufs)).toBeLessThanOrEqual(0.2);
    expect(Math.abs(chunkedMeasure.integratedLufs - soundMeasure.integratedLufs)).toBeLessThanOrEqual(0.1);
    const facts = await probeVideo(chunkedDelivered);
    expect(facts.video.frames).toBe(whole.video.frames);
    expect(Math.abs(facts.audio!.durationSeconds - facts.video.durationSeconds)).toBeLessThanOrEqual(1 / FPS);
    await expectSameSound(onePieceDelivered, chunkedDelivered);
  });
});

/** The decoded sound of two files (mono, 8 kHz) differs by less than 1 % of its energy, and by at most a frame in length. */
async function expectSameSound(first: string, second: string) {
  const pcm = async (file: string) => (await run("ffmpeg", ["-v", "error", "-i", file, "-vn", "-ac", "1", "-ar", "8000", "-f", "s16le", "-"], { encoding: "buffer", maxBuffer: 1 << 26 })).stdout;
  const [a, b] = await Promise.all([pcm(first), pcm(second)]);
  expect(Math.abs(a.length - b.length)).toBeLessThanOrEqual((8000 * 2) / FPS);
  let diff = 0;
  let energy = 0;
  for (let i = 0; i + 1 < Math.min(a.length, b.length); i += 2) {
    const x = a.readInt16LE(i);
    diff += (x - b.readInt16LE(i)) ** 2;
    energy += x ** 2;
  }
  expect(diff / energy).toBeLessThan(0.01);
}
