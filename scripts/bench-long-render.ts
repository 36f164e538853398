// npm run bench:long-render [5] [20] [60]: the fast renderer alone (bench:long goes from the title through every
// stage): long 16:9 1080p videos (5, 20 and 60 minutes by default; name the minutes to run fewer) rendered by it,
// each in a fresh child process as a worker renders (the composition bundled and the browser launched before the
// clock starts). Scenes of 15 s (14.68 s of voiceover and the timeline's pause), as the storyboard plans them: 20, 80
// and 240 scenes; offline pictures, offline voiceovers (a few, reused), a caption line per sentence (every scene's
// text distinct), music at 5 %. Prints, per length: seconds of render per second of video, the peak memory of the
// child's process tree (node, the browser, ffmpeg), the peak disk use of its work folder (caption pictures, graph,
// the MP4 as it grows), and the size of ffmpeg's argument list. A benchmark, not a test: the figures depend on what
// else the machine does, so the load average is printed too. --chunk-minutes=N renders as one worker renders a long
// video (RENDER_CHUNK_MAX_SECONDS, decision 156): chunks of at most N minutes one after another, the sound mixed
// beside them, then the join. --stop-after=S prints the peak memory of a render's first S seconds and stops there
// (one length).
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath } from "node:url";
import { folderBytes, processTree } from "./lib/process-tree";
import { storyboardVideoSchema } from "../app/lib/timeline/video-props";
import { buildTimeline } from "../app/lib/timeline/timeline";
import { prescaleImage } from "../workflows/engine/render-assets";
import { closeBrowser, ENCODING, getBrowser, getCompositionBundle } from "../workflows/engine/render-engine";
import { renderTimelineFast, type FastProgress } from "../workflows/engine/render-fast";
import { chunkCountFor, cutAtScenes, joinChunks, renderChunkPicture, renderTimelineSound } from "../workflows/engine/render-chunks";

const SIZE = { width: 1920, height: 1080 };
const FPS = 30;
const SCENE_SECONDS = 15;
const VOICE_SECONDS = 14.68; // + the 0.3 s pause, rounded up to whole frames: 450 frames, 15 s a scene at 30 fps
const PICTURES = 8;
const VOICES = 4;
const MUSIC_VOLUME = 0.05;
const option = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const asked = process.argv
  .slice(2)
  .filter((a) => /^\d+$/.test(a))
  .map(Number);
const MINUTES = asked.length ? asked : [5, 20, 60];
const CHUNK_MINUTES = Number(option("chunk-minutes") ?? 0);
const STOP_AFTER = Number(option("stop-after") ?? 0);

/** What the parent prepares once and every child renders from. */
type Manifest = { dir: string; pictures: string[]; voices: string[]; music: string };

const SENTENCES = [
  "Honeybees dance to tell the hive where the flowers are",
  "The angle of the dance points the way against the sun",
  "A longer waggle means the flowers grow farther away",
  "Foragers visit hundreds of blossoms on a single trip",
  "Young workers build the comb from flakes of wax",
  "The queen lays up to two thousand eggs a day in spring",
];
/** Scene i's text: distinct for every scene, so every caption is a new picture, as in a real script. */
const sceneText = (i: number) =>
  `Scene ${i + 1}. ${SENTENCES[i % SENTENCES.length]}. ${SENTENCES[(i + 2) % SENTENCES.length]}, number ${i + 1}. ${SENTENCES[(i + 4) % SENTENCES.length]}.`;

