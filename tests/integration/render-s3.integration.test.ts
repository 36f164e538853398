// A render with media in a bucket (STORAGE=s3 on the real versitygw), by a worker in a process of its own that
// shares no folder with the test (its own DATA_DIR and scratch folder): it copies the scene files it needs into
// its scratch folder, renders, and stores the MP4 in the bucket, where it plays (ffprobe: length, an audio stream).
// Deleting the project leaves nothing of it in the bucket. The exact renderer (Chromium through the render's
// asset server) works from the scratch copies too.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { storeMediaInTestBucket } from "../support/object-store";

const bucket = await storeMediaInTestBucket();
const mine = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-s3-web-"));
process.env.SCRATCH_DIR = path.join(mine, "scratch");
const { prisma } = await import("~/core/db.server");
const { findMediaForUser, mediaRoot, withLocalMediaCopy } = await import("~/core/storage.server");
const { deleteProject } = await import("~/server/project-deletion.server");
const { sceneDurationInFrames, VIDEO_FPS } = await import("../../app/lib/timeline/timing");
const { renderVideoWorkflow } = await import("../../workflows/render");
const { renderWorkflowId } = await import("../../workflows/shared/render");
const { seedRenderableProject } = await import("../fixtures/render-project");
const { probeVideo } = await import("../fixtures/video-probe");
const { startWorkerProcess, workerProcessClient } = await import("../support/worker-process");

const temporal = workerProcessClient();
const theirs = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-s3-worker-"));

afterAll(async () => {
  await prisma.$disconnect();
  fs.rmSync(mine, { recursive: true, force: true });
  fs.rmSync(theirs, { recursive: true, force: true });
});

describe("render with media in a bucket", () => {
  it("a worker with its own folders renders from the bucket into the bucket; deleting the project empties it", { timeout: 420_000 }, async () => {
    const user = await prisma.user.create({ data: { email: "bucket-render@example.com" } });
    const sceneSeconds = [1.5, 1.5];
    const { projectId } = await seedRenderableProject({ userId: user.id, sceneSeconds, musicSeconds: 2, musicVolume: 40 });
    const seeded = await bucket.keys();
    expect(seeded).toHaveLength(5); // 2 images, 2 voiceovers, music: all in the bucket
    const render = await prisma.renderedVideo.create({ data: { projectId, status: "processing", workflowId: renderWorkflowId(projectId) } });

    const workerScratch = path.join(theirs, "scratch");
    await startWorkerProcess("render", {
      taskQueue: process.env.TEMPORAL_TASK_QUEUE!,
      env: { DATA_DIR: path.join(theirs, "data"), SCRATCH_DIR: workerScratch },
    });
    const result = await temporal.client.workflow.execute(renderVideoWorkflow, {
      taskQueue: process.env.TEMPORAL_TASK_QUEUE!,
      workflowId: renderWorkflowId(projectId),
      args: [{ renderId: render.id, userId: user.id, projectId, width: 640, height: 360, captions: true }],
    });

    // the worker read the scene files through its own scratch folder, and wrote nothing to a media folder
    const copies = fs.readdirSync(workerScratch, { recursive: true }).map(String);
    expect(copies.some((f) => f.endsWith(".wav")), copies.join(", ")).toBe(true);
    for (const dir of [mediaRoot(), path.join(theirs, "data", "media")]) expect(fs.existsSync(dir), dir).toBe(false);

    const file = await findMediaForUser(user.id, result.mediaFileId);
    expect(file).toMatchObject({ kind: "video", mimeType: "video/mp4" });
    expect(await bucket.keys()).toContain(file!.storageKey);
    const expectedSeconds = sceneSeconds.reduce((sum, s) => sum + sceneDurationInFrames(s), 0) / VIDEO_FPS;
    const facts = await withLocalMediaCopy(file!, probeVideo);
    expect(Math.abs(facts.video.durationSeconds - expectedSeconds)).toBeLessThanOrEqual(1 / VIDEO_FPS);
    expect(facts.video).toMatchObject({ codec: "h264", width: 640, height: 360 });
    expect(facts.audio?.codec).toBe("aac");
    expect(Math.abs(facts.audio!.durationSeconds - expectedSeconds)).toBeLessThan(0.1);

    // the test's own copy went through its scratch folder, not the worker's
    expect(fs.readdirSync(process.env.SCRATCH_DIR!, { recursive: true }).map(String).some((f) => f.endsWith(".mp4"))).toBe(true);

    // the bucket holds exactly the files the database names
    const named = (await prisma.mediaFile.findMany({ select: { storageKey: true } })).map((f) => f.storageKey).sort();
    expect((await bucket.keys()).sort()).toEqual(named);

    await deleteProject(user.id, projectId);
    expect(await bucket.keys()).toEqual([]);
  });

  it("the exact renderer's browser gets the scene files from the worker's scratch copies", { timeout: 420_000 }, async () => {
    const user = await prisma.user.create({ data: { email: "bucket-exact@example.com" } });
    const sceneSeconds = [1, 1];
    const { projectId } = await seedRenderableProject({ userId: user.id, sceneSeconds });
    const render = await prisma.renderedVideo.create({ data: { projectId, status: "processing", workflowId: renderWorkflowId(projectId) } });
    const taskQueue = `${process.env.TEMPORAL_TASK_QUEUE!}-exact`;
    await startWorkerProcess("render", { taskQueue, env: { DATA_DIR: path.join(theirs, "exact-data"), SCRATCH_DIR: path.join(theirs, "exact-scratch"), RENDER_ENGINE: "exact" } });
    const result = await temporal.client.workflow.execute(renderVideoWorkflow, {
      taskQueue,
      workflowId: renderWorkflowId(projectId),
      args: [{ renderId: render.id, userId: user.id, projectId, width: 320, height: 180, captions: false }],
    });
    expect((await prisma.renderedVideo.findUniqueOrThrow({ where: { id: render.id } })).renderer).toBe("exact");
    const file = await findMediaForUser(user.id, result.mediaFileId);
    const facts = await withLocalMediaCopy(file!, probeVideo);
    const expectedSeconds = sceneSeconds.reduce((sum, s) => sum + sceneDurationInFrames(s), 0) / VIDEO_FPS;
    expect(Math.abs(facts.video.durationSeconds - expectedSeconds)).toBeLessThanOrEqual(1 / VIDEO_FPS);
    expect(facts.audio?.codec).toBe("aac");
    expect(await bucket.keys()).toContain(file!.storageKey);
  });
});
