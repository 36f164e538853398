// Issue 37, on rendered videos: both renderers' output (the fast one's single ffmpeg run, the exact one's Remotion
// stitch, each with the delivery's encoding settings, as the render activity calls them), brought to the platform's
// loudness by the save step's function, measures -14 LUFS within 1 LU with its true peak at most -1 dBTP (ffmpeg's
// ebur128), for a quiet voice, a loud voice, music at 100 % and a voice whose peaks need the limiter; the picture is
// copied packet for packet; the delivered MP4 is encoded as YouTube recommends (ffprobe); and the music mix,
// normalised after its ducking, still holds the music at least 10 dB under the speech. A chunked render (decision 156: the pictures in chunks, the sound
// mixed once and normalised on its own, then both joined by stream copy) delivers the same loudness, measured on the
// joined MP4, and the figures measured on its sound are the delivered video's.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { renderMedia, selectComposition } from "@remotion/renderer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pcm16ToWav } from "~/providers/wav";
import { COMPOSITION_ID, storyboardVideoSchema, type StoryboardVideoProps } from "../../app/lib/timeline/video-props";
import { buildTimeline } from "../../app/lib/timeline/timeline";
import { gopFrames, recommendedBitrate, remotionDeliveryOptions } from "../../workflows/engine/delivery-encoding";
import { analyseLoudness, applyLoudness, measureLoudness, normaliseLoudness, type LoudnessMeasure } from "../../workflows/engine/loudness";
import { mixMusicIntoVideo } from "../../workflows/engine/music-mix";
import { prescaleImage, serveRenderAssets } from "../../workflows/engine/render-assets";
import { chromiumOptions, closeBrowser, getCompositionBundle, renderSettings, withBrowser } from "../../workflows/engine/render-engine";
import { renderTimelineFast } from "../../workflows/engine/render-fast";
import { cutAtScenes, joinChunks, renderChunkPicture, renderTimelineSound } from "../../workflows/engine/render-chunks";

const run = promisify(execFile);
const SIZE = { width: 640, height: 360 };
const FPS = 30;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-loudness-"));

/**
 * A voice-like mono WAV at 48 kHz: a 140 Hz fundamental with falling harmonics (a vowel), in syllables of about
 * 0.2 s with short gaps and a pause between phrases, peaking at `peak` (1 = full scale). With `plosives`, a short
 * burst four times the vowel's height every 0.8 s, as a "p" or a "t" makes: the peaks stand far above the loudness,
 * as in the offline voices, so a plain gain to the target would pass the ceiling.
 */
function voiceWav(file: string, seconds: number, peak: number, plosives = false) {
  const rate = 48_000;
  const n = Math.round(seconds * rate);
  const samples = new Float64Array(n);
  let max = 0;
  for (let i = 0; i < n; i++) {
    const t = i / rate;
    const syllable = Math.max(0, Math.sin(Math.PI * ((t * 5) % 1))) ** 0.6;
    const phrase = t % 1.6 < 1.3 ? 1 : 0.02;
    const f = 140 * (1 + 0.05 * Math.sin(2 * Math.PI * 0.7 * t));
    const vowel = [1, 0.6, 0.45, 0.3, 0.2, 0.12].reduce((sum, a, k) => sum + a * Math.sin(2 * Math.PI * f * (k + 1) * t + k), 0);
    const burst = plosives && t % 0.8 < 0.004 ? 4 * Math.sin(2 * Math.PI * 1800 * t) * (1 - (t % 0.8) / 0.004) : 0;
    samples[i] = (vowel * syllable * phrase + burst) * Math.min(1, i / 400, (n - i) / 400);
    max = Math.max(max, Math.abs(samples[i]!));
  }
  const pcm = Buffer.alloc(n * 2);
  for (let i = 0; i < n; i++) pcm.writeInt16LE(Math.round((samples[i]! / max) * peak * 32767), i * 2);
  fs.writeFileSync(file, pcm16ToWav(pcm, rate));
}

/** Music: a steady chord (196 Hz and its fifth) at full scale, a bed with no pauses for the ducking to show in. */
async function musicWav(file: string, seconds: number) {
  await run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", `aevalsrc='0.55*sin(2*PI*196*t)+0.4*sin(2*PI*294*t)':d=${seconds}:s=48000`, file]);
}

