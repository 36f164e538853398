// npm run bench:fleet [--seconds=60[,20,...]] [--workers=1,2] [--repeat=1] [--s3=2|1|off]: one render spread over
// worker processes (issue 30, decisions 155 and 156). The bench timeline of bench:render (12 scenes of 5 s: a
// picture moving slowly, a tone voiceover, a caption line per scene, music at 5 %), 1080p, rendered by the real
// render workflow with 1 and with 2 worker processes, each pinned to a core of its own (taskset -c 0, -c 1), against
// the test servers (TEST_PG_PORT, TEST_TEMPORAL_PORT, TEST_S3_PORT) and a fresh database. Every worker bundles the
// composition and opens its browser before the clock starts. Prints each render's wall time, its parts (when the
// first began, how long each ran, when the last ended, in seconds from the run's start), the speed-up and the
// scaling efficiency (and the CPU seconds of the workers' process trees, which a busy machine distorts far less
// than the wall time). Then the same render (of the first length) with its media in a bucket:
// a bucket of the bench's own on the test servers' object store (versitygw), the project's files copied into it,
// and the workers (2 by default, --s3=1 for one) run with STORAGE=s3, each with a DATA_DIR and a scratch folder of
// its own, as on separate machines; printed against the local-folder render with as many workers, as the S3
// overhead. --repeat=N runs every render N times, in turn (1 worker, 2 workers, S3, then again), and compares the
// fastest of each. A benchmark, not a test: the figures depend on what else the machine does, so the load average
// is printed with every render. --edit: after each local render, the middle scene gets a new picture and the
// project is rendered again on the same workers, timed the same way: with RENDER_REUSE_CHUNK_SECONDS (decision 260)
// only the chunk holding that scene is drawn again.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import protos from "@temporalio/proto";
import { Client, Connection } from "@temporalio/client";
import { activityRuns } from "./lib/activity-runs";
import { createDatabaseFromTemplate, startTestServers } from "./lib/test-servers.mjs";
import { CreateBucketCommand, DeleteBucketCommand, DeleteObjectsCommand, paginateListObjectsV2 } from "@aws-sdk/client-s3";

const option = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const LENGTHS = (option("seconds") ?? "60").split(",").map(Number);
const WORKER_COUNTS = (option("workers") ?? "1,2").split(",").map(Number);
const REPEAT = Math.max(1, Number(option("repeat") ?? 1));
const S3_WORKERS = option("s3") === "off" ? 0 : Number(option("s3") ?? 2);
const EDIT = process.argv.includes("--edit");
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
// this process seeds the projects in the local folder; the S3 render's files are copied into the bucket
process.env.STORAGE = "local";
// the app's modules read the environment once: imported after it is set
const { prisma } = await import("~/core/db.server");
const { mediaBackend } = await import("~/core/storage.server");
const { createS3Backend, createS3Client } = await import("~/core/storage/s3.server");
const { sceneImage, seedRenderableProject } = await import("../tests/fixtures/render-project");
const { mediaUrl, saveMedia } = await import("~/core/storage.server");
const { renderVideoWorkflow } = await import("../workflows/render");
const { taskQueueFor } = await import("../workflows/shared/queue-names");
const { renderWorkflowId } = await import("../workflows/shared/render");

const connection = await Connection.connect({ address: servers.env.TEMPORAL_ADDRESS });
const client = new Client({ connection });
const children: ChildProcess[] = [];
const workerDirs: string[] = [];

/** A bucket of the bench's own on the test servers' object store (versitygw), removed with its objects at the end. */
const s3Config = {
  endpoint: servers.env.TEST_S3_ENDPOINT,
  region: servers.env.TEST_S3_REGION,
  bucket: `bench-fleet-${Date.now()}`,
  accessKeyId: servers.env.TEST_S3_ACCESS_KEY_ID,
  secretAccessKey: servers.env.TEST_S3_SECRET_ACCESS_KEY,
  forcePathStyle: true,
};
const s3Client = createS3Client(s3Config);
const bucket = createS3Backend(s3Config, s3Client);
const s3Env = {
  STORAGE: "s3",
  S3_ENDPOINT: s3Config.endpoint,
  S3_REGION: s3Config.region,
  S3_BUCKET: s3Config.bucket,
  S3_ACCESS_KEY_ID: s3Config.accessKeyId,
  S3_SECRET_ACCESS_KEY: s3Config.secretAccessKey,
  S3_FORCE_PATH_STYLE: "true",
};
let bucketMade = false;

async function removeBucket() {
  if (!bucketMade) return;
  const keys: string[] = [];
  for await (const page of paginateListObjectsV2({ client: s3Client }, { Bucket: s3Config.bucket })) for (const o of page.Contents ?? []) keys.push(o.Key!);
  for (let i = 0; i < keys.length; i += 1000) {
    await s3Client.send(new DeleteObjectsCommand({ Bucket: s3Config.bucket, Delete: { Objects: keys.slice(i, i + 1000).map((Key) => ({ Key })), Quiet: true } }));
  }
  await s3Client.send(new DeleteBucketCommand({ Bucket: s3Config.bucket }));
}

