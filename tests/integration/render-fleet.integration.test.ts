// One render over two worker processes (issue 30, decision 156): with two workers polling the render queue, a
// fast render of a long enough video is cut into chunks, each worker renders one, and the parts are joined into
// one video. Then one of the two workers is killed (SIGKILL) mid-render: its chunk is retried alone on the other
// worker and the video is still right. Small frames (640x360) to stay cheap; long enough to be chunked. The sound is
// brought to the platform's loudness before the join (on the render queue), and the join copies it: the delivered
// file measures -14 LUFS within 1 LU, true peak at most -1 dBTP, as the render's row says.
// With TEST_STORAGE=s3 the media live in the file's bucket and each worker process has a DATA_DIR and a scratch
// folder of its own (they share no folder with each other or with this process, as on separate machines), and the
// bucket must hold exactly the files the database names once the render is joined.
// The scene media are spread the same way (issue 53's "the same on a fleet"): Generate All, the media stage of every
// make-video run, on two worker processes that both serve the heavy queue makes its pictures on both (the voiceovers,
// one at a time as the spec asks, go to whichever polls first).
import { afterAll, describe, expect, it } from "vitest";
import { defaultPayloadConverter, type Client, type WorkflowHandle } from "@temporalio/client";
import protos from "@temporalio/proto";
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { prisma } from "~/core/db.server";
import { findMediaForUser, mediaBackend, withLocalMediaCopy } from "~/core/storage.server";
import { generateAllContentWorkflow } from "../../workflows/scene-media";
import { taskQueueFor } from "../../workflows/shared/queue-names";
import { generateAllWorkflowId } from "../../workflows/shared/scene-media";
import { renderProgressQuery } from "../../workflows/shared/render";
import { measureLoudness } from "../../workflows/engine/loudness";
import { framesOf, startSeededRender, storedVideoFacts, THIRTY_SECONDS_OF_SCENES } from "../support/render-runs";
import { descendantsOf, isAlive, killWorkerProcess, startWorkerProcess, workerProcessClient } from "../support/worker-process";

const { TaskQueueType } = protos.temporal.api.enums.v1;
const temporal = workerProcessClient();

const workerDirs: string[] = [];
afterAll(async () => {
  await prisma.$disconnect();
  for (const dir of workerDirs) fs.rmSync(dir, { recursive: true, force: true });
});

// six scenes of 5 s: 30 s, over the one-piece threshold
const FRAMES = framesOf(THIRTY_SECONDS_OF_SCENES);

