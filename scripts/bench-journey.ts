// npm run bench:journey: the browser journey (tests/e2e/journey.e2e.test.ts) without the browser, for a 60 s 16:9
// video, timed stage by stage (docs/decisions/120-journey-benchmark-through-the-http-api.md).
// The app is started the way the browser tests start it (scripts/lib/test-app.mjs: the built web server and a
// worker against a fresh database, the YouTube fake, the test servers on TEST_PG_PORT / TEST_TEMPORAL_PORT /
// E2E_PORT), with the offline providers and no keys. The stages are scripts/lib/journey-stages.ts (shared with
// bench:long): each through the app's HTTP API with a session cookie, as the pages call it, except the session
// itself and the project with its script run (the /create form allows 16:9 only from 5 minutes; this is 60 s).
// `npm run bench:journey -- pipeline` takes the same journey as one make-video run (scripts/lib/journey-pipeline.ts,
// issue 53): title to a scheduled upload with music, each stage's start and end printed as offsets from the title.
// A benchmark, not a test: the figures depend on the machine's load.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startBenchApp, stopBenchApp } from "./lib/bench-app";
import { signedInClient, stageLine, stageTimer } from "./lib/journey-client";
import { connectYoutube, runPipeline } from "./lib/journey-pipeline";
import { runJourney } from "./lib/journey-stages";
import { sampleCpuByProgram, treeCpuSeconds } from "./lib/process-tree";

const TITLE = "Why the Sea Is Salty";
const TOPIC = "Where the salt in the oceans comes from: rivers, rocks, volcanoes and vents on the sea floor";
// `-- --seconds=N` times a shorter or longer video (the done-when figure is 60 s)
const SECONDS = Number(process.argv.find((a) => a.startsWith("--seconds="))?.slice(10) ?? 60);
const PIPELINE = process.argv.slice(2).includes("pipeline");

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-bench-journey-"));
async function cleanup() {
  await stopBenchApp();
  fs.rmSync(workDir, { recursive: true, force: true });
}
process.once("SIGINT", () => void cleanup().then(() => process.exit(130)));

/** CPU seconds the app's workers and everything they started have spent so far (scripts/lib/test-app.mjs names them). */
function workerPids(): number[] {
  const pids = (process.env.E2E_WORKERS_STARTED ?? "").split(",").map((w) => Number(/=(\d+):/.exec(w)?.[1])).filter((pid) => pid > 0);
  if (pids.length === 0) throw new Error("the app's workers are not known (E2E_WORKERS_STARTED is empty)");
  return pids;
}
function workersCpuSeconds(): number {
  return workerPids().reduce((sum, pid) => sum + treeCpuSeconds(pid), 0);
}

function probe(file: string) {
  const out = execFileSync("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type,codec_name,width,height:format=duration", "-of", "json", file]);
  return JSON.parse(String(out)) as { streams: { codec_type: string; codec_name: string; width?: number; height?: number }[]; format: { duration: string } };
}

try {
  console.log("starting PostgreSQL, Temporal, the YouTube fake and the built app with its worker (not timed)...");
  const app = await startBenchApp();
  const base = app.baseUrl;
  const client = await signedInClient(base, "Bench Journey");
  const { stage } = stageTimer();

  if (PIPELINE) {
    await connectYoutube(client);
    console.log(`\nthe journey for a ${SECONDS} s 16:9 video as one make-video run (music at 10 %, scheduled upload), offline providers, through ${base}:`);
    console.log(`  ${"stage".padEnd(34)} ${"start".padStart(9)} .. ${"end".padStart(7)}   ${"took".padStart(7)}`);
    const cpuBefore = workersCpuSeconds();
    const byProgram = sampleCpuByProgram(workerPids(), "worker (node)");
    const run = await runPipeline(client, { title: TITLE, topic: TOPIC, seconds: SECONDS });
    const cpu = workersCpuSeconds() - cpuBefore;
    const programs = byProgram.stop();
    for (const s of run.stages.filter((s) => s.start !== null).sort((a, b) => a.start! - b.start!)) console.log(stageLine("  ", `${s.stage}${s.state === "done" ? "" : ` (${s.state})`}`, s.start!, s.end ?? run.total));
    for (const s of run.stages.filter((s) => s.start === null)) console.log(`  ${s.stage.padEnd(34)} ${s.state}`);
    console.log(`  ${"total".padEnd(34)} ${run.total.toFixed(1).padStart(29)} s`);
    if (run.status !== "completed" || !run.videoUrl) throw new Error(`the run ended ${run.status}: ${run.error}`);
    const facts = probe(await client.download(run.videoUrl, workDir, "video.mp4"));
    const video = facts.streams.find((s) => s.codec_type === "video");
    console.log(
      `\nvideo: ${video?.width}x${video?.height} ${video?.codec_name}, ${Number(facts.format.duration).toFixed(1)} s, audio ${facts.streams.find((s) => s.codec_type === "audio")?.codec_name ?? "none"}` +
        `; YouTube (fake): ${run.youtubeUrl}, private until ${run.publishAt}`,
    );
    // the floor under the wall time: however well the stages overlap, the cores cannot do this work faster
    const cores = os.cpus().length;
    console.log(`the worker's CPU (with its voices, browser and ffmpeg runs): ${cpu.toFixed(1)} CPU s, ${(cpu / cores).toFixed(1)} s on ${cores} cores at best`);
    console.log(`  by program: ${[...programs].map(([program, seconds]) => `${program} ${seconds.toFixed(1)}`).join(", ")}`);
    console.log(`machine load (1/5/15 min): ${os.loadavg().map((l) => l.toFixed(1)).join(" / ")} on ${cores} cores`);
    // the app and its test servers are stopped below, as after the stage-by-stage journey
    await cleanup();
    process.exit(0);
  }

  console.log(`\nthe journey for a ${SECONDS} s 16:9 video, offline providers, through ${base}:`);
  const started = performance.now();
  const journey = await runJourney(client, base, stage, { title: TITLE, topic: TOPIC, seconds: SECONDS, uploadScenePhoto: true });
  const total = (performance.now() - started) / 1000;
  console.log(`  ${"total".padEnd(34)} ${total.toFixed(1).padStart(7)} s`);

  const renderFacts = probe(await client.download(journey.rendered, workDir, "render.mp4"));
  const mixedFacts = probe(await client.download(journey.mixed, workDir, "mixed.mp4"));
  const video = renderFacts.streams.find((s) => s.codec_type === "video");
  console.log(
    `\nrender: ${video?.width}x${video?.height} ${video?.codec_name}, ${Number(renderFacts.format.duration).toFixed(1)} s` +
      `; with music: ${Number(mixedFacts.format.duration).toFixed(1)} s, audio ${mixedFacts.streams.find((s) => s.codec_type === "audio")?.codec_name}` +
      `; YouTube (fake) video id ${journey.videoId}, private until ${journey.publishAt}`,
  );
  console.log(`machine load (1/5/15 min): ${os.loadavg().map((l) => l.toFixed(1)).join(" / ")} on ${os.cpus().length} cores`);
} catch (e) {
  console.error(`\nbench:journey failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
} finally {
  await cleanup();
}
process.exit(process.exitCode ?? 0);
