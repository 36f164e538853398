// npm run bench:render [720p] [1080p] [ffmpeg|fast|exact] [--scenes=N] [--concurrency=N,M]: the same 60 s
// slideshow (12 scenes: a textured image moving slowly, a voiceover, a caption line per sentence, background music
// at 5 %) rendered in one run, at 720p and 1080p, by
//   ffmpeg  a plain ffmpeg pipeline: the same motion at the same smoothness (perspective, bilinear, per frame),
//           the same captions burned in with drawtext, the same audio mix: the machine's floor;
//   fast    Reelsmith's fast renderer (captions rasterised by Remotion once each, one ffmpeg run);
//   exact   Reelsmith's exact renderer (Remotion in the headless shell, the worker's settings); with
//           --concurrency=1,2,4 once per tab count up to the number of cores, as `npx remotion benchmark` does.
// Same crf and preset for all three. Each render runs in a fresh child process that, as a worker does at start-up,
// bundles the composition and launches the browser before it is timed; its process tree (node, the browser, ffmpeg)
// is what the peak memory and CPU seconds measure, so the fixture's providers (about 1 GiB in this parent process)
// are not counted against a renderer. A benchmark, not a test: the figures depend on what else the machine does,
// so the load average before and after is printed too.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath } from "node:url";
import { storyboardVideoSchema, type StoryboardVideoProps } from "../remotion/props";
import { buildTimeline } from "../remotion/timeline";
import { SCENE_PAD_SECONDS } from "../remotion/timing";
import { prescaleImage } from "../workflows/activities/render-assets";
import { chromiumOptions, closeBrowser, ENCODING, getBrowser, getCompositionBundle, renderSettings } from "../workflows/activities/render-engine";
import { renderTimelineFast, runFfmpeg } from "../workflows/activities/render-fast";
import { compileTimeline } from "../workflows/activities/render-fast-compile";
import { renderExact } from "../tests/fixtures/render-parity";

const option = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
// `--scenes=N` renders a shorter slideshow (N scenes of 5 s) when the machine is too busy for the full minute
const SCENES = Number(option("scenes") ?? 12);
const FPS = 30;
const MUSIC_VOLUME = 0.05;
const SIZES = { "720p": { width: 1280, height: 720 }, "1080p": { width: 1920, height: 1080 } } as const;
type SizeLabel = keyof typeof SIZES;
const ENGINES = ["ffmpeg", "fast", "exact"] as const;
type Engine = (typeof ENGINES)[number];
const args = process.argv.slice(2);
const onlySizes = args.filter((a) => a in SIZES);
const onlyEngines = args.filter((a) => (ENGINES as readonly string[]).includes(a));
const concurrencies = option("concurrency")?.split(",").map(Number) ?? [null];
const FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf";

/** What the parent prepares once and every child renders from. */
type Manifest = { workDir: string; sources: { image: string; audio: string; text: string }[]; musicPath: string };

/**
 * Peak resident memory of `root` and all its descendants, sampled every 250 ms, with what the tree held when
 * sampling began as `baselineMiB`; and the CPU seconds (user + system) the tree spent meanwhile, from /proc,
 * which a busy machine distorts far less than wall time.
 */
