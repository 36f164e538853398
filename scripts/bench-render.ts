// npm run bench:render [720p] [1080p] [ffmpeg|fast|transitions|exact] [--scenes=N] [--concurrency=N,M] [--legacy-encoding]: the same
// 60 s slideshow (12 scenes: a textured image moving slowly, a voiceover, a caption line per sentence, background
// music at 5 %) rendered in one run, at 720p and 1080p, by
//   ffmpeg  a plain ffmpeg pipeline: the same motion at the same smoothness (bilinear, per frame: the pictures
//           pan-zoom.ts draws, as the fast renderer's; ffmpeg's perspective filter drew them until decision 279),
//           the same captions burned in with drawtext, the same audio mix: the machine's floor;
//   fast    Reelsmith's fast renderer (captions rasterised by Remotion once each, one ffmpeg run);
//   transitions  the fast renderer on the same video with a 0.5 s transition into every scene after the first
//           (crossfade, slide and zoom in turn; decision 225), against `fast` without (issue 50: at most 1.15x);
//   exact   Reelsmith's exact renderer (Remotion in the headless shell, the worker's settings); with
//           --concurrency=1,2,4 once per tab count up to the number of cores, as `npx remotion benchmark` does.
// Each makes the file a creator receives, as the render activity does: encoded with the platform's delivery settings
// (delivery-encoding.ts, decision 175), then the loudness step of the save step (loudness.ts, normaliseLoudness:
// loudnorm measured, applied, the result measured with ebur128; the picture copied; decision 190). The encode and
// the loudness step are timed apart, and the plain ffmpeg pipeline gets the same settings and the same loudness step,
// so "x ffmpeg" compares like with like; "x bare" divides by the plain pipeline's encode alone (no loudness step at
// all), the floor any way of levelling the sound in a plain pipeline would stand on.
// --legacy-encoding also renders ffmpeg and fast with the settings before issue 37 (crf 18, veryfast, x264's own GOP,
// B-frames and profile, no bitrate cap, AAC 320k; no loudness step), to show what the delivery settings cost.
// --presets=superfast,faster also renders `fast` with each x264 preset in place of the delivery's (no loudness step),
// and once losslessly (x264 -qp 0) as the reference each fast render's picture is compared with (SSIM and PSNR
// over every frame): what a preset saves in encode CPU and what it costs in picture and size (decision 289).
// Each render runs in a fresh child process that, as a worker does at start-up, bundles the composition and launches
// the browser before it is timed; its process tree (node, the browser, ffmpeg) is what the peak memory and CPU
// seconds measure, so the fixture's providers (about 1 GiB in this parent process) are not counted against a
// renderer. A benchmark, not a test: the figures depend on what else the machine does, so the load average before
// and after is printed too.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath } from "node:url";
import { storyboardVideoSchema, type StoryboardVideoProps } from "../app/lib/timeline/video-props";
import { buildTimeline } from "../app/lib/timeline/timeline";
import { SCENE_PAD_SECONDS } from "../app/lib/timeline/timing";
import { prescaleImage } from "../workflows/engine/render-assets";
import { chromiumOptions, closeBrowser, ENCODING, getBrowser, getCompositionBundle, renderSettings } from "../workflows/engine/render-engine";
import { deliveryAudioArgs, deliveryVideoArgs, type Frame } from "../workflows/engine/delivery-encoding";
import { normaliseLoudness } from "../workflows/engine/loudness";
import { movingImagesFeed, renderTimelineFast, runFfmpeg } from "../workflows/engine/render-fast";
import { compileTimeline } from "../workflows/engine/render-fast-compile";
import { renderExact } from "../tests/fixtures/render-parity";

