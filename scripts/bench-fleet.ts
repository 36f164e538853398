// npm run bench:fleet [--seconds=60[,20,...]] [--workers=1,2]: one render spread over worker processes (issue 30,
// decisions 155 and 156). The bench timeline of bench:render (12 scenes of 5 s: a picture moving slowly, a tone
// voiceover, a caption line per scene, music at 5 %), 1080p, rendered by the real render workflow with 1 and with
// 2 worker processes, each pinned to a core of its own (taskset -c 0, -c 1), against the test servers
// (TEST_PG_PORT, TEST_TEMPORAL_PORT) and a fresh database. Every worker bundles the composition and opens its
// browser before the clock starts. Prints each render's wall time, its chunks, the speed-up and the scaling
// efficiency (and the CPU seconds of the workers' process trees, which a busy machine distorts far less than the
// wall time); then the overhead of S3 storage against the local folder when this build has an S3 backend
// (STORAGE=s3 and its S3_* variables set), else that it was skipped. A benchmark, not a test: the figures depend
// on what else the machine does, so the load average is printed too.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import protos from "@temporalio/proto";
import { Client, Connection, type WorkflowHandle } from "@temporalio/client";
import { createDatabaseFromTemplate, startTestServers } from "./lib/test-servers.mjs";

const option = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const LENGTHS = (option("seconds") ?? "60").split(",").map(Number);
const WORKER_COUNTS = (option("workers") ?? "1,2").split(",").map(Number);
const SIZE = { width: 1920, height: 1080 };
const SCENE_SECONDS = 5;
const VOICE_SECONDS = 4.7; // + the 0.3 s pause: 150 frames, 5 s a scene at 30 fps
const { TaskQueueType } = protos.temporal.api.enums.v1;

const servers = await startTestServers();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-bench-fleet-"));
Object.assign(process.env, {
  DATABASE_URL: await createDatabaseFromTemplate(servers.env.TEST_PG_ADMIN_URL, servers.env.TEST_TEMPLATE_DATABASE, `bench_fleet_${Date.now()}`),
  DATA_DIR: dataDir,
  TEMPORAL_ADDRESS: servers.env.TEMPORAL_ADDRESS,
});
// billing off: the bench's creator is premium, so the music is mixed in
delete process.env.STRIPE_SECRET_KEY;
// the app's modules read the environment once: imported after it is set
const { prisma } = await import("~/server/db.server");
const { parseEnv } = await import("~/server/env.server");
const { seedRenderableProject } = await import("../tests/fixtures/render-project");
const { renderVideoWorkflow } = await import("../workflows/render");
const { taskQueueFor } = await import("../workflows/shared/queue-names");
const { renderWorkflowId } = await import("../workflows/shared/render");

const connection = await Connection.connect({ address: servers.env.TEMPORAL_ADDRESS });
const client = new Client({ connection });
const children: ChildProcess[] = [];

async function cleanup() {
  for (const child of children) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // already gone
    }
  }
  await connection.close().catch(() => {});
  await prisma.$disconnect().catch(() => {});
  await servers.stop().catch(() => {});
  fs.rmSync(dataDir, { recursive: true, force: true });
}
process.once("SIGINT", () => void cleanup().then(() => process.exit(130)));

/** A render worker process (tests/support/worker-process-main.ts) pinned to `core`, warmed up; resolves once ready. */
function startWorker(taskQueue: string, core: number, env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn("taskset", ["-c", String(core), process.execPath, "--import", "tsx", "tests/support/worker-process-main.ts"], {
    env: { ...process.env, ...env, WORKER_KIND: "render", WORKER_WARM_UP: "1", TEMPORAL_TASK_QUEUE: taskQueue },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (d) => {
      output += d;
      if (output.includes("worker ready")) resolve(child);
    });
    child.stderr!.on("data", (d) => (output += d));
    child.once("exit", (code) => reject(new Error(`worker exited (${code}) before it was ready:\n${output}`)));
  });
}

async function stopWorkers(workers: ChildProcess[]) {
  await Promise.all(
    workers.map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      process.kill(-child.pid!, "SIGKILL");
      await exited;
    }),
  );
}

async function renderPollers(taskQueue: string): Promise<number> {
  const queue = await client.workflowService.describeTaskQueue({
    namespace: "default",
    taskQueue: { name: taskQueueFor(taskQueue, "render") },
    taskQueueType: TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY,
  });
  return new Set((queue.pollers ?? []).map((p) => p.identity)).size;
}

/** Seconds each activity of the run took, by type (scheduled to closed, the longest of each type). */
async function activitySeconds(handle: WorkflowHandle): Promise<Map<string, number[]>> {
  const events = (await handle.fetchHistory()).events ?? [];
  const scheduled = new Map<string, { type: string; at: number }>();
  const seconds = new Map<string, number[]>();
  const time = (e: (typeof events)[number]) => Number(e.eventTime?.seconds ?? 0) + (e.eventTime?.nanos ?? 0) / 1e9;
  for (const e of events) {
    if (e.activityTaskScheduledEventAttributes) scheduled.set(String(e.eventId), { type: e.activityTaskScheduledEventAttributes.activityType?.name ?? "?", at: time(e) });
    const closed = e.activityTaskCompletedEventAttributes ?? e.activityTaskFailedEventAttributes ?? e.activityTaskTimedOutEventAttributes;
    if (closed) {
      const s = scheduled.get(String(closed.scheduledEventId));
      if (s) seconds.set(s.type, [...(seconds.get(s.type) ?? []), time(e) - s.at]);
    }
  }
  return seconds;
}

