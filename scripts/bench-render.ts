// npm run bench:render [720p] [1080p]: the same 60 s slideshow (12 scenes: a textured image moving slowly, a
// voiceover, a caption line per sentence, background music at 5 %) rendered in one run, at 720p and 1080p, by
//   ffmpeg  a plain ffmpeg pipeline: the same motion at the same smoothness (perspective, bilinear, per frame),
//           the same captions burned in with drawtext, the same audio mix: the machine's floor;
//   fast    Reelsmith's fast renderer (captions rasterised by Remotion once each, one ffmpeg run);
//   exact   Reelsmith's exact renderer (Remotion in the headless shell, the worker's settings).
// Same crf and preset for all three. As in the worker, the composition is bundled and the browser launched
// before the first render (not timed). Prints each time, ratios to ffmpeg, and the peak memory of the process
// tree (node, the browser, ffmpeg). A benchmark, not a test: the figures depend on what else the machine does,
// so the load average before and after is printed too.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { renderMedia, selectComposition } from "@remotion/renderer";
import { providersFor } from "~/providers/index.server";
import { COMPOSITION_ID, storyboardVideoSchema, type StoryboardVideoProps } from "../remotion/props";
import { buildTimeline } from "../remotion/timeline";
import { prescaleImage, serveRenderAssets } from "../workflows/activities/render-assets";
import { chromiumOptions, closeBrowser, ENCODING, getBrowser, getCompositionBundle, renderSettings, withBrowser } from "../workflows/activities/render-engine";
import { renderTimelineFast, runFfmpeg } from "../workflows/activities/render-fast";
import { compileTimeline } from "../workflows/activities/render-fast-compile";

// `--scenes=N` renders a shorter slideshow (N scenes of 5 s) when the machine is too busy for the full minute
const SCENES = Number(process.argv.find((a) => a.startsWith("--scenes="))?.slice("--scenes=".length) ?? 12);
const FPS = 30;
const MUSIC_VOLUME = 0.05;
const SIZES = { "720p": { width: 1280, height: 720 }, "1080p": { width: 1920, height: 1080 } } as const;
const ENGINES = ["ffmpeg", "fast", "exact"] as const;
type Engine = (typeof ENGINES)[number];
const args = process.argv.slice(2);
const onlySizes = args.filter((a) => a in SIZES);
const onlyEngines = args.filter((a) => (ENGINES as readonly string[]).includes(a));
const FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf";

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-bench-render-"));
process.once("exit", () => fs.rmSync(workDir, { recursive: true, force: true }));

/**
 * Peak resident memory of this process and all its descendants, sampled every 250 ms, with what the tree held
 * before the render (the fixture's providers and the idle browser) as `baselineMiB`; and the CPU seconds
 * (user + system) the tree spent meanwhile, from /proc, which a busy machine distorts far less than wall time.
 */
function treeUsage() {
  const ticksPerSecond = 100;
  let peak = 0;
  let baseline = -1;
  const firstTicks = new Map<number, number>();
  const lastTicks = new Map<number, number>();
  const cpuTicks = (pid: number) => {
    try {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      return Number(fields[11]) + Number(fields[12]);
    } catch {
      return null;
    }
  };
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
      const ticks = cpuTicks(pid);
      if (ticks !== null) {
        // a process born during the render counts from zero; one alive before counts from the first sample
        if (!firstTicks.has(pid)) firstTicks.set(pid, baseline < 0 ? ticks : 0);
        lastTicks.set(pid, ticks);
      }
      stack.push(...(children.get(pid) ?? []));
    }
    if (baseline < 0) baseline = total;
    peak = Math.max(peak, total);
  };
  sample();
  const timer = setInterval(sample, 250);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      let ticks = 0;
      for (const [pid, last] of lastTicks) ticks += last - (firstTicks.get(pid) ?? 0);
      return { peakMiB: peak / 1024, baselineMiB: baseline / 1024, cpuSeconds: ticks / ticksPerSecond };
    },
  };
}