const option = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
// `--scenes=N` renders a shorter slideshow (N scenes of 5 s) when the machine is too busy for the full minute
const SCENES = Number(option("scenes") ?? 12);
const FPS = 30;
const MUSIC_VOLUME = 0.05;
const SIZES = { "720p": { width: 1280, height: 720 }, "1080p": { width: 1920, height: 1080 } } as const;
type SizeLabel = keyof typeof SIZES;
const ENGINES = ["ffmpeg", "fast", "transitions", "exact"] as const;
/** The transitions the `transitions` run draws into scenes 2, 3, 4, ... in turn. */
const BENCH_TRANSITIONS = ["fade", "slide", "zoom"] as const;
type Engine = (typeof ENGINES)[number];
const args = process.argv.slice(2);
const onlySizes = args.filter((a) => a in SIZES);
const onlyEngines = args.filter((a) => (ENGINES as readonly string[]).includes(a));
const concurrencies = option("concurrency")?.split(",").map(Number) ?? [null];
const legacyEncoding = args.includes("--legacy-encoding");
const presets = option("presets")?.split(",").filter(Boolean) ?? [];
const FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf";

/** The output settings before issue 37 (render-fast-compile.ts before decision 175), for --legacy-encoding. */
const LEGACY_VIDEO = ["-c:v", "libx264", "-preset", "veryfast", "-crf", "18", "-pix_fmt", "yuv420p", "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv"];
const LEGACY_AUDIO = ["-c:a", "aac", "-aac_coder", "fast", "-b:a", "320k", "-ar", "48000"];

/** The reference for --presets: the same picture losslessly (x264's lossless mode needs its own profile). */
const LOSSLESS_VIDEO = ["-c:v", "libx264", "-preset", "ultrafast", "-qp", "0", "-pix_fmt", "yuv420p", "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv"];

/** `list` with the run `from` (which must be there, in one piece) replaced by `to`. */
function swapArgs(list: string[], from: string[], to: string[]): string[] {
  const at = list.findIndex((_, i) => from.every((a, k) => list[i + k] === a));
  if (at < 0) throw new Error(`the delivery settings (${from.slice(0, 4).join(" ")} ...) are not in ffmpeg's arguments`);
  return [...list.slice(0, at), ...to, ...list.slice(at + from.length)];
}

/** ffmpeg's arguments with the delivery settings swapped for the earlier ones. */
function withLegacyEncoding(args: string[], frame: Frame): string[] {
  return swapArgs(swapArgs(args, deliveryVideoArgs(frame), LEGACY_VIDEO), deliveryAudioArgs(), LEGACY_AUDIO);
}

/** The delivery settings with another x264 preset, or lossless (the --presets reference). */
function withVideoSettings(args: string[], frame: Frame, preset: string): string[] {
  const delivery = deliveryVideoArgs(frame);
  if (preset === "lossless") return swapArgs(args, delivery, LOSSLESS_VIDEO);
  const at = delivery.indexOf("-preset");
  return swapArgs(args, delivery, [...delivery.slice(0, at + 1), preset, ...delivery.slice(at + 2)]);
}

/** What the parent prepares once and every child renders from. */
type Manifest = { workDir: string; sources: { image: string; audio: string; text: string }[]; musicPath: string };

/**
 * Peak resident memory of `root` and all its descendants, sampled every 250 ms, with what the tree held when
 * sampling began as `baselineMiB`; and the CPU seconds (user + system) the tree spent meanwhile, from /proc,
 * which a busy machine distorts far less than wall time. A process's CPU counts its own time and that of the
 * children it has reaped (cutime, cstime), so a short ffmpeg run that ends between two samples (the loudness
 * step's passes) is counted in full through its parent; `mark()` gives the CPU seconds so far.
 */