async function cleanup() {
  for (const child of children) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // already gone
    }
  }
  await removeBucket().catch((e: unknown) => console.error(`bench:fleet: could not remove the bucket ${s3Config.bucket}:`, e));
  s3Client.destroy();
  await connection.close().catch(() => {});
  await prisma.$disconnect().catch(() => {});
  for (const dir of workerDirs) fs.rmSync(dir, { recursive: true, force: true });
  await servers.stop().catch(() => {});
  fs.rmSync(dataDir, { recursive: true, force: true });
}
process.once("SIGINT", () => void cleanup().then(() => process.exit(130)));

type Storage = "local" | "s3";

/**
 * A render worker process (tests/support/worker-process-main.ts) pinned to `core`, warmed up; resolves once ready.
 * With the bucket, it has a DATA_DIR and a scratch folder no other process uses.
 */
function startWorker(taskQueue: string, core: number, storage: Storage): Promise<ChildProcess> {
  let env: Record<string, string> = {};
  if (storage === "s3") {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-bench-fleet-worker-"));
    workerDirs.push(dataDir);
    env = { ...s3Env, DATA_DIR: dataDir, SCRATCH_DIR: path.join(dataDir, "scratch") };
  }
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

/** Copies the user's stored files (seeded in the local folder) into the bucket under the same keys. */
async function copyIntoBucket(userId: string) {
  if (!bucketMade) {
    await s3Client.send(new CreateBucketCommand({ Bucket: s3Config.bucket }));
    bucketMade = true;
  }
  const local = mediaBackend();
  for (const file of await prisma.mediaFile.findMany({ where: { userId } })) await bucket.put(file.storageKey, { path: local.localPath(file.storageKey)! }, { contentType: file.mimeType });
}

type Run = { seconds: number; workers: number; storage: Storage; wall: number; cpu: number; chunks: number; load: number; detail: string };

async function renderWith(videoSeconds: number, workerCount: number, storage: Storage = "local"): Promise<Run> {
  const taskQueue = `bench-fleet-${videoSeconds}s-${workerCount}w-${storage}-${Date.now()}`;
  const workers = await Promise.all(Array.from({ length: workerCount }, (_, i) => startWorker(taskQueue, i % os.availableParallelism(), storage)));
  try {
    while ((await renderPollers(taskQueue)) < workerCount) await new Promise((r) => setTimeout(r, 200));
    const user = await prisma.user.create({ data: { email: `bench-${taskQueue}@example.com` } });
    const scenes = Math.round(videoSeconds / SCENE_SECONDS);
    const { projectId } = await seedRenderableProject({ userId: user.id, sceneSeconds: Array(scenes).fill(VOICE_SECONDS), musicSeconds: videoSeconds, musicVolume: 5 });
    if (storage === "s3") await copyIntoBucket(user.id);
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
    const activities = await activityRuns(handle);
    const chunks = activities.get("renderVideoChunk")?.length ?? 1;
    // how long each ran (started to closed), and when the last of its kind closed (from the run's start)
    const ran = (type: string) => (activities.get(type) ?? []).map((r) => (r.closed - r.started).toFixed(1)).join(" + ");
    const until = (type: string) => Math.max(...(activities.get(type) ?? []).map((r) => r.closed)).toFixed(1);
    const firstStart = (type: string) => Math.min(...(activities.get(type) ?? []).map((r) => r.started)).toFixed(1);
    const detail =
      chunks > 1
        ? `chunks from ${firstStart("renderVideoChunk")} s: ${ran("renderVideoChunk")} s, sound ${ran("mixRenderSound")} s, ` +
          `loudness ${activities.has("normaliseRenderSound") ? `${ran("normaliseRenderSound")} s (done at ${until("normaliseRenderSound")})` : "in the join"}, join ${ran("joinRenderChunks")} s (done at ${until("joinRenderChunks")})`
        : `one piece from ${firstStart("renderVideoFast")} s: ${ran("renderVideoFast")} s`;
    const row = await prisma.renderedVideo.findUniqueOrThrow({ where: { id: render.id } });
    const loudness = `${row.loudnessLufs} LUFS / ${row.truePeakDbtp} dBTP`;
    let edited = "";
    if (EDIT && storage === "local") {
      // the middle scene's new picture (a new stored file, as regenerating it makes), then the same render again
      const middle = Math.floor(scenes / 2);
      const cell = await prisma.storyboardCell.findFirstOrThrow({ where: { storyboard: { projectId }, cellIndex: middle } });
      const image = await saveMedia({ userId: user.id, projectId, kind: "image", data: await sceneImage(middle + 3), mimeType: "image/png", extension: "png", width: 1280, height: 720 });
      await prisma.storyboardCell.update({ where: { id: cell.id }, data: { imageFileId: image.id, imageUrl: mediaUrl(image) } });
      const again = await prisma.renderedVideo.create({ data: { projectId, status: "processing" } });
      const cpuAgain = treeCpuSeconds(roots);
      const startedAgain = performance.now();
      const second = await client.workflow.start(renderVideoWorkflow, {
        taskQueue,
        workflowId: renderWorkflowId(projectId),
        args: [{ renderId: again.id, userId: user.id, projectId, ...SIZE, captions: true }],
      });
      await second.result();
      const wallAgain = (performance.now() - startedAgain) / 1000;
      const drawn = (await activityRuns(second)).get("renderVideoChunk") ?? [];
      const parts = drawn.map((r) => (r.closed - r.started).toFixed(1)).join(" + ") || "none: one piece";
      edited = `; after scene ${middle + 1}'s new picture, rendered again in ${wallAgain.toFixed(1)} s wall, ${(treeCpuSeconds(roots) - cpuAgain).toFixed(1)} CPU s (chunk activities ${parts} s)`;
    }
    return { seconds: videoSeconds, workers: workerCount, storage, wall, cpu, chunks, load, detail: `${detail}; ${loudness}${edited}; load ${load.toFixed(1)} -> ${os.loadavg()[0]!.toFixed(1)}` };
  } finally {
    await stopWorkers(workers);
  }
}

const line = (r: Run) =>
  `  ${`${r.seconds} s`.padStart(5)}  ${r.workers} worker${r.workers === 1 ? " " : "s"}  ${r.storage.padEnd(5)}  ${r.wall.toFixed(1).padStart(6)} s wall  ${r.cpu.toFixed(1).padStart(6)} CPU s  ${String(r.chunks).padStart(2)} chunk(s)  ${r.detail}`;

/** The fastest of the repeated renders of one kind (the one least disturbed by the rest of the machine). */
const fastest = (runs: Run[], seconds: number, workers: number, storage: Storage) =>
  runs.filter((r) => r.seconds === seconds && r.workers === workers && r.storage === storage).reduce<Run | undefined>((a, b) => (!a || b.wall < a.wall ? b : a), undefined);

try {
  console.log(`bench:fleet: ${SIZE.width}x${SIZE.height}, 30 fps, captions and music, ${os.availableParallelism()} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
  const runs: Run[] = [];
  for (const [k, seconds] of LENGTHS.entries()) {
    for (let round = 0; round < REPEAT; round++) {
      for (const workers of WORKER_COUNTS) {
        const run = await renderWith(seconds, workers);
        runs.push(run);
        console.log(line(run));
      }
      // S3 against the local folder: the first length, with as many workers as --s3 says
      if (k === 0 && S3_WORKERS > 0) {
        const run = await renderWith(seconds, S3_WORKERS, "s3");
        runs.push(run);
        console.log(line(run));
      }
    }
    const note = REPEAT > 1 ? ` (the fastest of ${REPEAT} runs each)` : "";
    const one = fastest(runs, seconds, 1, "local");
    const two = fastest(runs, seconds, 2, "local");
    if (one && two) {
      const speedUp = one.wall / two.wall;
      console.log(
        `  ${seconds} s: speed-up with 2 workers ${speedUp.toFixed(2)}x${note} (goal >= 1.8x), scaling efficiency ${((speedUp / 2) * 100).toFixed(0)} %; ` +
          `CPU of the chunked render ${((two.cpu / one.cpu) * 100).toFixed(0)} % of the one-piece render's (the speed-up two idle cores would give: ${((2 * one.cpu) / Math.max(two.cpu, one.cpu)).toFixed(2)}x at most)`,
      );
    }
    const local = fastest(runs, seconds, S3_WORKERS, "local");
    const s3 = fastest(runs, seconds, S3_WORKERS, "s3");
    if (local && s3) {
      console.log(
        `  ${seconds} s, ${S3_WORKERS} worker${S3_WORKERS === 1 ? "" : "s"}: local folder ${local.wall.toFixed(1)} s, S3 (versitygw) ${s3.wall.toFixed(1)} s${note}: ` +
          `S3 overhead ${(((s3.wall - local.wall) / local.wall) * 100).toFixed(1)} % of the wall time (goal < 10 %), ${(((s3.cpu - local.cpu) / local.cpu) * 100).toFixed(1)} % of the workers' CPU`,
      );
    } else if (k === 0 && S3_WORKERS > 0) {
      console.log(`  S3 overhead: not measured (no local-folder render with ${S3_WORKERS} worker(s) to compare with: add it to --workers)`);
    }
  }
} finally {
  await cleanup();
}