async function timed<T>(fn: () => Promise<T>) {
  const usage = treeUsage();
  const t0 = performance.now();
  const result = await fn();
  return { result, seconds: (performance.now() - t0) / 1000, ...usage.stop() };
}

function probe(file: string) {
  const out = execFileSync("ffprobe", ["-v", "error", "-count_frames", "-show_entries", "stream=codec_type,nb_read_frames,duration", "-of", "json", file]).toString();
  const streams = (JSON.parse(out) as { streams: { codec_type: string; nb_read_frames?: string; duration?: string }[] }).streams;
  const video = streams.find((s) => s.codec_type === "video");
  const audio = streams.find((s) => s.codec_type === "audio");
  return { frames: Number(video?.nb_read_frames ?? 0), seconds: Number(video?.duration ?? 0), audioSeconds: Number(audio?.duration ?? 0) };
}

// ── the fixture: textured scene images, spoken voiceovers, composed music ─────────────────────────────────
console.log(`preparing ${SCENES} scenes (offline images, voiceovers, music)...`);
const offline = providersFor({});
const sources: { image: string; audio: string; text: string }[] = [];
for (let i = 0; i < SCENES; i++) {
  const text = `Scene ${i + 1}. Honeybees dance to tell the hive where the flowers are, and how far away they grow.`;
  const image = await offline.image.generateImage({ prompt: `Honeybees dancing on a golden comb, scene ${i + 1}`, aspectRatio: "16:9", seed: `bench:${i}` });
  const speech = await offline.speech.synthesize({ text });
  const imagePath = path.join(workDir, `source-${i + 1}.png`);
  const audioPath = path.join(workDir, `voiceover-${i + 1}.wav`);
  fs.writeFileSync(imagePath, image.image);
  fs.writeFileSync(audioPath, speech.audio);
  sources.push({ image: imagePath, audio: audioPath, text });
}
const { taskId } = await offline.music.startGeneration({ prompt: "calm warm acoustic", trackCount: 1, durationSeconds: 60, seed: "bench" });
const music = await offline.music.poll(taskId);
const musicPath = path.join(workDir, "music.wav");
fs.writeFileSync(musicPath, music.tracks[0]!.audio!);

/** The files of one size (images pre-scaled as the worker does) and the props naming them through `src`. */
async function fixtureFor(size: { width: number; height: number }) {
  const files = new Map<string, string>([["music.wav", musicPath]]);
  for (const [i, scene] of sources.entries()) {
    const scaled = path.join(workDir, `scene-${i + 1}-${size.height}.png`);
    await prescaleImage(scene.image, scaled, size.width, size.height);
    files.set(`scene-${i + 1}.png`, scaled);
    files.set(`voiceover-${i + 1}.wav`, scene.audio);
  }
  // each scene lasts 5 s of the 60: 4.5 s of voiceover plus the composition's pad
  const props = (src: (name: string) => string): StoryboardVideoProps =>
    storyboardVideoSchema.parse({
      ...size,
      fps: FPS,
      captions: true,
      scenes: sources.map((s, i) => ({ imageSrc: src(`scene-${i + 1}.png`), audioSrc: src(`voiceover-${i + 1}.wav`), audioDurationInSeconds: 4.5, text: s.text })),
      music: { src: src("music.wav"), volume: MUSIC_VOLUME },
    });
  return { files, props };
}

async function render(engine: Engine, fixture: Awaited<ReturnType<typeof fixtureFor>>, output: string) {
  const local = buildTimeline(fixture.props((name) => fixture.files.get(name)!));
  if (engine === "ffmpeg") {
    const textFile = (k: number) => path.join(workDir, `caption-${k}.txt`);
    local.overlays.forEach((o, k) => fs.writeFileSync(textFile(k), o.text));
    const ffmpegArgs = compileTimeline(local, { fileFor: (src) => src, captions: [], output, encoding: ENCODING, drawtextCaptions: { fontFile: FONT, textFile } });
    await runFfmpeg(ffmpegArgs);
  } else if (engine === "fast") {
    const dir = fs.mkdtempSync(path.join(workDir, "fast-"));
    await renderTimelineFast({ timeline: local, workDir: dir, output });
  } else {
    const assets = await serveRenderAssets(fixture.files);
    try {
      const inputProps = fixture.props((name) => assets.urlFor(name));
      const serveUrl = await getCompositionBundle();
      const chromium = chromiumOptions();
      await withBrowser(async (browser) => {
        const composition = await selectComposition({ serveUrl, id: COMPOSITION_ID, inputProps, logLevel: "error", puppeteerInstance: browser, ...chromium });
        await renderMedia({ serveUrl, composition, inputProps, outputLocation: output, ...chromium, ...renderSettings(), puppeteerInstance: browser, logLevel: "error" });
      });
    } finally {
      await assets.close();
    }
  }
}