/**
 * CPU seconds (user + system) the worker processes' trees have spent so far: each live process's own time and
 * what its reaped children (ffmpeg runs) spent. Far less distorted by a busy machine than wall time.
 */
function treeCpuSeconds(roots: number[]): number {
  const stats = new Map<number, { ppid: number; ticks: number }>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = fs.readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]!.split(" ");
      // fields from state on: ppid is the 2nd, utime stime cutime cstime the 12th to 15th
      stats.set(Number(entry), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]) });
    } catch {
      // the process ended meanwhile
    }
  }
  const children = new Map<number, number[]>();
  for (const [pid, { ppid }] of stats) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  let ticks = 0;
  const stack = [...roots];
  while (stack.length) {
    const pid = stack.pop()!;
    ticks += stats.get(pid)?.ticks ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return ticks / 100;
}

type Run = { seconds: number; workers: number; wall: number; cpu: number; chunks: number; detail: string };

async function renderWith(videoSeconds: number, workerCount: number, env: Record<string, string> = {}): Promise<Run> {
  const taskQueue = `bench-fleet-${videoSeconds}s-${workerCount}w-${Date.now()}`;
  const workers = await Promise.all(Array.from({ length: workerCount }, (_, i) => startWorker(taskQueue, i % os.availableParallelism(), env)));
  try {
    while ((await renderPollers(taskQueue)) < workerCount) await new Promise((r) => setTimeout(r, 200));
    const user = await prisma.user.create({ data: { email: `bench-${taskQueue}@example.com` } });
    const scenes = Math.round(videoSeconds / SCENE_SECONDS);
    const { projectId } = await seedRenderableProject({ userId: user.id, sceneSeconds: Array(scenes).fill(VOICE_SECONDS), musicSeconds: videoSeconds, musicVolume: 5 });
    const render = await prisma.renderedVideo.create({ data: { projectId, status: "processing" } });
    const load = os.loadavg()[0]!;
    const roots = workers.map((w) => w.pid!);
    const cpuBefore = treeCpuSeconds(roots);
    const started = performance.now();
    const handle = await client.workflow.start(renderVideoWorkflow, {
      taskQueue,
      workflowId: renderWorkflowId(projectId),
      args: [{ renderId: render.id, userId: user.id, projectId, ...SIZE, captions: true }],
    });
    await handle.result();
    const wall = (performance.now() - started) / 1000;
    const cpu = treeCpuSeconds(roots) - cpuBefore;
    const activities = await activitySeconds(handle);
    const chunks = activities.get("renderVideoChunk")?.length ?? 1;
    const list = (type: string) => (activities.get(type) ?? []).map((s) => s.toFixed(1)).join(" + ");
    const detail =
      chunks > 1
        ? `chunks ${list("renderVideoChunk")} s, sound ${list("mixRenderSound")} s, join ${list("joinRenderChunks")} s`
        : `one piece ${list("renderVideoFast")} s`;
    return { seconds: videoSeconds, workers: workerCount, wall, cpu, chunks, detail: `${detail}, load ${load.toFixed(1)}` };
  } finally {
    await stopWorkers(workers);
  }
}

const line = (r: Run) =>
  `  ${`${r.seconds} s`.padStart(5)}  ${r.workers} worker${r.workers === 1 ? " " : "s"}  ${r.wall.toFixed(1).padStart(6)} s wall  ${r.cpu.toFixed(1).padStart(6)} CPU s  ${String(r.chunks).padStart(2)} chunk(s)  ${r.detail}`;

try {
  console.log(`bench:fleet: ${SIZE.width}x${SIZE.height}, 30 fps, captions and music, ${os.availableParallelism()} cores, load average ${os.loadavg()[0]!.toFixed(1)}`);
  const runs: Run[] = [];
  for (const seconds of LENGTHS) {
    for (const workers of WORKER_COUNTS) {
      const run = await renderWith(seconds, workers);
      runs.push(run);
      console.log(line(run));
    }
    const one = runs.find((r) => r.seconds === seconds && r.workers === 1);
    const two = runs.find((r) => r.seconds === seconds && r.workers === 2);
    if (one && two) {
      const speedUp = one.wall / two.wall;
      console.log(
        `  ${seconds} s: speed-up with 2 workers ${speedUp.toFixed(2)}x (goal >= 1.8x), scaling efficiency ${((speedUp / 2) * 100).toFixed(0)} %; ` +
          `CPU of the chunked render ${((two.cpu / one.cpu) * 100).toFixed(0)} % of the one-piece render's (the speed-up two idle cores would give: ${((2 * one.cpu) / Math.max(two.cpu, one.cpu)).toFixed(2)}x at most)`,
      );
    }
  }
  // S3 against the local folder: only when this build's storage has an S3 backend and one is configured
  const s3Known = "STORAGE" in parseEnv({});
  if (!s3Known) {
    console.log("  S3 overhead: skipped (this build's storage module has no S3 backend: STORAGE is not a known setting)");
  } else if (process.env.STORAGE !== "s3") {
    console.log("  S3 overhead: skipped (run with STORAGE=s3 and the S3_* variables to measure it)");
  } else {
    const seconds = LENGTHS[0]!;
    const local = await renderWith(seconds, 2, { STORAGE: "local" });
    const s3 = await renderWith(seconds, 2, { STORAGE: "s3" });
    console.log(line(local));
    console.log(line(s3));
    console.log(`  S3 overhead: ${(((s3.wall - local.wall) / local.wall) * 100).toFixed(1)} % (goal < 10 %)`);
  }
} finally {
  await cleanup();
}
