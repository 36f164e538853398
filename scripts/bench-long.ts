// npm run bench:long [5] [20] [60]: long 16:9 videos at 1920x1080 from the title to a scheduled YouTube upload (5, 20
// and 60 minutes by default; name the minutes to run fewer), every stage through the app's HTTP API as the pages
// call it (scripts/lib/journey-stages.ts, as bench:journey), with the offline providers and no keys, on the app the
// browser tests start (the built web server and one worker; test servers on TEST_PG_PORT / TEST_TEMPORAL_PORT /
// E2E_PORT). Prints, per length: each stage's time; seconds of render per second of video; the worker's peak memory
// (its process tree: node, the browser, ffmpeg) in the render and over the whole journey; the disk the app's data and
// scratch folders used at their largest; the video's and audio's lengths against the length asked; and the Temporal
// history of every workflow the journey ran (events and bytes, the largest of each kind: Temporal's limits are
// 50,000 events and 50 MB a workflow; issue 38 wants every stage inside a tenth of that). A benchmark, not a test:
// the figures depend on what else the machine does, so the load average is printed. The fast renderer alone on a
// prepared timeline (its chunks, memory per chunk, ffmpeg's argument list) is bench:long-render.
// `npm run bench:long -- 60 pipeline`: the same lengths as one make-video run each (issue 53's "title to MP4"), the
// way /api/v1/videos starts it: each stage's start and end as offsets from the title (stages run at once), the
// worker's peak memory, the video's facts and the histories.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { activityBreakdown, activityRuns, renderSlotTimeline } from "./lib/activity-runs";
import { trackProgress, type ProgressTrack } from "~/lib/render-eta";
import { startBenchApp, stopBenchApp } from "./lib/bench-app";
import { signedInClient, stageLine } from "./lib/journey-client";
import { runJourney } from "./lib/journey-stages";
import { folderBytes, memoryByProgram, processTree } from "./lib/process-tree";

const asked = process.argv
  .slice(2)
  .filter((a) => /^\d+$/.test(a))
  .map(Number);
const MINUTES = asked.length ? asked : [5, 20, 60];
const PIPELINE = process.argv.includes("pipeline");
const TITLE = "How Honeybees Find Their Way";
const TOPIC = "How a hive finds flowers: the waggle dance, the sun as a compass, scent trails, and how foragers learn the landscape";
/** Temporal's per-workflow limits (a workflow is terminated past them). */
const HISTORY_EVENTS_LIMIT = 50_000;
const HISTORY_BYTES_LIMIT = 50 * 2 ** 20;

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-bench-long-"));
// the worker's scratch files in a folder of this run's own, so its disk use is this run's alone
process.env.SCRATCH_DIR = path.join(workDir, "scratch");
// uploads in YouTube's usual 8 MiB requests (the browser tests use 256 KiB, to see several)
process.env.E2E_YOUTUBE_UPLOAD_CHUNK_BYTES = String(8 * 2 ** 20);

async function cleanup() {
  await stopBenchApp();
  fs.rmSync(workDir, { recursive: true, force: true });
}
process.once("SIGINT", () => void cleanup().then(() => process.exit(130)));

/**
 * The worker's process tree's memory and the app's folders' size, sampled every second; peaks per stage and overall,
 * and the overall peak's time (seconds from the start) and programs.
 */
function watch(workerPid: number, folders: string[]) {
  const started = performance.now();
  let stagePeakKiB = 0;
  let overallKiB = 0;
  let peakAt = 0;
  let peakPrograms = "";
  let peakDiskBytes = 0;
  let samples = 0;
  const sample = () => {
    const tree = processTree(workerPid);
    const kib = tree.reduce((sum, p) => sum + p.rssKiB, 0);
    stagePeakKiB = Math.max(stagePeakKiB, kib);
    if (kib > overallKiB) {
      overallKiB = kib;
      peakAt = (performance.now() - started) / 1000;
      peakPrograms = memoryByProgram(tree);
    }
    // the folders every 5 s: walking a gigabyte of media is not free
    if (samples++ % 5 === 0) peakDiskBytes = Math.max(peakDiskBytes, folders.reduce((sum, f) => sum + folderBytes(f), 0));
  };
  sample();
  const timer = setInterval(sample, 1000);
  return {
    /** the peak (MiB) since the last call */
    stagePeak: () => {
      sample();
      const peak = stagePeakKiB / 1024;
      stagePeakKiB = 0;
      return peak;
    },
    stop: () => {
      clearInterval(timer);
      samples = 0;
      sample();
      return { peakMiB: overallKiB / 1024, peakAt, peakPrograms, peakDiskMiB: peakDiskBytes / 2 ** 20 };
    },
  };
}