/** Peak resident memory (KiB) of `root` and its descendants, sampled every 250 ms; and the peak size of `dir`. */
function usage(root: number, dir: string) {
  let peakKiB = 0;
  let overallKiB = 0;
  let peakDiskBytes = 0;
  const sample = () => {
    const total = processTree(root).reduce((sum, p) => sum + p.rssKiB, 0);
    peakKiB = Math.max(peakKiB, total);
    peakDiskBytes = Math.max(peakDiskBytes, folderBytes(dir));
  };
  sample();
  const timer = setInterval(sample, 250);
  return {
    /** The peak (MiB) since the previous lap: a part of the render (a chunk, with the sound mix beside the first). */
    lap: () => {
      sample();
      const lapPeak = peakKiB;
      overallKiB = Math.max(overallKiB, lapPeak);
      peakKiB = 0;
      return lapPeak / 1024;
    },
    stop: () => {
      clearInterval(timer);
      sample();
      return { peakMiB: Math.max(overallKiB, peakKiB) / 1024, peakDiskMiB: peakDiskBytes / 2 ** 20 };
    },
  };
}

function probe(file: string) {
  const out = execFileSync("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type,duration", "-of", "json", file]).toString();
  const streams = (JSON.parse(out) as { streams: { codec_type: string; duration?: string }[] }).streams;
  return {
    videoSeconds: Number(streams.find((s) => s.codec_type === "video")?.duration ?? 0),
    audioSeconds: Number(streams.find((s) => s.codec_type === "audio")?.duration ?? 0),
  };
}