type Case = { name: string; voicePeak: number; music: boolean; plosives?: boolean };
const CASES: Case[] = [
  { name: "a quiet voice", voicePeak: 0.02, music: false },
  { name: "a loud voice", voicePeak: 1, music: false },
  { name: "music at 100 %", voicePeak: 0.3, music: true },
  // the gain it needs would lift its peaks over the ceiling: the limiter holds them (decision 190, third round)
  { name: "a voice with sharp peaks", voicePeak: 0.5, music: false, plosives: true },
];
const voiceName = (c: Case, i: number) => `voice-${c.voicePeak}${c.plosives ? "-plosives" : ""}-${i}.wav`;

function props(c: Case, src: (name: string) => string): StoryboardVideoProps {
  return storyboardVideoSchema.parse({
    ...SIZE,
    fps: FPS,
    captions: false,
    scenes: [0, 1].map((i) => ({ imageSrc: src(`scene-${i}.png`), audioSrc: src(voiceName(c, i)), audioDurationInSeconds: 2.4, text: "Bees dance to point the way." })),
    music: c.music ? { src: src("music.wav"), volume: 1 } : null,
  });
}

type Delivered = { raw: string; delivered: string; before: LoudnessMeasure; after: LoudnessMeasure };
const results = new Map<string, Delivered>();
const key = (engine: string, c: Case) => `${engine}: ${c.name}`;

beforeAll(async () => {
  const files = new Map<string, string>();
  const source = path.join(dir, "source.png");
  await run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", `testsrc2=s=${SIZE.width * 2}x${SIZE.height * 2}:d=1`, "-frames:v", "1", source]);
  for (const i of [0, 1]) {
    const image = path.join(dir, `scene-${i}.png`);
    await prescaleImage(source, image, SIZE.width, SIZE.height);
    files.set(`scene-${i}.png`, image);
    for (const c of CASES) {
      const voice = path.join(dir, voiceName(c, i));
      voiceWav(voice, 2.4, c.voicePeak, c.plosives);
      files.set(voiceName(c, i), voice);
    }
  }
  await musicWav(path.join(dir, "music.wav"), 6);
  files.set("music.wav", path.join(dir, "music.wav"));

  const deliver = async (name: string, raw: string) => {
    const delivered = raw.replace(/\.mp4$/, "-delivered.mp4");
    const before = await measureLoudness(raw);
    const after = await normaliseLoudness(raw, delivered);
    results.set(name, { raw, delivered, before, after });
    console.log(`${name}: rendered ${before.integratedLufs} LUFS / ${before.truePeakDbtp} dBTP -> delivered ${after.integratedLufs} LUFS / ${after.truePeakDbtp} dBTP`);
  };
  for (const c of CASES) {
    const raw = path.join(dir, `fast-${c.voicePeak}-${c.music}-${!!c.plosives}.mp4`);
    const workDir = fs.mkdtempSync(path.join(dir, "fast-"));
    await renderTimelineFast({ timeline: buildTimeline(props(c, (name) => files.get(name)!)), workDir, output: raw });
    await deliver(key("fast", c), raw);
  }
  // the chunked render as its activities make it: each scene's picture a chunk (renderVideoChunk), the sound mixed
  // once as PCM and measured (mixRenderSound), then brought to the platform's loudness and encoded alone
  // (normaliseRenderSound), then the pictures and that sound joined by stream copy (joinRenderChunks)
  for (const c of CASES) {
    const timeline = buildTimeline(props(c, (name) => files.get(name)!));
    const name = `chunked-${c.voicePeak}-${c.music}-${!!c.plosives}`;
    const pictures: string[] = [];
    for (const chunk of cutAtScenes(timeline.scenes.map((s) => s.durationInFrames), 2)) {
      const file = path.join(dir, `${name}-part-${chunk.index}.mp4`);
      await renderChunkPicture({ timeline, chunk, workDir: fs.mkdtempSync(path.join(dir, "chunk-")), output: file });
      pictures.push(file);
    }
    const mix = path.join(dir, `${name}-sound.wav`);
    await renderTimelineSound({ timeline, workDir: fs.mkdtempSync(path.join(dir, "sound-")), output: mix, format: "wav" });
    const analysis = await analyseLoudness(mix);
    const sound = path.join(dir, `${name}-sound-delivered.m4a`);
    const before = await measureLoudness(mix);
    const after = await applyLoudness(mix, sound, analysis);
    const delivered = path.join(dir, `${name}-delivered.mp4`);
    await joinChunks({ chunks: pictures, sound, workDir: fs.mkdtempSync(path.join(dir, "join-")), output: delivered });
    results.set(key("chunked", c), { raw: mix, delivered, before, after });
    console.log(`${key("chunked", c)}: mixed ${before.integratedLufs} LUFS / ${before.truePeakDbtp} dBTP -> sound delivered ${after.integratedLufs} LUFS / ${after.truePeakDbtp} dBTP`);
  }
  const assets = await serveRenderAssets(files);
  try {
    const serveUrl = await getCompositionBundle();
    const chromium = chromiumOptions();
    await withBrowser(async (browser) => {
      for (const c of CASES) {
        const inputProps = props(c, (name) => assets.urlFor(name));
        const raw = path.join(dir, `exact-${c.voicePeak}-${c.music}-${!!c.plosives}.mp4`);
        const composition = await selectComposition({ serveUrl, id: COMPOSITION_ID, inputProps, logLevel: "error", puppeteerInstance: browser, ...chromium });
        await renderMedia({
          serveUrl,
          composition,
          inputProps,
          outputLocation: raw,
          ...chromium,
          ...renderSettings(),
          ...remotionDeliveryOptions({ ...SIZE, fps: FPS }),
          puppeteerInstance: browser,
          logLevel: "error",
        });
        await deliver(key("exact", c), raw);
      }
    });
  } finally {
    await assets.close();
  }
}, 900_000);