function probe(file: string) {
  const out = execFileSync("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type,width,height,duration", "-of", "json", file]).toString();
  const streams = (JSON.parse(out) as { streams: { codec_type: string; width?: number; height?: number; duration?: string }[] }).streams;
  const video = streams.find((s) => s.codec_type === "video");
  return { width: video?.width, height: video?.height, videoSeconds: Number(video?.duration ?? 0), audioSeconds: Number(streams.find((s) => s.codec_type === "audio")?.duration ?? 0) };
}

/** Each length as one make-video run (`pipeline`): its stages as they overlapped, memory, the video, the histories. */
async function pipelineRuns(base: string, workerPid: number, folders: string[]) {
  const { connectYoutube, runPipeline } = await import("./lib/journey-pipeline");
  for (const minutes of MINUTES) {
    const client = await signedInClient(base, `Bench Long Pipeline ${minutes}`);
    await connectYoutube(client);
    const since = new Date(Date.now() - 1000);
    const watching = watch(workerPid, folders);
    console.log(`\n${minutes} minutes, 16:9 1920x1080, one make-video run (music at 10 %, scheduled upload), offline providers, through ${base} (load average ${os.loadavg()[0]!.toFixed(1)}):`);
    const run = await runPipeline(client, { title: TITLE, topic: TOPIC, seconds: minutes * 60, timeoutMs: 4 * 60 * 60_000 });
    const { peakMiB, peakAt, peakPrograms, peakDiskMiB } = watching.stop();
    for (const s of run.stages.filter((s) => s.start !== null).sort((a, b) => a.start! - b.start!)) console.log(stageLine("  ", `${s.stage}${s.state === "done" ? "" : ` (${s.state})`}`, s.start!, s.end ?? run.total));
    for (const s of run.stages.filter((s) => s.start === null)) console.log(`  ${s.stage.padEnd(34)} ${s.state}`);
    console.log(`  ${"total".padEnd(34)} ${run.total.toFixed(1).padStart(29)} s`);
    if (run.status !== "completed" || !run.videoUrl) throw new Error(`the run ended ${run.status}: ${run.error}`);
    const video = await client.download(run.videoUrl, workDir, `pipeline-${minutes}.mp4`);
    const facts = probe(video);
    const videoMiB = fs.statSync(video).size / 2 ** 20;
    fs.rmSync(video, { force: true });
    console.log(`  video ${facts.width}x${facts.height}: ${facts.videoSeconds.toFixed(2)} s of video, ${facts.audioSeconds.toFixed(2)} s of audio for ${minutes * 60} s asked; ${videoMiB.toFixed(0)} MiB; YouTube (fake): ${run.youtubeUrl}`);
    console.log(`  the worker's peak ${peakMiB.toFixed(0)} MiB (its process tree) at +${peakAt.toFixed(0)} s (${peakPrograms}), the app's folders at most ${peakDiskMiB.toFixed(0)} MiB; load average at the end ${os.loadavg()[0]!.toFixed(1)}`);
    console.log("  Temporal histories (the largest run of each workflow type):");
    for (const h of await historiesSince(since)) {
      console.log(`    ${h.type.padEnd(30)} ${String(h.runs).padStart(4)} run(s)  ${String(h.maxEvents).padStart(6)} events (${((h.maxEvents / HISTORY_EVENTS_LIMIT) * 100).toFixed(1)} % of the limit)  ${(h.maxBytes / 1024).toFixed(0).padStart(7)} KiB`);
    }
  }
}

type History = { type: string; runs: number; maxEvents: number; maxBytes: number; totalEvents: number };

/** The histories of the workflows started since `since`, by workflow type: how many ran, the longest and the largest. */
async function historiesSince(since: Date): Promise<History[]> {
  const { getTemporalClient } = await import("~/server/temporal.server");
  const client = await getTemporalClient();
  const byType = new Map<string, History>();
  for await (const run of client.workflow.list({ query: `StartTime >= "${since.toISOString()}"` })) {
    const bytes = run.historySize ?? (await client.workflow.getHandle(run.workflowId, run.runId).describe()).historySize ?? 0;
    const entry = byType.get(run.type) ?? { type: run.type, runs: 0, maxEvents: 0, maxBytes: 0, totalEvents: 0 };
    entry.runs++;
    entry.maxEvents = Math.max(entry.maxEvents, run.historyLength);
    entry.maxBytes = Math.max(entry.maxBytes, bytes);
    entry.totalEvents += run.historyLength;
    byType.set(run.type, entry);
  }
  return [...byType.values()].sort((a, b) => b.maxEvents - a.maxEvents);
}