// ── child: one render, started when the parent says "go" ─────────────────────────────────────────────────
async function child(minutes: number, manifestFile: string, workDir: string) {
  const manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8")) as Manifest;
  const scenes = (minutes * 60) / SCENE_SECONDS;
  const timeline = buildTimeline(
    storyboardVideoSchema.parse({
      ...SIZE,
      fps: FPS,
      captions: true,
      scenes: Array.from({ length: scenes }, (_, i) => ({
        imageSrc: manifest.pictures[i % manifest.pictures.length]!,
        audioSrc: manifest.voices[i % manifest.voices.length]!,
        audioDurationInSeconds: VOICE_SECONDS,
        text: sceneText(i),
      })),
      music: { src: manifest.music, volume: MUSIC_VOLUME },
    }),
  );
  await getCompositionBundle();
  await getBrowser();
  const lines = readline.createInterface({ input: process.stdin });
  console.log(JSON.stringify({ ready: true }));
  for await (const line of lines) if (line.trim() === "go") break;
  const started = performance.now();
  let captionsSeconds = 0;
  let lastPercent = -10;
  const onProgress = (p: FastProgress) => {
    if (p.phase === "encoding" && !captionsSeconds) captionsSeconds = (performance.now() - started) / 1000;
    const percent = p.phase === "encoding" ? Math.floor((p.frame / p.total) * 100) : 0;
    if (percent >= lastPercent + 10) {
      lastPercent = percent;
      console.error(`  ${minutes} min: encoding ${percent} % after ${((performance.now() - started) / 1000).toFixed(0)} s`);
    }
  };
  const output = path.join(workDir, "video.mp4");
  let argBytes = 0;
  let chunks = 1;
  // as the one worker renders it: in chunks of at most CHUNK_MINUTES when the video is longer (one in the render
  // slot after another while the heavy queue mixes the sound; each chunk's scratch goes once its picture is kept,
  // as the worker stores it), else in one piece
  const sceneFrames = timeline.scenes.map((scene) => scene.durationInFrames);
  const cut = cutAtScenes(
    sceneFrames,
    chunkCountFor({ durationSeconds: timeline.durationInFrames / FPS, scenes: sceneFrames.length, renderWorkers: 1, minSeconds: 20, maxChunkSeconds: CHUNK_MINUTES * 60 }),
  );
  if (cut.length > 1) {
    chunks = cut.length;
    const soundDir = path.join(workDir, "sound");
    fs.mkdirSync(soundDir);
    const sound = path.join(workDir, "sound.m4a");
    const mixing = renderTimelineSound({ timeline, workDir: soundDir, output: sound }).then(() => {
      console.error(`  ${minutes} min: sound mixed after ${((performance.now() - started) / 1000).toFixed(0)} s`);
      fs.rmSync(soundDir, { recursive: true, force: true });
    });
    const parts: string[] = [];
    for (const chunk of cut) {
      const dir = path.join(workDir, `chunk-${chunk.index + 1}`);
      fs.mkdirSync(dir);
      const part = path.join(workDir, `part-${chunk.index + 1}.mp4`);
      let drawn = 0;
      const from = performance.now();
      await renderChunkPicture({
        timeline,
        chunk,
        workDir: dir,
        output: part,
        onProgress: (p) => {
          if (p.phase === "encoding" && !drawn) drawn = (performance.now() - from) / 1000;
        },
      });
      captionsSeconds += drawn;
      fs.rmSync(dir, { recursive: true, force: true });
      console.log(JSON.stringify({ lap: `chunk ${chunk.index + 1}` }));
      parts.push(part);
      console.error(`  ${minutes} min: chunk ${chunk.index + 1} of ${cut.length} (${chunk.toScene - chunk.fromScene} scenes) after ${((performance.now() - started) / 1000).toFixed(0)} s`);
    }
    await mixing;
    await joinChunks({ chunks: parts, sound, workDir, output });
  } else {
    const { args } = await renderTimelineFast({ timeline, workDir, output, onProgress });
    argBytes = args.reduce((sum, a) => sum + Buffer.byteLength(a) + 1, 0);
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(JSON.stringify({ done: true, seconds, captionsSeconds, argBytes, chunks, captions: timeline.overlays.length, frames: timeline.durationInFrames }));
  lines.close();
  await closeBrowser();
  process.exit(0);
}

// ── parent ───────────────────────────────────────────────────────────────────────────────────────────────
type Done = { seconds: number; captionsSeconds: number; argBytes: number; chunks: number; captions: number; frames: number };

function measuredRender(minutes: number, manifestFile: string, workDir: string) {
  const self = fileURLToPath(import.meta.url);
  const proc = spawn(process.execPath, ["--import", "tsx", self, `--child=${minutes}`, `--manifest=${manifestFile}`, `--work=${workDir}`, `--chunk-minutes=${CHUNK_MINUTES}`], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  return new Promise<Done & { peakMiB: number; peakDiskMiB: number }>((resolve, reject) => {
    let measuring: ReturnType<typeof usage> | undefined;
    proc.on("error", reject);
    proc.on("exit", (code) => {
      if (code !== 0) reject(new Error(`the ${minutes}-minute render exited with ${code}`));
    });
    readline.createInterface({ input: proc.stdout! }).on("line", (line) => {
      const message = (() => {
        try {
          return JSON.parse(line) as { ready?: boolean; done?: boolean; lap?: string } & Partial<Done>;
        } catch {
          return null;
        }
      })();
      if (!message) return console.log(`  ${line}`);
      if (message.lap) {
        console.log(`  ${minutes} min: ${message.lap} done, peak ${measuring!.lap().toFixed(0)} MiB over it, load average ${os.loadavg()[0]!.toFixed(1)}`);
      } else if (message.ready) {
        measuring = usage(proc.pid!, workDir);
        proc.stdin!.write("go\n");
        // --stop-after=S: the peak of the first S seconds of a render too long to wait for, then the render ends
        if (STOP_AFTER > 0) {
          setTimeout(() => {
            const tree = processTree(proc.pid!);
            const { peakMiB } = measuring!.stop();
            console.log(`  ${minutes} min: stopped after ${STOP_AFTER} s as asked; peak ${peakMiB.toFixed(0)} MiB so far, load average ${os.loadavg()[0]!.toFixed(1)}`);
            for (const { pid } of tree) process.kill(pid, "SIGKILL");
            process.exit(0);
          }, STOP_AFTER * 1000);
        }
      } else if (message.done) {
        resolve({ ...(message as Done), ...measuring!.stop() });
      }
    });
  });
}

async function parent() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-bench-long-"));
  process.once("exit", () => fs.rmSync(dir, { recursive: true, force: true }));
  console.log(`preparing ${PICTURES} offline pictures at 1080p, ${VOICES} voiceovers, music...`);
  const { providersFor } = await import("~/providers/index.server");
  const offline = providersFor({});
  const pictures: string[] = [];
  for (let i = 0; i < PICTURES; i++) {
    const image = await offline.image.generateImage({ prompt: `${SENTENCES[i % SENTENCES.length]}, scene ${i + 1}`, aspectRatio: "16:9", seed: `bench-long:${i}` });
    const source = path.join(dir, `source-${i + 1}.png`);
    fs.writeFileSync(source, image.image);
    const scaled = path.join(dir, `picture-${i + 1}.png`);
    await prescaleImage(source, scaled, SIZE.width, SIZE.height);
    pictures.push(scaled);
  }
  const voices: string[] = [];
  for (let i = 0; i < VOICES; i++) {
    const speech = await offline.speech.synthesize({ text: `${sceneText(i)} ${SENTENCES[(i + 1) % SENTENCES.length]}.` });
    const voice = path.join(dir, `voice-${i + 1}.wav`);
    fs.writeFileSync(voice, speech.audio);
    voices.push(voice);
  }
  const { taskId } = await offline.music.startGeneration({ prompt: "calm warm acoustic", trackCount: 1, durationSeconds: 60, seed: "bench-long" });
  const track = (await offline.music.poll(taskId)).tracks[0]!;
  const music = path.join(dir, "music.wav");
  fs.writeFileSync(music, track.audio!);
  const manifestFile = path.join(dir, "manifest.json");
  fs.writeFileSync(manifestFile, JSON.stringify({ dir, pictures, voices, music } satisfies Manifest));

  const rows: string[] = [];
  for (const minutes of MINUTES) {
    const workDir = path.join(dir, `render-${minutes}`);
    fs.mkdirSync(workDir);
    console.log(`rendering ${minutes} min (${(minutes * 60) / SCENE_SECONDS} scenes) at 1080p, load average ${os.loadavg()[0]!.toFixed(1)}...`);
    const run = await measuredRender(minutes, manifestFile, workDir);
    const facts = probe(path.join(workDir, "video.mp4"));
    const outputMiB = fs.statSync(path.join(workDir, "video.mp4")).size / 2 ** 20;
    rows.push(
      [
        `${minutes} min`.padEnd(7),
        String((minutes * 60) / SCENE_SECONDS).padStart(6),
        String(run.captions).padStart(8),
        facts.videoSeconds.toFixed(2).padStart(8),
        facts.audioSeconds.toFixed(2).padStart(8),
        run.seconds.toFixed(0).padStart(8),
        run.captionsSeconds.toFixed(0).padStart(10),
        (run.seconds / (minutes * 60)).toFixed(3).padStart(8),
        run.peakMiB.toFixed(0).padStart(9),
        run.peakDiskMiB.toFixed(0).padStart(10),
        outputMiB.toFixed(0).padStart(8),
        String(run.argBytes).padStart(9),
        String(run.chunks).padStart(6),
        os.loadavg()[0]!.toFixed(1).padStart(5),
      ].join(" "),
    );
    console.log(`  ${rows.at(-1)}`);
    fs.rmSync(workDir, { recursive: true, force: true });
  }
  const how = CHUNK_MINUTES > 0 ? `in chunks of at most ${CHUNK_MINUTES} min, one after another` : "in one piece";
  console.log(`\nbench:long-render on ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; 1920x1080, ${FPS} fps, crf ${ENCODING.crf}, preset ${ENCODING.x264Preset}; fast renderer ${how}`);
  console.log("render s: captions drawn + ffmpeg; captions s: until ffmpeg started; s/s: render seconds per second of video;");
  console.log("peak MiB: the render process's tree (node, browser, ffmpeg); disk MiB: its work folder at its largest; args: ffmpeg's argument list in bytes (one piece)");
  console.log("length  scenes captions  video s  audio s render s captions s     s/s  peak MiB  disk MiB  out MiB      args chunks  load");
  for (const row of rows) console.log(row);
  process.exit(0);
}

const childOf = option("child");
if (childOf) await child(Number(childOf), option("manifest")!, option("work")!);
else await parent();
