// npm run bench:render: the same 60 s slideshow (12 scenes: image, voiceover, background music at 5%) rendered
// by Reelsmith's renderer (Remotion, with the worker's exact settings) and by a plain ffmpeg pipeline (zoompan +
// concat + amix), in the same run. Prints both times, their ratio, seconds of render per second of video at
// 720p and 1080p, and the peak memory of each (the process tree: node, Chromium, the encoders).
// A benchmark, not a test: the figures depend on the machine and on whatever else it is doing.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { renderMedia, selectComposition } from "@remotion/renderer";
import { providersFor } from "~/providers/index.server";
import { COMPOSITION_ID, storyboardVideoSchema } from "../remotion/props";
import { serveRenderAssets, prescaleImage } from "../workflows/activities/render-assets";
import { chromiumOptions, getCompositionBundle, RENDER_SETTINGS } from "../workflows/activities/render-engine";

const SCENES = 12;
const FPS = 30;
const MUSIC_VOLUME = 0.05;
const SIZES = { "720p": { width: 1280, height: 720 }, "1080p": { width: 1920, height: 1080 } } as const;
const only = process.argv.slice(2);

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-bench-render-"));
process.once("exit", () => fs.rmSync(workDir, { recursive: true, force: true }));

/** Peak resident memory of this process and all its descendants, sampled every 250 ms. */
function peakTreeMemory() {
  let peak = 0;
  const sample = () => {
    const rows = execFileSync("ps", ["-eo", "pid=,ppid=,rss="]).toString().trim().split("\n").map((l) => l.trim().split(/\s+/).map(Number));
    const children = new Map<number, number[]>();
    for (const [pid, ppid] of rows) children.set(ppid!, [...(children.get(ppid!) ?? []), pid!]);
    const rss = new Map(rows.map(([pid, , kb]) => [pid!, kb!]));
    let total = 0;
    const stack = [process.pid];
    while (stack.length) {
      const pid = stack.pop()!;
      total += rss.get(pid) ?? 0;
      stack.push(...(children.get(pid) ?? []));
    }
    peak = Math.max(peak, total);
  };
  const timer = setInterval(sample, 250);
  return { stop: () => (clearInterval(timer), sample(), peak / 1024) };
}

async function timed<T>(fn: () => Promise<T>) {
  const memory = peakTreeMemory();
  const t0 = performance.now();
  const result = await fn();
  return { result, seconds: (performance.now() - t0) / 1000, peakMiB: memory.stop() };
}