/** Resolves once `count` worker processes poll the render (or heavy) queue derived from `taskQueue`. */
async function renderPollers(client: Client, taskQueue: string, count: number, work: "render" | "heavy" = "render"): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const queue = await client.workflowService.describeTaskQueue({
      namespace: "default",
      taskQueue: { name: taskQueueFor(taskQueue, work) },
      taskQueueType: TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY,
    });
    if (new Set((queue.pollers ?? []).map((p) => p.identity)).size >= count) return;
    if (Date.now() > deadline) throw new Error(`${count} workers never polled the ${work} queue`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const startRender = (taskQueue: string, label: string) => startSeededRender(temporal.client, { taskQueue, label, size: { width: 640, height: 360 } });

/** The task queue each activity type of the run was scheduled on. */
async function activityQueues(handle: WorkflowHandle) {
  const queues = new Map<string, string>();
  for (const e of (await handle.fetchHistory()).events ?? []) {
    const a = e.activityTaskScheduledEventAttributes;
    if (a) queues.set(a.activityType?.name ?? "", a.taskQueue?.name ?? "");
  }
  return queues;
}

/** The renderVideoChunk activity starts in the run's history: which worker (identity) took which attempt. */
async function chunkStarts(handle: WorkflowHandle) {
  const events = (await handle.fetchHistory()).events ?? [];
  const scheduled = new Map<string, string>();
  for (const e of events) {
    const a = e.activityTaskScheduledEventAttributes;
    if (a) scheduled.set(String(e.eventId), a.activityType?.name ?? "");
  }
  return events.flatMap((e) => {
    const a = e.activityTaskStartedEventAttributes;
    if (!a || scheduled.get(String(a.scheduledEventId)) !== "renderVideoChunk") return [];
    return [{ identity: a.identity ?? "", attempt: a.attempt ?? 1 }];
  });
}

/** The chunks being drawn now, least far along first: the worker drawing each and its frames drawn (its heartbeat). */
async function renderingChunks(handle: WorkflowHandle) {
  const pending = (await handle.describe()).raw.pendingActivities ?? [];
  return pending
    .filter((a) => a.activityType?.name === "renderVideoChunk" && a.lastWorkerIdentity && a.lastStartedTime)
    .map((a) => {
      const [details] = a.heartbeatDetails?.payloads ?? [];
      const { frames = 0 } = details ? (defaultPayloadConverter.fromPayload(details) as { frames?: number }) : {};
      return { identity: a.lastWorkerIdentity!, frames };
    })
    .sort((a, b) => a.frames - b.frames);
}

/** The stored video is the whole timeline: every frame, its sound as long, and only that file is left. */
async function expectRightVideo(userId: string, projectId: string, mediaFileId: string) {
  // the test process reads it as any process does: the stored file itself, or a copy out of the bucket
  const facts = await storedVideoFacts(userId, mediaFileId);
  const file = await findMediaForUser(userId, mediaFileId);
  expect(facts.video).toMatchObject({ codec: "h264", width: 640, height: 360, frames: FRAMES });
  expect(facts.audio?.codec).toBe("aac");
  expect(Math.abs(facts.audio!.durationSeconds - FRAMES / 30)).toBeLessThanOrEqual(1 / 30);
  expect(Math.abs(facts.video.durationSeconds - FRAMES / 30)).toBeLessThanOrEqual(1 / 30);
  // the sound was normalised before the join, which copied it: the delivered file is at the platform's loudness, and
  // the figures on the render's row (measured on the sound) are the delivered file's
  const measured = await withLocalMediaCopy(file!, (localPath) => measureLoudness(localPath));
  const row = await prisma.renderedVideo.findFirstOrThrow({ where: { mediaFileId } });
  expect(Math.abs(measured.integratedLufs - -14), `${measured.integratedLufs} LUFS`).toBeLessThanOrEqual(1);
  expect(measured.truePeakDbtp, `${measured.truePeakDbtp} dBTP`).toBeLessThanOrEqual(-1);
  expect(Math.abs(row.loudnessLufs! - measured.integratedLufs)).toBeLessThanOrEqual(0.1);
  expect(Math.abs(row.truePeakDbtp! - measured.truePeakDbtp)).toBeLessThanOrEqual(0.1);
  // the mix and the normalised sound were deleted after the join: the finished video is the project's only one, beside
  // the chunks it keeps for its next render (decision 260), one row each
  expect(await prisma.mediaFile.count({ where: { projectId, kind: "video", renderChunkPart: { is: null } } })).toBe(1);
  expect(await prisma.renderChunkPart.count({ where: { projectId } })).toBe(await prisma.mediaFile.count({ where: { projectId, kind: "video", renderChunkPart: { isNot: null } } }));
  await expectBucketMatchesDatabase(userId);
}

const identityOf = (child: ChildProcess) => `${child.pid}@`;
const inBucket = process.env.STORAGE === "s3";

/** A render worker process; with a bucket, with a DATA_DIR and a scratch folder no other process uses. */
function startRenderWorker(taskQueue: string): Promise<ChildProcess> {
  if (!inBucket) return startWorkerProcess("render", { taskQueue });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-fleet-worker-"));
  workerDirs.push(dataDir);
  return startWorkerProcess("render", { taskQueue, env: { DATA_DIR: dataDir, SCRATCH_DIR: path.join(dataDir, "scratch") } });
}

/** With a bucket: the user's objects are exactly the media files the database names (no part, no sound left). */
async function expectBucketMatchesDatabase(userId: string) {
  if (!inBucket) return;
  const keys: string[] = [];
  for await (const object of mediaBackend().list(`${userId}/`)) keys.push(object.key);
  const named = (await prisma.mediaFile.findMany({ where: { userId }, select: { storageKey: true } })).map((f) => f.storageKey);
  expect(keys.sort()).toEqual(named.sort());
}

describe("one render over two worker processes", () => {
  it("cuts the render into chunks that both workers render, and joins them into the whole video", { timeout: 300_000 }, async () => {
    const taskQueue = `${process.env.TEMPORAL_TASK_QUEUE!}-both`;
    const workers = await Promise.all([startRenderWorker(taskQueue), startRenderWorker(taskQueue)]);
    await renderPollers(temporal.client, taskQueue, 2);
    const { user, projectId, render, handle } = await startRender(taskQueue, "fleet-both");
    const result = await handle.result();

    const starts = await chunkStarts(handle);
    expect(starts.length).toBe(2);
    for (const worker of workers) expect(starts.some((s) => s.identity.startsWith(identityOf(worker))), `worker ${worker.pid} rendered a chunk`).toBe(true);
    expect((await prisma.renderedVideo.findUniqueOrThrow({ where: { id: render.id } })).status).toBe("completed");
    expect((await handle.query(renderProgressQuery)).progress).toBe(100);
    // the sound mixed and brought to its loudness on the heavy queue beside the chunks (decision 298)
    const queues = await activityQueues(handle);
    expect(queues.get("mixRenderSound")).toBe(taskQueueFor(taskQueue, "heavy"));
    expect(queues.get("normaliseRenderSound")).toBe(taskQueueFor(taskQueue, "heavy"));
    expect(queues.get("joinRenderChunks")).toBe(taskQueueFor(taskQueue, "heavy"));
    await expectRightVideo(user.id, projectId, result.mediaFileId);
    await Promise.all(workers.map(killWorkerProcess));
  });

  it("retries the chunk of a worker killed mid-render on the other worker", { timeout: 420_000 }, async () => {
    const taskQueue = `${process.env.TEMPORAL_TASK_QUEUE!}-kill`;
    const workers = await Promise.all([startRenderWorker(taskQueue), startRenderWorker(taskQueue)]);
    await renderPollers(temporal.client, taskQueue, 2);
    const { user, projectId, handle } = await startRender(taskQueue, "fleet-kill");

    // wait until a chunk is being rendered, then kill the worker rendering the one least far along (its heartbeat
    // says how many of its frames are drawn): on a busy machine the other may be about to end. Its browser (captions)
    // runs in a process group of its own and must die with it; the chunk launches it a moment after it starts
    const deadline = Date.now() + 180_000;
    let victim: ChildProcess | undefined;
    for (;;) {
      const state = await handle.query(renderProgressQuery);
      expect(state.status, "the render ended before a worker could be killed").not.toMatch(/completed|failed/);
      if (Date.now() > deadline) throw new Error(`no chunk was ever rendering: ${JSON.stringify(state)}`);
      const chunk = state.status === "rendering" ? (await renderingChunks(handle))[0] : undefined;
      victim = workers.find((w) => chunk?.identity.startsWith(identityOf(w)));
      if (victim && descendantsOf(victim.pid!).some((p) => p.group !== victim!.pid)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const killed = victim;
    const tree = descendantsOf(killed.pid!);
    await killWorkerProcess(killed);
    // its chunk was still being drawn when it was killed (none of its frames can have been stored since)
    expect((await renderingChunks(handle)).some((c) => c.identity.startsWith(identityOf(killed))), "the killed worker's chunk was still being drawn").toBe(true);
    // (a killed process is gone once init has reaped it: a moment after the kill)
    await expect.poll(() => tree.filter((p) => isAlive(p.pid)), { message: "processes the killed worker started", timeout: 10_000 }).toEqual([]);
    const survivor = workers.find((w) => w !== victim)!;
    const result = await handle.result();

    const starts = await chunkStarts(handle);
    const retried = starts.filter((s) => s.attempt >= 2);
    expect(retried.length, "exactly the killed worker's chunk was retried").toBe(1);
    expect(retried[0]!.identity.startsWith(identityOf(survivor))).toBe(true);
    expect((await handle.query(renderProgressQuery)).attempt).toBeGreaterThanOrEqual(2);
    await expectRightVideo(user.id, projectId, result.mediaFileId);
  });

  it("spreads Generate All's pictures over the two workers serving the heavy queue", { timeout: 300_000 }, async () => {
    const taskQueue = `${process.env.TEMPORAL_TASK_QUEUE!}-media`;
    // two worker processes on the heavy queue (each image and voice a little slow, as a provider's answer is); the
    // first runs the workflows too, the second only heavy activities, as a fleet's media machine would
    const delay = { SLOW_PROVIDER_DELAY_MS: "600" };
    const workers = await Promise.all([
      startWorkerProcess("slow-storyboard", { taskQueue, env: { ...delay, WORKER_QUEUES: "light,heavy" } }),
      startWorkerProcess("slow-storyboard", { taskQueue, env: { ...delay, WORKER_QUEUES: "heavy" } }),
    ]);
    await renderPollers(temporal.client, taskQueue, 2, "heavy");
    const user = await prisma.user.create({ data: { email: `fleet-media-${Date.now()}@example.com` } });
    const project = await prisma.project.create({ data: { userId: user.id, title: "Bees", topic: "How bees dance", resolution: "shorts", durationSeconds: 30 } });
    const storyboard = await prisma.storyboard.create({ data: { projectId: project.id, title: "Bees", status: "completed" } });
    await prisma.storyboardCell.createMany({
      data: Array.from({ length: 6 }, (_, cellIndex) => ({
        storyboardId: storyboard.id,
        cellIndex,
        imagePrompt: `A honeybee dancing on a comb, scene ${cellIndex + 1}`,
        voiceoverText: `Scene ${cellIndex + 1}: the bee dances to show where the flowers are.`,
        estimatedDuration: 4,
      })),
    });
    const handle = await temporal.client.workflow.start(generateAllContentWorkflow, {
      taskQueue,
      workflowId: generateAllWorkflowId(project.id),
      args: [{ projectId: project.id, userId: user.id, pauses: { imageBatchMs: 0, voiceoverMs: 0 } }],
    });
    expect(await handle.result()).toMatchObject({ imagesDone: 6, imagesFailed: 0, voiceoversDone: 6, voiceoversFailed: 0 });

    // which worker process took each picture and voiceover (the identities in Generate All's history)
    const events = (await handle.fetchHistory()).events ?? [];
    const scheduled = new Map<string, string>();
    const takenBy: Record<string, string[]> = { generateSceneImage: [], generateSceneVoiceover: [] };
    for (const e of events) {
      const s = e.activityTaskScheduledEventAttributes;
      if (s) {
        scheduled.set(String(e.eventId), s.activityType?.name ?? "");
        if (s.activityType?.name === "generateSceneImage") expect(s.taskQueue?.name).toBe(taskQueueFor(taskQueue, "heavy"));
      }
      const started = e.activityTaskStartedEventAttributes;
      const name = started ? scheduled.get(String(started.scheduledEventId)) : undefined;
      if (started && name && name in takenBy) takenBy[name]!.push(started.identity ?? "");
    }
    console.log(`scene media taken by: ${JSON.stringify(takenBy)}; workers ${workers.map((w) => w.pid).join(", ")}`);
    expect(takenBy.generateSceneImage).toHaveLength(6);
    expect(takenBy.generateSceneVoiceover).toHaveLength(6);
    // the pictures (made five at a time) went to both workers
    for (const worker of workers) {
      expect(
        takenBy.generateSceneImage!.some((identity) => identity.startsWith(identityOf(worker))),
        `worker ${worker.pid} made a picture`,
      ).toBe(true);
    }
    await Promise.all(workers.map(killWorkerProcess));
  });
});