afterAll(async () => {
  await closeBrowser();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function videoPackets(file: string) {
  const { stdout } = await run("ffprobe", ["-v", "error", "-select_streams", "v", "-show_packets", "-show_data_hash", "md5", "-show_entries", "packet=pts,data_hash", "-of", "csv", file], {
    maxBuffer: 1 << 24,
  });
  return stdout.trim().split("\n");
}

/** The top-level MP4 boxes in file order (ftyp, moov, mdat, ...). */
function topLevelBoxes(file: string): string[] {
  const data = fs.readFileSync(file);
  const boxes: string[] = [];
  for (let at = 0; at + 8 <= data.length; ) {
    let size = data.readUInt32BE(at);
    const type = data.toString("latin1", at + 4, at + 8);
    if (size === 1) size = Number(data.readBigUInt64BE(at + 8));
    if (size === 0) size = data.length - at;
    boxes.push(type);
    if (size < 8) break;
    at += size;
  }
  return boxes;
}

describe.each(["fast", "exact"])("the %s renderer's delivered video", (engine) => {
  it.each(CASES)("brings $name to -14 LUFS (within 1 LU) with the true peak at most -1 dBTP", (c) => {
    const r = results.get(key(engine, c))!;
    // the raw mixes were far from the target, both ways
    if (c.voicePeak === 0.02) expect(r.before.integratedLufs).toBeLessThan(-30);
    if (c.voicePeak === 1) expect(r.before.integratedLufs).toBeGreaterThan(-14);
    expect(Math.abs(r.after.integratedLufs - -14), `${r.after.integratedLufs} LUFS`).toBeLessThanOrEqual(1);
    expect(r.after.truePeakDbtp, `${r.after.truePeakDbtp} dBTP`).toBeLessThanOrEqual(-1);
  });

  it("limits the voice with sharp peaks: a plain gain to -14 LUFS would have put its true peak over the ceiling", async () => {
    const c = CASES.find((k) => k.plosives)!;
    const r = results.get(key(engine, c))!;
    expect(r.before.truePeakDbtp + (-14 - r.before.integratedLufs), "the peak a plain gain would give").toBeGreaterThan(-1);
    const analysis = await analyseLoudness(r.raw);
    expect(analysis).toMatchObject({ kind: "gain", limitDbfs: -2 });
    expect(Math.abs(r.after.integratedLufs - -14), `${r.after.integratedLufs} LUFS`).toBeLessThanOrEqual(0.5);
  });

  it("measures the same when measured again, and keeps the picture packet for packet", async () => {
    const r = results.get(key(engine, CASES[1]!))!;
    const again = await measureLoudness(r.delivered);
    expect(again.integratedLufs).toBeCloseTo(r.after.integratedLufs, 1);
    expect(await videoPackets(r.delivered)).toEqual(await videoPackets(r.raw));
  });

  it("is encoded as YouTube recommends: High profile, yuv420p, a closed GOP of half the frame rate, faststart, AAC-LC 48 kHz stereo, bitrate under the cap", async () => {
    await expectYouTubeEncoding(results.get(key(engine, CASES[2]!))!.delivered, "every-gop");
  });
});

describe("the chunked render's delivered video", () => {
  it.each(CASES)("brings $name to -14 LUFS (within 1 LU) with the true peak at most -1 dBTP, measured on the joined MP4", async (c) => {
    const r = results.get(key("chunked", c))!;
    const delivered = await measureLoudness(r.delivered);
    console.log(`${key("chunked", c)}: joined MP4 ${delivered.integratedLufs} LUFS / ${delivered.truePeakDbtp} dBTP`);
    expect(Math.abs(delivered.integratedLufs - -14), `${delivered.integratedLufs} LUFS`).toBeLessThanOrEqual(1);
    expect(delivered.truePeakDbtp, `${delivered.truePeakDbtp} dBTP`).toBeLessThanOrEqual(-1);
    // the join copied the normalised sound: the figures measured on it (what the render's row keeps) are the video's
    expect(Math.abs(delivered.integratedLufs - r.after.integratedLufs)).toBeLessThanOrEqual(0.1);
    expect(Math.abs(delivered.truePeakDbtp - r.after.truePeakDbtp)).toBeLessThanOrEqual(0.1);
    // and it is as loud as the one-piece fast render of the same timeline, delivered
    expect(Math.abs(delivered.integratedLufs - results.get(key("fast", c))!.after.integratedLufs)).toBeLessThanOrEqual(0.5);
  });

  it("is encoded as the one-piece render is: High profile, yuv420p, closed GOPs of at most half the frame rate, faststart, AAC-LC 48 kHz stereo, bitrate under the cap", async () => {
    await expectYouTubeEncoding(results.get(key("chunked", CASES[2]!))!.delivered, "at-most-gop");
  });

  it("keeps the sound packet for packet in the join, and the picture as long as the sound", async () => {
    const r = results.get(key("chunked", CASES[2]!))!;
    const audioPackets = async (file: string) =>
      (await run("ffprobe", ["-v", "error", "-select_streams", "a", "-show_packets", "-show_data_hash", "md5", "-show_entries", "packet=data_hash", "-of", "csv", file], { maxBuffer: 1 << 24 })).stdout;
    const sound = r.delivered.replace(/-delivered\.mp4$/, "-sound-delivered.m4a");
    expect(await audioPackets(r.delivered)).toBe(await audioPackets(sound));
    const facts = await run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type,duration", "-of", "json", r.delivered]);
    const streams = (JSON.parse(facts.stdout) as { streams: { codec_type: string; duration: string }[] }).streams;
    const seconds = (type: string) => Number(streams.find((st) => st.codec_type === type)!.duration);
    expect(Math.abs(seconds("audio") - seconds("video"))).toBeLessThanOrEqual(1 / FPS);
  });
});

/** What YouTube recommends for an upload, read with ffprobe from the delivered file (decision 175). */
async function expectYouTubeEncoding(file: string, keyframes: "every-gop" | "at-most-gop") {
  const { stdout } = await run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type,codec_name,profile,pix_fmt,sample_rate,channels,bit_rate,field_order", "-show_entries", "format=bit_rate,duration", "-of", "json", file]);
  const probe = JSON.parse(stdout) as { streams: Record<string, string | number>[]; format: { duration: string } };
  const video = probe.streams.find((s) => s.codec_type === "video")!;
  const audio = probe.streams.find((s) => s.codec_type === "audio")!;
  expect(video).toMatchObject({ codec_name: "h264", profile: "High", pix_fmt: "yuv420p" });
  expect(video.field_order ?? "progressive").toBe("progressive");
  expect(audio).toMatchObject({ codec_name: "aac", profile: "LC", sample_rate: "48000", channels: 2 });

  // keyframes every 15 frames (half of 30 fps); x264 was told closed GOPs (its settings travel in the stream)
  const frames = await run("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "frame=key_frame,best_effort_timestamp_time", "-of", "json", file], { maxBuffer: 1 << 24 });
  const keys = (JSON.parse(frames.stdout) as { frames: { key_frame: number; best_effort_timestamp_time: string }[] }).frames
    .filter((f) => f.key_frame === 1)
    .map((f) => Math.round(Number(f.best_effort_timestamp_time) * FPS));
  if (keyframes === "every-gop") expect(keys.slice(0, 4)).toEqual([0, 1, 2, 3].map((k) => k * gopFrames(FPS)));
  // a chunked render's parts each start on a key frame of their own: no GOP is longer, some end early at a join
  else expect(keys.slice(1).map((k, i) => k - keys[i]!).every((gap) => gap > 0 && gap <= gopFrames(FPS))).toBe(true);
  expect(keys[0]).toBe(0);
  const settings = /x264 - core[^\0]*?options: ([^\0]+?)\0/.exec(fs.readFileSync(file).toString("latin1"))?.[1] ?? "";
  expect(settings).toContain("open_gop=0");
  expect(settings).toContain(`keyint=${gopFrames(FPS)}`);
  expect(settings).toContain("bframes=2");

  // the index (moov) is before the media (mdat): playback and YouTube's processing start at once
  const boxes = topLevelBoxes(file);
  expect(boxes.indexOf("moov")).toBeGreaterThan(-1);
  expect(boxes.indexOf("moov")).toBeLessThan(boxes.indexOf("mdat"));

  // the video's bitrate is within YouTube's recommended figure for 360p at 30 fps (the encoder's cap)
  const cap = recommendedBitrate({ ...SIZE, fps: FPS });
  const videoBytes = (await videoPackets(file)).length > 0 ? await streamBytes(file) : 0;
  const kbps = (videoBytes * 8) / 1000 / Number(probe.format.duration);
  expect(kbps).toBeGreaterThan(50);
  expect(kbps).toBeLessThanOrEqual(cap.maxKbps * 1.05);
}

async function streamBytes(file: string): Promise<number> {
  const { stdout } = await run("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "packet=size", "-of", "csv=p=0", file], { maxBuffer: 1 << 24 });
  return stdout.trim().split("\n").reduce((n, s) => n + Number(s), 0);
}

describe("the music mix, normalised after its ducking", () => {
  /** Mean level of a narrow band around `hz` between `from` and `from + seconds`. */
  async function bandDb(file: string, hz: number, from: number, seconds: number) {
    const { stderr } = await run("ffmpeg", ["-hide_banner", "-nostats", "-ss", String(from), "-t", String(seconds), "-i", file, "-vn", "-af", `bandpass=f=${hz}:width_type=q:w=8,bandpass=f=${hz}:width_type=q:w=8,volumedetect`, "-f", "null", "-"]);
    return Number(/mean_volume: (-?[\d.]+) dB/.exec(stderr)![1]);
  }

  it("holds the music at least 10 dB under the speech at 100 % volume, at -14 LUFS and at most -1 dBTP", async () => {
    // a render without music: 3 s of speech (syllables of a 140 Hz voice with its octave, phrases with pauses),
    // then 2 s of nothing
    const render = path.join(dir, "mix-render.mp4");
    const speech = "0.5*(sin(2*PI*140*t)+0.6*sin(2*PI*280*t))*pow(abs(sin(PI*5*t)),0.6)*lt(mod(t,1.6),1.3)*lt(t,3)";
    await run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=5", "-f", "lavfi", "-i", `aevalsrc='${speech}':d=5:s=48000`, "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-t", "5", render]);
    const mixed = path.join(dir, "mixed.mp4");
    await mixMusicIntoVideo({ videoPath: render, musicPath: path.join(dir, "music.wav"), outputPath: mixed, volumeLevel: 100, voice: { kind: "video" } });
    const delivered = path.join(dir, "mixed-delivered.mp4");
    const measure = await normaliseLoudness(mixed, delivered);
    expect(Math.abs(measure.integratedLufs - -14)).toBeLessThanOrEqual(1);
    expect(measure.truePeakDbtp).toBeLessThanOrEqual(-1);

    // during speech (0.2 to 1.2 s): the voice's fundamental against the music's root; after it, the music alone
    const levels = async (file: string) => ({ speech: await bandDb(file, 140, 0.2, 1.0), musicUnder: await bandDb(file, 196, 0.2, 1.0), musicAlone: await bandDb(file, 196, 3.6, 0.6) });
    const after = await levels(delivered);
    const before = await levels(mixed);
    console.log(`music mix at 100 %: ${measure.integratedLufs} LUFS / ${measure.truePeakDbtp} dBTP; before normalising ${JSON.stringify(before)}, after ${JSON.stringify(after)}`);
    expect(after.speech - after.musicUnder, `speech ${after.speech} dB, music under it ${after.musicUnder} dB`).toBeGreaterThanOrEqual(10);
    // the ducking itself survives the normalisation (one gain over the whole mix): the music comes back up when the
    // voice stops, by as much as before
    expect(after.musicAlone - after.musicUnder, `music alone ${after.musicAlone} dB`).toBeGreaterThanOrEqual(10);
    expect(Math.abs(after.speech - after.musicUnder - (before.speech - before.musicUnder))).toBeLessThan(1);
  }, 120_000);
});