function treeUsage(root: number) {
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
    const stack = [root];
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

function probe(file: string) {
  const out = execFileSync("ffprobe", ["-v", "error", "-count_frames", "-show_entries", "stream=codec_type,nb_read_frames,duration", "-of", "json", file]).toString();
  const streams = (JSON.parse(out) as { streams: { codec_type: string; nb_read_frames?: string; duration?: string }[] }).streams;
  const video = streams.find((s) => s.codec_type === "video");
  const audio = streams.find((s) => s.codec_type === "audio");
  return { frames: Number(video?.nb_read_frames ?? 0), seconds: Number(video?.duration ?? 0), audioSeconds: Number(audio?.duration ?? 0) };
}

/** The files of one size (images pre-scaled as the worker does) and the props naming them through `src`. */
async function fixtureFor(manifest: Manifest, size: { width: number; height: number }) {
  const files = new Map<string, string>([["music.wav", manifest.musicPath]]);
  for (const [i, scene] of manifest.sources.entries()) {
    const scaled = path.join(manifest.workDir, `scene-${i + 1}-${size.height}.png`);
    if (!fs.existsSync(scaled)) await prescaleImage(scene.image, scaled, size.width, size.height);
    files.set(`scene-${i + 1}.png`, scaled);
    files.set(`voiceover-${i + 1}.wav`, scene.audio);
  }
  // each scene lasts 5 s of the 60: its voiceover plus the composition's pad
  const props = (src: (name: string) => string): StoryboardVideoProps =>
    storyboardVideoSchema.parse({
      ...size,
      fps: FPS,
      captions: true,
      scenes: manifest.sources.map((s, i) => ({ imageSrc: src(`scene-${i + 1}.png`), audioSrc: src(`voiceover-${i + 1}.wav`), audioDurationInSeconds: 5 - SCENE_PAD_SECONDS, text: s.text })),
      music: { src: src("music.wav"), volume: MUSIC_VOLUME },
    });
  return { files, props };
}

async function render(engine: Engine, fixture: Awaited<ReturnType<typeof fixtureFor>>, workDir: string, output: string) {
  const local = buildTimeline(fixture.props((name) => fixture.files.get(name)!));
  if (engine === "ffmpeg") {
    const textFile = (k: number) => path.join(workDir, `caption-${k}.txt`);
    local.overlays.forEach((o, k) => fs.writeFileSync(textFile(k), o.text));
    const filterScript = path.join(workDir, "ffmpeg-graph.txt");
    const { args, filterGraph } = compileTimeline(local, { fileFor: (src) => src, filterScript, output, encoding: ENCODING, drawtextCaptions: { fontFile: FONT, textFile } });
    fs.writeFileSync(filterScript, filterGraph);
    await runFfmpeg(args);
  } else if (engine === "fast") {
    const dir = fs.mkdtempSync(path.join(workDir, "fast-"));
    await renderTimelineFast({ timeline: local, workDir: dir, output });
  } else {
    await renderExact(fixture, output);
  }
}

// ── child: one render, started when the parent says "go" ─────────────────────────────────────────────────
/** Prepares as a worker does at start-up (pre-scaled images, the bundle, the browser), says "ready", waits. */
async function child(engine: Engine, size: SizeLabel, manifestFile: string, output: string) {
  const manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8")) as Manifest;
  const fixture = await fixtureFor(manifest, SIZES[size]);
  const t0 = performance.now();
  if (engine !== "ffmpeg") {
    await getCompositionBundle();
    await getBrowser();
  }
  const warmUpSeconds = (performance.now() - t0) / 1000;
  const lines = readline.createInterface({ input: process.stdin });
  console.log(JSON.stringify({ ready: true, warmUpSeconds }));
  for await (const line of lines) if (line.trim() === "go") break;
  const started = performance.now();
  await render(engine, fixture, manifest.workDir, output);
  const seconds = (performance.now() - started) / 1000;
  console.log(JSON.stringify({ done: true, seconds }));
  lines.close();
  await closeBrowser();
  process.exit(0);
}

// ── parent: the fixture once, then each render in its own measured child ─────────────────────────────────
type Result = { engine: string; size: string; seconds: number; cpuSeconds: number; peakMiB: number; baselineMiB: number; warmUpSeconds: number; frames: number; videoSeconds: number; audioSeconds: number };

/** Runs one render in a child process and measures the child's whole tree from "go" to "done". */
function measuredRender(engine: Engine, size: SizeLabel, manifestFile: string, output: string, concurrency: number | null) {
  const self = fileURLToPath(import.meta.url);
  const env = { ...process.env, ...(concurrency ? { RENDER_CONCURRENCY: String(concurrency) } : {}) };
  const proc = spawn(process.execPath, ["--import", "tsx", self, `--child=${engine},${size}`, `--manifest=${manifestFile}`, `--output=${output}`], { env, stdio: ["pipe", "pipe", "inherit"] });
  return new Promise<{ seconds: number; cpuSeconds: number; peakMiB: number; baselineMiB: number; warmUpSeconds: number }>((resolve, reject) => {
    let usage: ReturnType<typeof treeUsage> | undefined;
    let warmUpSeconds = 0;
    proc.on("error", reject);
    proc.on("exit", (code) => {
      if (code !== 0) reject(new Error(`the ${engine} ${size} render exited with ${code}`));
    });
    readline.createInterface({ input: proc.stdout! }).on("line", (line) => {
      const message = (() => {
        try {
          return JSON.parse(line) as { ready?: boolean; done?: boolean; seconds?: number; warmUpSeconds?: number };
        } catch {
          return null;
        }
      })();
      if (!message) return console.log(`  ${line}`);
      if (message.ready) {
        warmUpSeconds = message.warmUpSeconds ?? 0;
        usage = treeUsage(proc.pid!);
        proc.stdin!.write("go\n");
      } else if (message.done) {
        resolve({ seconds: message.seconds!, warmUpSeconds, ...usage!.stop() });
      }
    });
  });
}

async function parent() {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-bench-render-"));
  process.once("exit", () => fs.rmSync(workDir, { recursive: true, force: true }));
  console.log(`preparing ${SCENES} scenes (offline images, voiceovers, music)...`);
  const { providersFor } = await import("~/providers/index.server");
  const offline = providersFor({});
  const sources: Manifest["sources"] = [];
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
  const manifestFile = path.join(workDir, "manifest.json");
  fs.writeFileSync(manifestFile, JSON.stringify({ workDir, sources, musicPath } satisfies Manifest));

  const loadBefore = os.loadavg();
  const results: Result[] = [];
  for (const size of Object.keys(SIZES) as SizeLabel[]) {
    if (onlySizes.length && !onlySizes.includes(size)) continue;
    for (const engine of ENGINES) {
      if (onlyEngines.length && !onlyEngines.includes(engine)) continue;
      for (const concurrency of engine === "exact" ? concurrencies : [null]) {
        if (concurrency && concurrency > os.cpus().length) {
          // Remotion refuses more tabs than cores, and the worker caps its setting there
          console.log(`skipping exact with ${concurrency} tabs: this machine has ${os.cpus().length} cores`);
          continue;
        }
        const label = concurrency ? `${engine} c${concurrency}` : engine;
        const output = path.join(workDir, `${label.replace(" ", "-")}-${size}.mp4`);
        console.log(`rendering ${SCENES * 5} s at ${size} with ${label}...`);
        const run = await measuredRender(engine, size, manifestFile, output, concurrency);
        const facts = probe(output);
        results.push({ engine: label, size, ...run, frames: facts.frames, videoSeconds: facts.seconds, audioSeconds: facts.audioSeconds });
        console.log(`  ${run.seconds.toFixed(1)} s, ${run.cpuSeconds.toFixed(1)} CPU s, peak ${run.peakMiB.toFixed(0)} MiB (ready: ${run.baselineMiB.toFixed(0)}), ${facts.frames} frames, load average ${os.loadavg()[0]!.toFixed(1)}`);
      }
    }
  }
  const loadAfter = os.loadavg();

  const settings = renderSettings();
  const warmUps = results.filter((r) => r.warmUpSeconds > 0).map((r) => r.warmUpSeconds.toFixed(1));
  console.log(
    `\nbench:render on ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; crf ${ENCODING.crf}, preset ${ENCODING.x264Preset}; ` +
      `exact renderer: ${chromiumOptions().chromeMode}, ${settings.concurrency} tab(s) unless named; warm-up (bundle + browser, not timed) ${warmUps.join(", ") || "-"} s`,
  );
  console.log(`load average (1/5/15 min): before ${loadBefore.map((l) => l.toFixed(1)).join(" ")}, after ${loadAfter.map((l) => l.toFixed(1)).join(" ")}`);
  console.log("peak MiB: the render process's whole tree (node with the bundle, the browser, ffmpeg); ready MiB: the same tree before the render");
  console.log("renderer  size    frames  video s  audio s  render s  x ffmpeg   CPU s  x ffmpeg  peak MiB  ready MiB");
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
        r.baselineMiB.toFixed(0).padStart(10),
      ].join(" "),
    );
  }
  console.log("goals (60 s, quiet machine): fast within 1.5x of ffmpeg at both sizes; exact under 116 s at 720p (1.8x faster than 209 s); peak memory under 1536 MiB");
  process.exit(0);
}

const childOf = option("child");
if (childOf) {
  const [engine, size] = childOf.split(",") as [Engine, SizeLabel];
  await child(engine, size, option("manifest")!, option("output")!);
} else {
  await parent();
}