function probeDuration(file: string): number {
  return Number(execFileSync("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file]).toString());
}

// ── the fixture: fixed scenes, spoken voiceovers, composed music ──────────────────────────────────────────
console.log(`preparing ${SCENES} scenes (offline images, voiceovers, music)...`);
const offline = providersFor({});
const scenes: { image: string; audio: string; seconds: number; text: string }[] = [];
for (let i = 0; i < SCENES; i++) {
  const text = `Scene ${i + 1}. Honeybees dance to tell the hive where the flowers are, and how far away they grow.`;
  const image = await offline.image.generateImage({ prompt: `Honeybees dancing on a golden comb, scene ${i + 1}`, aspectRatio: "16:9", seed: `bench:${i}` });
  const speech = await offline.speech.synthesize({ text });
  const imagePath = path.join(workDir, `source-${i + 1}.png`);
  const audioPath = path.join(workDir, `voiceover-${i + 1}.wav`);
  fs.writeFileSync(imagePath, image.image);
  fs.writeFileSync(audioPath, speech.audio);
  // each scene lasts 5 s of the 60: the voiceover plus the composition's pad, as the renderer times it
  scenes.push({ image: imagePath, audio: audioPath, seconds: 4.5, text });
}
const { taskId } = await offline.music.startGeneration({ prompt: "calm warm acoustic", trackCount: 1, durationSeconds: 60, seed: "bench" });
const music = await offline.music.poll(taskId);
const musicPath = path.join(workDir, "music.wav");
fs.writeFileSync(musicPath, music.tracks[0]!.audio!);
const videoSeconds = SCENES * 5;

// ── Reelsmith's renderer ─────────────────────────────────────────────────────────────────────────────
async function renderWithRemotion(size: { width: number; height: number }, output: string) {
  const files = new Map<string, string>([["music.wav", musicPath]]);
  for (const [i, scene] of scenes.entries()) {
    const scaled = path.join(workDir, `scene-${i + 1}-${size.height}.jpg`);
    await prescaleImage(scene.image, scaled, size.width, size.height);
    files.set(`scene-${i + 1}.jpg`, scaled);
    files.set(`voiceover-${i + 1}.wav`, scene.audio);
  }
  const assets = await serveRenderAssets(files);
  try {
    const inputProps = storyboardVideoSchema.parse({
      ...size,
      fps: FPS,
      captions: false,
      scenes: scenes.map((s, i) => ({ imageSrc: assets.urlFor(`scene-${i + 1}.jpg`), audioSrc: assets.urlFor(`voiceover-${i + 1}.wav`), audioDurationInSeconds: s.seconds, text: s.text })),
      music: { src: assets.urlFor("music.wav"), volume: MUSIC_VOLUME },
    });
    const serveUrl = await getCompositionBundle();
    const chromium = chromiumOptions();
    const composition = await selectComposition({ serveUrl, id: COMPOSITION_ID, inputProps, logLevel: "error", ...chromium });
    await renderMedia({ serveUrl, composition, inputProps, outputLocation: output, ...chromium, ...RENDER_SETTINGS, logLevel: "error" });
  } finally {
    await assets.close();
  }
}

// ── the plain ffmpeg pipeline: the same pictures with a slow zoom, the voiceovers in a row, music under them ──
function renderWithFfmpeg(size: { width: number; height: number }, output: string) {
  const args = ["-y", "-v", "error"];
  for (const s of scenes) args.push("-i", s.image);
  for (const s of scenes) args.push("-i", s.audio);
  args.push("-i", musicPath);
  const frames = 5 * FPS;
  const video = scenes.map(
    (_, i) =>
      `[${i}:v]scale=${size.width * 2}:${size.height * 2},zoompan=z='min(zoom+0.0008,1.12)':d=${frames}:s=${size.width}x${size.height}:fps=${FPS},setsar=1[v${i}]`,
  );
  const audio = scenes.map((_, i) => `[${SCENES + i}:a]apad=whole_dur=5,atrim=0:5[a${i}]`);
  const filter = [
    ...video,
    `${scenes.map((_, i) => `[v${i}]`).join("")}concat=n=${SCENES}:v=1:a=0,format=yuv420p[v]`,
    ...audio,
    `${scenes.map((_, i) => `[a${i}]`).join("")}concat=n=${SCENES}:v=0:a=1[voice]`,
    `[${SCENES * 2}:a]volume=${MUSIC_VOLUME}[music]`,
    `[voice][music]amix=inputs=2:duration=first:normalize=0[a]`,
  ].join(";");
  args.push("-filter_complex", filter, "-map", "[v]", "-map", "[a]", "-c:v", "libx264", "-preset", "veryfast", "-c:a", "aac", output);
  return new Promise<void>((resolve, reject) => {
    const child = spawn("ffmpeg", args, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg failed (${code}): ${stderr.slice(-500)}`))));
  });
}

console.log("bundling the composition (cached after the first run)...");
const bundleTime = await timed(() => getCompositionBundle());
const rows: string[] = [];
const results: Record<string, { seconds: number; peakMiB: number; duration: number }> = {};
for (const [label, size] of Object.entries(SIZES)) {
  if (only.length && !only.includes(label)) continue;
  for (const engine of ["reelsmith", "ffmpeg"] as const) {
    const output = path.join(workDir, `${engine}-${label}.mp4`);
    console.log(`rendering ${videoSeconds} s at ${label} with ${engine}...`);
    const run = await timed(() => (engine === "reelsmith" ? renderWithRemotion(size, output) : renderWithFfmpeg(size, output)));
    results[`${engine}-${label}`] = { seconds: run.seconds, peakMiB: run.peakMiB, duration: probeDuration(output) };
  }
}

console.log(`\nbench:render on ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB (bundle: ${bundleTime.seconds.toFixed(1)} s)`);
console.log("renderer   size   video s  render s  s render / s video  peak MiB");
for (const [key, r] of Object.entries(results)) {
  const [engine, label] = key.split("-");
  rows.push(
    `${engine!.padEnd(10)} ${label!.padEnd(6)} ${r.duration.toFixed(1).padStart(7)}  ${r.seconds.toFixed(1).padStart(8)}  ${(r.seconds / r.duration).toFixed(2).padStart(18)}  ${r.peakMiB.toFixed(0).padStart(8)}`,
  );
}
console.log(rows.join("\n"));
for (const label of Object.keys(SIZES)) {
  const ours = results[`reelsmith-${label}`];
  const theirs = results[`ffmpeg-${label}`];
  if (ours && theirs) console.log(`${label}: Reelsmith takes ${(ours.seconds / theirs.seconds).toFixed(2)}x the ffmpeg time (target: within 3x)`);
}
process.exit(0);