console.log("bundling the composition and launching the browser (as the worker does at start-up)...");
const warmUp = await timed(async () => {
  await getCompositionBundle();
  await getBrowser();
});
const loadBefore = os.loadavg();
const results: {
  engine: Engine;
  size: string;
  seconds: number;
  cpuSeconds: number;
  peakMiB: number;
  baselineMiB: number;
  frames: number;
  videoSeconds: number;
  audioSeconds: number;
}[] = [];
for (const [label, size] of Object.entries(SIZES)) {
  if (onlySizes.length && !onlySizes.includes(label)) continue;
  const fixture = await fixtureFor(size);
  for (const engine of ENGINES) {
    if (onlyEngines.length && !onlyEngines.includes(engine)) continue;
    const output = path.join(workDir, `${engine}-${label}.mp4`);
    console.log(`rendering ${SCENES * 5} s at ${label} with ${engine}...`);
    const run = await timed(() => render(engine, fixture, output));
    const facts = probe(output);
    results.push({ engine, size: label, ...run, frames: facts.frames, videoSeconds: facts.seconds, audioSeconds: facts.audioSeconds });
    console.log(`  ${run.seconds.toFixed(1)} s, ${run.cpuSeconds.toFixed(1)} CPU s, peak ${run.peakMiB.toFixed(0)} MiB (before: ${run.baselineMiB.toFixed(0)}), ${facts.frames} frames, load average ${os.loadavg()[0]!.toFixed(1)}`);
  }
}
const loadAfter = os.loadavg();
await closeBrowser();

const settings = renderSettings();
console.log(
  `\nbench:render on ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; crf ${ENCODING.crf}, preset ${ENCODING.x264Preset}; ` +
    `exact renderer: ${chromiumOptions().chromeMode}, ${settings.concurrency} tab(s); warm-up (bundle + browser) ${warmUp.seconds.toFixed(1)} s`,
);
console.log(`load average (1/5/15 min): before ${loadBefore.map((l) => l.toFixed(1)).join(" ")}, after ${loadAfter.map((l) => l.toFixed(1)).join(" ")}`);
console.log("renderer  size    frames  video s  audio s  render s  x ffmpeg   CPU s  x ffmpeg  peak MiB  before MiB");
for (const r of results) {
  const base = results.find((b) => b.engine === "ffmpeg" && b.size === r.size);
  const ratio = (a: number, b: number | undefined) => (b ? `${(a / b).toFixed(2)}x` : "-");
  console.log(
    [
      r.engine.padEnd(9),
      r.size.padEnd(6),
      String(r.frames).padStart(7),
      r.videoSeconds.toFixed(2).padStart(8),
      r.audioSeconds.toFixed(2).padStart(8),
      r.seconds.toFixed(1).padStart(9),
      ratio(r.seconds, base?.seconds).padStart(9),
      r.cpuSeconds.toFixed(1).padStart(7),
      ratio(r.cpuSeconds, base?.cpuSeconds).padStart(9),
      r.peakMiB.toFixed(0).padStart(9),
      r.baselineMiB.toFixed(0).padStart(11),
    ].join(" "),
  );
}
console.log("goals (60 s, quiet machine): fast within 1.5x of ffmpeg at both sizes; exact under 116 s at 720p (1.8x faster than 209 s); peak memory under 1536 MiB");
process.exit(0);