function treeUsage(root: number) {
  const ticksPerSecond = 100;
  let peak = 0;
  let baseline = -1;
  const firstTicks = new Map<number, number>();
  const cpuTicks = (pid: number) => {
    try {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      // utime, stime, cutime, cstime (fields 14-17 of proc(5); the list here starts at field 3)
      return Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    } catch {
      return null;
    }
  };
  /** The tree's CPU ticks since sampling began: processes alive now; the ones gone are in their parents' cutime. */
  let spent = 0;
  const sample = () => {
    const rows = execFileSync("ps", ["-eo", "pid=,ppid=,rss="]).toString().trim().split("\n").map((l) => l.trim().split(/\s+/).map(Number));
    const children = new Map<number, number[]>();
    for (const [pid, ppid] of rows) children.set(ppid!, [...(children.get(ppid!) ?? []), pid!]);
    const rss = new Map(rows.map(([pid, , kb]) => [pid!, kb!]));
    let total = 0;
    let ticksNow = 0;
    const stack = [root];
    while (stack.length) {
      const pid = stack.pop()!;
      total += rss.get(pid) ?? 0;
      const ticks = cpuTicks(pid);
      if (ticks !== null) {
        // a process born during the render counts from zero; one alive before counts from the first sample
        if (!firstTicks.has(pid)) firstTicks.set(pid, baseline < 0 ? ticks : 0);
        ticksNow += ticks - firstTicks.get(pid)!;
      }
      stack.push(...(children.get(pid) ?? []));
    }
    if (baseline < 0) baseline = total;
    peak = Math.max(peak, total);
    spent = ticksNow;
  };
  sample();
  const timer = setInterval(sample, 250);
  return {
    mark: () => {
      sample();
      return spent / ticksPerSecond;
    },
    stop: () => {
      clearInterval(timer);
      sample();
      return { peakMiB: peak / 1024, baselineMiB: baseline / 1024, cpuSeconds: spent / ticksPerSecond };
    },
  };
}

/** SSIM (all planes, with its dB figure) and average PSNR of `file`'s picture against `reference`'s, over every frame. */
function pictureAgainst(file: string, reference: string): { ssim: string; psnr: string } {
  const graph = "[0:v]split[a][b];[1:v]split[c][d];[a][c]ssim;[b][d]psnr";
  // the figures are in ffmpeg's log (stderr)
  const run = spawnSync("ffmpeg", ["-hide_banner", "-nostdin", "-i", file, "-i", reference, "-lavfi", graph, "-f", "null", "-"], { encoding: "utf8", maxBuffer: 64 * 2 ** 20 });
  if (run.status !== 0) throw new Error(`comparing ${file} with ${reference} failed: ${run.stderr.slice(-500)}`);
  const out = run.stderr;
  return { ssim: /SSIM .*All:(\S+ \([^)]*\))/.exec(out)?.[1] ?? "?", psnr: /PSNR .*average:(\S+)/.exec(out)?.[1] ?? "?" };
}