type Row = { minutes: number; scenes: number; stages: [string, number, number][]; total: number; renderSeconds: number; peakMiB: number; peakDiskMiB: number; videoMiB: number; facts: ReturnType<typeof probe>; renderer: string; histories: History[]; load: number };

try {
  console.log("starting PostgreSQL, Temporal, the YouTube fake and the built app with its worker (not timed)...");
  const app = await startBenchApp();
  const base = app.baseUrl;
  const worker = /^worker=(\d+):(.+)$/.exec(process.env.E2E_WORKERS_STARTED ?? "");
  if (!worker) throw new Error(`no worker process named in E2E_WORKERS_STARTED (${process.env.E2E_WORKERS_STARTED})`);
  const workerPid = Number(worker[1]);
  const folders = [process.env.E2E_DATA_DIR!, process.env.SCRATCH_DIR!];
  const rows: Row[] = [];
  if (PIPELINE) {
    await pipelineRuns(base, workerPid, folders);
    MINUTES.length = 0;
  }

  for (const minutes of MINUTES) {
    const seconds = minutes * 60;
    const client = await signedInClient(base, `Bench Long ${minutes}`);
    const since = new Date(Date.now() - 1000);
    const watching = watch(workerPid, folders);
    const stages: [string, number, number][] = [];
    let lastShown = -1;
    const stage = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
      const started = performance.now();
      const result = await run();
      const took = (performance.now() - started) / 1000;
      const peak = watching.stagePeak();
      stages.push([name, took, peak]);
      console.log(`  ${name.padEnd(36)} ${took.toFixed(1).padStart(8)} s   worker peak ${peak.toFixed(0).padStart(5)} MiB   load ${os.loadavg()[0]!.toFixed(1)}`);
      return result;
    };
    console.log(`\n${minutes} minutes, 16:9 1920x1080, offline providers, through ${base} (load average ${os.loadavg()[0]!.toFixed(1)}):`);
    const started = performance.now();
    // the render page's time left (app/lib/render-eta.ts) on each poll: what it said at each tenth, against the truth
    let track: ProgressTrack | null = null;
    const estimates: { percent: number; elapsed: number; said: number | null }[] = [];
    const journey = await runJourney(client, base, stage, {
      title: TITLE,
      topic: TOPIC,
      seconds,
      renderTimeoutMs: 4 * 60 * 60_000,
      onRenderProgress: ({ percent, elapsedSeconds }) => {
        track = trackProgress(track, { percent, elapsedSeconds });
        const tenth = Math.floor(track.percent / 10) * 10;
        if (tenth >= 10 && tenth < 100 && !estimates.some((e) => e.percent === tenth)) estimates.push({ percent: tenth, elapsed: track.elapsedSeconds, said: track.remainingSeconds });
      },
      onGenerateAll: ({ completed, total }) => {
        const tenth = Math.floor((completed / Math.max(total, 1)) * 10);
        if (tenth > lastShown) {
          lastShown = tenth;
          process.stdout.write(`    generate all: ${completed} of ${total} after ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
        }
      },
    });
    const total = (performance.now() - started) / 1000;
    const { peakMiB, peakDiskMiB } = watching.stop();
    // the render's own length by the page's clock: its last elapsed reading plus what the last poll missed (< 2 s)
    const renderEnded = track ? (track as ProgressTrack).elapsedSeconds : 0;
    if (estimates.length) {
      console.log("  the render page's time left, when each tenth was first shown (the page's estimate against the time the render then took):");
      for (const e of estimates) {
        const truth = renderEnded - e.elapsed;
        const off = e.said === null || truth <= 0 ? "" : ` (${(((e.said - truth) / truth) * 100).toFixed(0)} %)`;
        console.log(`    ${String(e.percent).padStart(3)} % after ${e.elapsed.toFixed(0).padStart(5)} s: said ${e.said ?? "-"} s left, truly about ${truth.toFixed(0)} s${off}`);
      }
    }
    console.log(`  ${"total".padEnd(36)} ${total.toFixed(1).padStart(8)} s`);

    const video = await client.download(journey.rendered, workDir, `render-${minutes}.mp4`);
    const facts = probe(video);
    const videoMiB = fs.statSync(video).size / 2 ** 20;
    fs.rmSync(video, { force: true });
    const render = await client.prisma.renderedVideo.findFirst({ where: { projectId: journey.projectId, baseVideoId: null }, orderBy: { createdAt: "desc" } });
    const histories = await historiesSince(since);
    const { getTemporalClient } = await import("~/server/temporal.server");
    const { renderWorkflowId } = await import("../workflows/shared/render");
    const renderRuns = await activityRuns((await getTemporalClient()).workflow.getHandle(renderWorkflowId(journey.projectId)));
    const renderSeconds = stages.find(([name]) => name.startsWith("render"))![1];
    rows.push({ minutes, scenes: journey.cellCount, stages, total, renderSeconds, peakMiB, peakDiskMiB, videoMiB, facts, renderer: `${render?.renderer ?? "?"}${render?.rendererReason ? ` (${render.rendererReason})` : ""}`, histories, load: os.loadavg()[0]! });
    console.log(`  video ${facts.width}x${facts.height}: ${facts.videoSeconds.toFixed(2)} s of video, ${facts.audioSeconds.toFixed(2)} s of audio for ${seconds} s asked; ${videoMiB.toFixed(0)} MiB; renderer ${rows.at(-1)!.renderer}`);
    // where the render's time went: the plan, each chunk (rendered one after another on one worker), the sound, the join
    console.log("  the render's activities (seconds from the render workflow's start):");
    for (const line of activityBreakdown(renderRuns)) console.log(`    ${line}`);
    console.log("  the worker's render slot, part by part:");
    for (const line of renderSlotTimeline(renderRuns)) console.log(`    ${line}`);
    console.log("  Temporal histories (the largest run of each workflow type):");
    for (const h of histories) {
      console.log(`    ${h.type.padEnd(30)} ${String(h.runs).padStart(4)} run(s)  ${String(h.maxEvents).padStart(6)} events (${((h.maxEvents / HISTORY_EVENTS_LIMIT) * 100).toFixed(1)} % of the limit)  ${(h.maxBytes / 1024).toFixed(0).padStart(7)} KiB (${((h.maxBytes / HISTORY_BYTES_LIMIT) * 100).toFixed(2)} %)`);
    }
  }

  if (rows.length > 0) {
    console.log(`\nbench:long on ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; 16:9 1920x1080 from the title, offline providers, one worker`);
    const names = rows[0]!.stages.map(([name]) => name.replace(/ \(\d+ scenes\)/, ""));
    console.log(`${"stage (s)".padEnd(36)} ${rows.map((r) => `${r.minutes} min`.padStart(9)).join(" ")}`);
    for (const [i, name] of names.entries()) console.log(`${name.padEnd(36)} ${rows.map((r) => r.stages[i]![1].toFixed(1).padStart(9)).join(" ")}`);
    const line = (label: string, cell: (r: Row) => string) => console.log(`${label.padEnd(36)} ${rows.map((r) => cell(r).padStart(9)).join(" ")}`);
    line("total", (r) => r.total.toFixed(1));
    line("scenes", (r) => String(r.scenes));
    line("render s per s of video", (r) => (r.renderSeconds / (r.minutes * 60)).toFixed(3));
    line("video s (asked)", (r) => `${r.facts.videoSeconds.toFixed(1)}`);
    line("length off by", (r) => `${(((r.facts.videoSeconds - r.minutes * 60) / (r.minutes * 60)) * 100).toFixed(2)} %`);
    line("audio s", (r) => r.facts.audioSeconds.toFixed(1));
    line("video MiB", (r) => r.videoMiB.toFixed(0));
    line("worker peak MiB, render", (r) => r.stages.find(([n]) => n.startsWith("render"))![2].toFixed(0));
    line("worker peak MiB, journey", (r) => r.peakMiB.toFixed(0));
    line("disk MiB at most", (r) => r.peakDiskMiB.toFixed(0));
    line("render workflow events", (r) => String(r.histories.find((h) => h.type === "renderVideoWorkflow")?.maxEvents ?? "?"));
    line("render workflow KiB", (r) => ((r.histories.find((h) => h.type === "renderVideoWorkflow")?.maxBytes ?? 0) / 1024).toFixed(0));
    line("largest history, events", (r) => `${r.histories[0]?.maxEvents ?? 0}`);
    line("load average at the end", (r) => r.load.toFixed(1));
    console.log(`renderers: ${rows.map((r) => `${r.minutes} min ${r.renderer}`).join("; ")}`);
  }
} catch (e) {
  console.error(`\nbench:long failed: ${e instanceof Error ? e.stack : String(e)}`);
  process.exitCode = 1;
} finally {
  await cleanup();
}
process.exit(process.exitCode ?? 0);