function probe(file: string) {
  const out = execFileSync("ffprobe", ["-v", "error", "-count_frames", "-show_entries", "stream=codec_type,nb_read_frames,duration,bit_rate", "-of", "json", file]).toString();
  const streams = (JSON.parse(out) as { streams: { codec_type: string; nb_read_frames?: string; duration?: string; bit_rate?: string }[] }).streams;
  const video = streams.find((s) => s.codec_type === "video");
  const audio = streams.find((s) => s.codec_type === "audio");
  return { frames: Number(video?.nb_read_frames ?? 0), seconds: Number(video?.duration ?? 0), audioSeconds: Number(audio?.duration ?? 0), videoKbps: Number(video?.bit_rate ?? 0) / 1000 };
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

/** Which settings a render encodes with: the delivered path (delivery settings, then the loudness step) or the earlier one. */
type Variant = "delivered" | "legacy" | `x264-${string}`;
/** Variants encoded without the loudness step: the earlier path, and the --presets encodes (compared by picture). */
const encodeOnly = (variant: Variant) => variant !== "delivered";

async function render(engine: Engine, variant: Variant, fixture: Awaited<ReturnType<typeof fixtureFor>>, workDir: string, output: string) {
  const props = fixture.props((name) => fixture.files.get(name)!);
  const local = buildTimeline(
    engine === "transitions"
      ? { ...props, transition: { kind: "fade", seconds: 0.5 }, scenes: props.scenes.map((scene, i) => ({ ...scene, transitionIn: BENCH_TRANSITIONS[(i + 2) % 3]! })) }
      : props,
  );
  const frame = { width: local.width, height: local.height, fps: local.fps };
  const adjustArgs =
    variant === "legacy"
      ? (args: string[]) => withLegacyEncoding(args, frame)
      : variant.startsWith("x264-")
        ? (args: string[]) => withVideoSettings(args, frame, variant.slice("x264-".length))
        : undefined;
  if (engine === "ffmpeg") {
    const textFile = (k: number) => path.join(workDir, `caption-${k}.txt`);
    local.overlays.forEach((o, k) => fs.writeFileSync(textFile(k), o.text));
    const filterScript = path.join(workDir, "ffmpeg-graph.txt");
    const { args, filterGraph } = compileTimeline(local, { fileFor: (src) => src, filterScript, output, encoding: ENCODING, drawtextCaptions: { fontFile: FONT, textFile } });
    fs.writeFileSync(filterScript, filterGraph);
    await runFfmpeg(adjustArgs ? adjustArgs(args) : args, { feed: movingImagesFeed(local) });
  } else if (engine === "fast" || engine === "transitions") {
    const dir = fs.mkdtempSync(path.join(workDir, "fast-"));
    await renderTimelineFast({ timeline: local, workDir: dir, output, adjustArgs });
  } else {
    if (variant !== "delivered") throw new Error("--legacy-encoding and --presets render ffmpeg and fast only");
    await renderExact(fixture, output);
  }
}

// ── child: one render, started when the parent says "go" ─────────────────────────────────────────────────
type ChildMessage = { ready?: boolean; encoded?: boolean; done?: boolean; warmUpSeconds?: number; encodeSeconds?: number; loudnessSeconds?: number; lufs?: number; dbtp?: number };

/**
 * Prepares as a worker does at start-up (pre-scaled images, the bundle, the browser), says "ready", waits for "go";
 * encodes, says "encoded", waits for "go" again (the parent reads the CPU spent so far); then, for the delivered path,
 * the loudness step as storeRenderedVideo runs it (render.ts: normaliseLoudness(output, delivered)), and says "done".
 */
async function child(engine: Engine, variant: Variant, size: SizeLabel, manifestFile: string, output: string) {
  const manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8")) as Manifest;
  const fixture = await fixtureFor(manifest, SIZES[size]);
  const t0 = performance.now();
  if (engine !== "ffmpeg") {
    // the fast renderer's captions are rasterised by the composition, so it warms up as a worker does too
    await getCompositionBundle();
    await getBrowser();
  }
  const warmUpSeconds = (performance.now() - t0) / 1000;
  const lines = readline.createInterface({ input: process.stdin })[Symbol.asyncIterator]();
  const go = async () => {
    for (let line = await lines.next(); !line.done; line = await lines.next()) if (line.value.trim() === "go") return;
  };
  const say = (message: ChildMessage) => console.log(JSON.stringify(message));
  say({ ready: true, warmUpSeconds });
  await go();
  const encoded = path.join(path.dirname(output), `encoded-${path.basename(output)}`);
  let started = performance.now();
  await render(engine, variant, fixture, manifest.workDir, encodeOnly(variant) ? output : encoded);
  const encodeSeconds = (performance.now() - started) / 1000;
  say({ encoded: true, encodeSeconds });
  await go();
  if (encodeOnly(variant)) {
    say({ done: true, loudnessSeconds: 0 });
  } else {
    started = performance.now();
    const measure = await normaliseLoudness(encoded, output);
    const loudnessSeconds = (performance.now() - started) / 1000;
    say({ done: true, loudnessSeconds, lufs: measure.integratedLufs, dbtp: measure.truePeakDbtp });
  }
  await closeBrowser();
  process.exit(0);
}

// ── parent: the fixture once, then each render in its own measured child ─────────────────────────────────
type Run = {
  encodeSeconds: number;
  loudnessSeconds: number;
  encodeCpuSeconds: number;
  cpuSeconds: number;
  peakMiB: number;
  baselineMiB: number;
  warmUpSeconds: number;
  lufs?: number;
  dbtp?: number;
};
type Result = Run & { engine: string; variant: Variant; size: string; output: string; frames: number; videoSeconds: number; audioSeconds: number; videoKbps: number };

/** Runs one render in a child process and measures the child's whole tree from "go" to "done", marking the encode's end. */
function measuredRender(engine: Engine, variant: Variant, size: SizeLabel, manifestFile: string, output: string, concurrency: number | null) {
  const self = fileURLToPath(import.meta.url);
  const env = { ...process.env, ...(concurrency ? { RENDER_CONCURRENCY: String(concurrency) } : {}) };
  const proc = spawn(process.execPath, ["--import", "tsx", self, `--child=${engine},${variant},${size}`, `--manifest=${manifestFile}`, `--output=${output}`], { env, stdio: ["pipe", "pipe", "inherit"] });
  return new Promise<Run>((resolve, reject) => {
    let usage: ReturnType<typeof treeUsage> | undefined;
    let warmUpSeconds = 0;
    let encodeSeconds = 0;
    let encodeCpuSeconds = 0;
    proc.on("error", reject);
    proc.on("exit", (code) => {
      if (code !== 0) reject(new Error(`the ${engine} ${size} render exited with ${code}`));
    });
    readline.createInterface({ input: proc.stdout! }).on("line", (line) => {
      const message = (() => {
        try {
          return JSON.parse(line) as ChildMessage;
        } catch {
          return null;
        }
      })();
      if (!message) return console.log(`  ${line}`);
      if (message.ready) {
        warmUpSeconds = message.warmUpSeconds ?? 0;
        usage = treeUsage(proc.pid!);
        proc.stdin!.write("go\n");
      } else if (message.encoded) {
        encodeSeconds = message.encodeSeconds!;
        encodeCpuSeconds = usage!.mark();
        proc.stdin!.write("go\n");
      } else if (message.done) {
        resolve({ encodeSeconds, loudnessSeconds: message.loudnessSeconds!, encodeCpuSeconds, warmUpSeconds, lufs: message.lufs, dbtp: message.dbtp, ...usage!.stop() });
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
  const runs: { engine: Engine; variant: Variant }[] = [
    { engine: "ffmpeg", variant: "delivered" },
    { engine: "fast", variant: "delivered" },
    { engine: "transitions", variant: "delivered" },
    ...(legacyEncoding ? ([{ engine: "ffmpeg", variant: "legacy" }, { engine: "fast", variant: "legacy" }] as const) : []),
    ...(presets.length ? [...presets, "lossless"].map((preset) => ({ engine: "fast" as const, variant: `x264-${preset}` as const })) : []),
    { engine: "exact", variant: "delivered" },
  ];
  for (const size of Object.keys(SIZES) as SizeLabel[]) {
    if (onlySizes.length && !onlySizes.includes(size)) continue;
    for (const { engine, variant } of runs) {
      if (onlyEngines.length && !onlyEngines.includes(engine)) continue;
      for (const concurrency of engine === "exact" ? concurrencies : [null]) {
        if (concurrency && concurrency > os.cpus().length) {
          // Remotion refuses more tabs than cores, and the worker caps its setting there
          console.log(`skipping exact with ${concurrency} tabs: this machine has ${os.cpus().length} cores`);
          continue;
        }
        const label = `${engine}${concurrency ? ` c${concurrency}` : ""}${variant === "legacy" ? " old" : variant.startsWith("x264-") ? ` ${variant.slice(5)}` : ""}`;
        const output = path.join(workDir, `${label.replaceAll(" ", "-")}-${size}.mp4`);
        console.log(`rendering ${SCENES * 5} s at ${size} with ${label}${variant === "legacy" ? " (the settings before issue 37, no loudness step)" : ""}...`);
        const run = await measuredRender(engine, variant, size, manifestFile, output, concurrency);
        const facts = probe(output);
        results.push({ engine: label, variant, size, output, ...run, ...facts, videoSeconds: facts.seconds });
        console.log(
          `  encode ${run.encodeSeconds.toFixed(1)} s${encodeOnly(variant) ? "" : ` + loudness ${run.loudnessSeconds.toFixed(1)} s`}, ${run.cpuSeconds.toFixed(1)} CPU s, ` +
            `peak ${run.peakMiB.toFixed(0)} MiB (ready: ${run.baselineMiB.toFixed(0)}), ${facts.frames} frames, load average ${os.loadavg()[0]!.toFixed(1)}`,
        );
      }
    }
  }
  const loadAfter = os.loadavg();

  const settings = renderSettings();
  const warmUps = results.filter((r) => r.warmUpSeconds > 0).map((r) => r.warmUpSeconds.toFixed(1));
  const ratio = (a: number, b: number | undefined) => (b ? `${(a / b).toFixed(2)}x` : "-");
  const total = (r: Result) => r.encodeSeconds + r.loudnessSeconds;
  console.log(
    `\nbench:render on ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; delivery settings (decision 175: crf ${ENCODING.crf}, preset ${ENCODING.x264Preset}, ` +
      `High, GOP of half the frame rate, bitrate cap) and the loudness step (decision 190: -14 LUFS, -1 dBTP); ` +
      `exact renderer: ${chromiumOptions().chromeMode}, ${settings.concurrency} tab(s) unless named; warm-up (bundle + browser, not timed) ${warmUps.join(", ") || "-"} s`,
  );
  console.log(`load average (1/5/15 min): before ${loadBefore.map((l) => l.toFixed(1)).join(" ")}, after ${loadAfter.map((l) => l.toFixed(1)).join(" ")}`);
  console.log("encode s: the render to an MP4 with the delivery settings; loud s: normaliseLoudness (loudnorm measured and applied, ebur128 check, picture copied)");
  console.log("x ffmpeg: total against the plain ffmpeg pipeline's total (same settings, same loudness step); x bare: against its encode alone");
  console.log("peak MiB: the render process's whole tree (node with the bundle, the browser, ffmpeg); ready MiB: the same tree before the render");
  console.log(
    "renderer     size   frames  video s  audio s  encode s  loud s  total s  x ffmpeg  x bare  CPU enc  CPU loud  CPU s  x ffmpeg  x bare  peak MiB  ready MiB   LUFS   dBTP  video kb/s",
  );
  for (const r of results) {
    const base = results.find((b) => b.engine === (r.variant === "legacy" ? "ffmpeg old" : "ffmpeg") && b.size === r.size);
    const figure = (v: number | undefined) => (v === undefined ? "-" : Number.isFinite(v) ? v.toFixed(1) : "-inf");
    console.log(
      [
        r.engine.padEnd(12),
        r.size.padEnd(5),
        String(r.frames).padStart(7),
        r.videoSeconds.toFixed(2).padStart(8),
        r.audioSeconds.toFixed(2).padStart(8),
        r.encodeSeconds.toFixed(1).padStart(9),
        (encodeOnly(r.variant) ? "-" : r.loudnessSeconds.toFixed(1)).padStart(7),
        total(r).toFixed(1).padStart(8),
        ratio(total(r), base && total(base)).padStart(9),
        ratio(total(r), base?.encodeSeconds).padStart(7),
        r.encodeCpuSeconds.toFixed(1).padStart(8),
        // a tenth either way is the sampling's (a browser helper ending between the two readings)
        (encodeOnly(r.variant) ? "-" : Math.max(0, r.cpuSeconds - r.encodeCpuSeconds).toFixed(1)).padStart(9),
        r.cpuSeconds.toFixed(1).padStart(6),
        ratio(r.cpuSeconds, base?.cpuSeconds).padStart(9),
        ratio(r.cpuSeconds, base?.encodeCpuSeconds).padStart(7),
        r.peakMiB.toFixed(0).padStart(9),
        r.baselineMiB.toFixed(0).padStart(10),
        figure(r.lufs).padStart(6),
        figure(r.dbtp).padStart(6),
        r.videoKbps.toFixed(0).padStart(11),
      ].join(" "),
    );
  }
  // what the delivery settings cost the encode, against the settings before issue 37 (--legacy-encoding)
  const legacy = results.filter((r) => r.variant === "legacy");
  if (legacy.length) {
    console.log("\ndelivery settings against the earlier ones (encode only; the earlier path had no loudness step):");
    for (const old of legacy) {
      const now = results.find((r) => r.variant === "delivered" && r.size === old.size && r.engine === old.engine.replace(" old", ""));
      if (!now) continue;
      const change = (a: number, b: number) => `${a >= b ? "+" : ""}${(((a - b) / b) * 100).toFixed(0)} %`;
      console.log(
        `  ${now.engine} ${now.size}: encode ${now.encodeSeconds.toFixed(1)} s against ${old.encodeSeconds.toFixed(1)} s (${change(now.encodeSeconds, old.encodeSeconds)}), ` +
          `CPU ${now.encodeCpuSeconds.toFixed(1)} against ${old.encodeCpuSeconds.toFixed(1)} s (${change(now.encodeCpuSeconds, old.encodeCpuSeconds)}), ` +
          `video ${now.videoKbps.toFixed(0)} against ${old.videoKbps.toFixed(0)} kb/s; with the loudness step ${total(now).toFixed(1)} s (${change(total(now), old.encodeSeconds)})`,
      );
    }
  }
  // --presets: each fast encode's picture against the lossless one, frame by frame
  for (const reference of results.filter((r) => r.variant === "x264-lossless")) {
    console.log(`\nx264 presets at ${reference.size}, each picture against the lossless encode (${reference.videoKbps.toFixed(0)} kb/s), every frame:`);
    console.log("preset       encode s  CPU enc  video kb/s   SSIM (dB)      PSNR dB");
    for (const r of results.filter((r) => r.size === reference.size && (r.engine === "fast" || (r.variant.startsWith("x264-") && r !== reference)))) {
      const { ssim, psnr } = pictureAgainst(r.output, reference.output);
      const preset = r.variant === "delivered" ? `${ENCODING.x264Preset} *` : r.variant.slice(5);
      console.log(
        `${preset.padEnd(12)} ${r.encodeSeconds.toFixed(1).padStart(8)} ${r.encodeCpuSeconds.toFixed(1).padStart(8)} ${r.videoKbps.toFixed(0).padStart(11)}   ${ssim.padStart(16)} ${psnr.padStart(8)}`,
      );
    }
    console.log("* the delivery's preset; its encode time here is the render without the loudness step");
  }
  const verdicts = results
    .filter((r) => r.engine === "fast")
    .map((r) => {
      const base = results.find((b) => b.engine === "ffmpeg" && b.size === r.size);
      if (!base) return null;
      const met = total(r) / total(base) <= 1.5 && r.cpuSeconds / base.cpuSeconds <= 1.5;
      return `${r.size} ${ratio(total(r), total(base))} wall, ${ratio(r.cpuSeconds, base.cpuSeconds)} CPU (against the bare encode ${ratio(total(r), base.encodeSeconds)}, ${ratio(r.cpuSeconds, base.encodeCpuSeconds)}): ${met ? "met" : "NOT met"}`;
    })
    .filter(Boolean);
  if (verdicts.length) console.log(`\nfast renderer within 1.5x of plain ffmpeg, delivered path: ${verdicts.join("; ")}`);
  // issue 50: the same video with transitions against without, by the fast renderer (the worker's default)
  for (const withT of results.filter((r) => r.engine === "transitions")) {
    const without = results.find((r) => r.engine === "fast" && r.size === withT.size);
    if (!without) continue;
    const wall = total(withT) / total(without);
    const cpu = withT.cpuSeconds / without.cpuSeconds;
    console.log(
      `${withT.size}: ${SCENES * 5} s with ${SCENES - 1} transitions ${total(withT).toFixed(1)} s (${withT.cpuSeconds.toFixed(1)} CPU s) against without ${total(without).toFixed(1)} s ` +
        `(${without.cpuSeconds.toFixed(1)} CPU s): ${wall.toFixed(2)}x wall, ${cpu.toFixed(2)}x CPU; target at most 1.15x: ${wall <= 1.15 && cpu <= 1.15 ? "met" : "NOT met"}`,
    );
  }
  console.log("goals (60 s, quiet machine): fast within 1.5x of ffmpeg at both sizes; exact under 116 s at 720p (1.8x faster than 209 s); peak memory under 1536 MiB");
  process.exit(0);
}

const childOf = option("child");
if (childOf) {
  const [engine, variant, size] = childOf.split(",") as [Engine, Variant, SizeLabel];
  await child(engine, variant, size, option("manifest")!, option("output")!);
} else {
  await parent();
}
