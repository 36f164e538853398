// Batches (issue 32, decision 164) through the generated /api/v1 client with a token: a CSV of 10 rows becomes
// 10 finished videos on this machine's worker, never more than the batch's concurrency (2) at once, shown row by
// row; a second batch while one runs is refused; another user's batch is a 404; a bad row is named before
// anything starts.
import type { Client } from "@temporalio/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiToken } from "~/server/api-tokens.server";
import { prisma } from "~/core/db.server";
import { videoBatchWorkflowId, type VideoBatchProgress } from "../../workflows/shared/video-batch";
import { apiV1Client, openApiValidator } from "../support/api-v1-client";
import { createTestUser } from "../support/auth";
import { startTestWorker } from "../support/temporal";

let stopWorker: () => Promise<void>;
let temporal: Client;

beforeAll(async () => {
  const worker = await startTestWorker();
  stopWorker = worker.stop;
  temporal = worker.client;
});
afterAll(async () => {
  await stopWorker?.();
  await prisma.$disconnect();
});

const TOPICS = ["bees", "owls", "the moon", "tides", "volcanoes", "rainbows", "octopuses", "glaciers", "comets", "coral"];

describe("a batch of 10 rows", () => {
  it("finishes with 10 videos, at most 2 at once, each row's stage shown; one batch at a time; 404 for another user", async () => {
    const owner = await createTestUser();
    const api = await apiV1Client((await createApiToken(owner.id, { name: "batch", scope: "full", expiresInDays: 7 })).token);
    const { check } = await openApiValidator();

    const bad = await api.POST("/api/v1/batches", { body: { csv: "title,topic,format,duration\nA,a,9:16,5\nB,b,9:16,1" } });
    expect(bad.response.status).toBe(400);
    expect(bad.error).toMatchObject({ field: "rows.1.duration", detail: expect.stringMatching(/^Row 2: duration must be between 5 and 180/) });
    expect(await prisma.videoRun.count({ where: { userId: owner.id } })).toBe(0);

    const csv = ["title,topic,format,duration,quality,captions", ...TOPICS.map((t, i) => `Fact ${i + 1},A short fact about ${t},9:16,5,720,${i % 2 === 0}`)].join("\n");
    const created = await api.POST("/api/v1/batches", { body: { csv, concurrency: 2, name: "Ten facts" } });
    expect(created.response.status).toBe(201);
    check("POST", "/api/v1/batches", 201, created.data);
    const batch = created.data!;
    expect(batch.counts.total).toBe(10);
    expect(batch.rows.map((r) => r.batchRow)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);

    const second = await api.POST("/api/v1/batches", { body: { rows: [{ title: "One more", topic: "x", format: "9:16", duration: 5 }] } });
    expect(second.response.status).toBe(409);

    const stranger = await apiV1Client((await createApiToken((await createTestUser()).id, { name: "other", scope: "full", expiresInDays: 7 })).token);
    expect((await stranger.GET("/api/v1/batches/{id}", { params: { path: { id: batch.id } } })).response.status).toBe(404);
    expect((await stranger.POST("/api/v1/batches/{id}/retry", { params: { path: { id: batch.id } } })).response.status).toBe(404);

    let view = batch;
    let mostRunning = 0;
    const deadline = Date.now() + 25 * 60_000;
    while (view.running && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 2000));
      const read = await api.GET("/api/v1/batches/{id}", { params: { path: { id: batch.id } } });
      check("GET", "/api/v1/batches/{id}", 200, read.data);
      view = read.data!;
      mostRunning = Math.max(mostRunning, view.counts.running);
    }
    expect(view.rows.filter((r) => r.status !== "completed").map((r) => `${r.batchRow}: ${r.error}`)).toEqual([]);
    expect(view.counts).toMatchObject({ total: 10, completed: 10, failed: 0 });
    expect(view.rows.every((r) => r.links.video === `/api/v1/videos/${r.id}/video`)).toBe(true);
    expect(mostRunning).toBeLessThanOrEqual(2);

    // the workflow's own count of children at once, and the rows' times: the limit held
    const progress = (await temporal.workflow.getHandle(videoBatchWorkflowId(batch.id)).result()) as VideoBatchProgress;
    expect(progress).toMatchObject({ total: 10, completed: 10, failed: 0, maxConcurrent: 2 });
    const runs = await prisma.videoRun.findMany({ where: { batchId: batch.id }, select: { startedAt: true, completedAt: true } });
    const overlap = runs.map((r) => runs.filter((o) => o.startedAt! <= r.startedAt! && o.completedAt! > r.startedAt!).length);
    expect(Math.max(...overlap)).toBe(2);
    console.log(`batch of 10: all completed, most at once ${progress.maxConcurrent}, ${Math.round((Math.max(...runs.map((r) => r.completedAt!.getTime())) - Math.min(...runs.map((r) => r.startedAt!.getTime()))) / 1000)} s`);

    // the creator's current project was left alone, and nothing failed to retry
    expect((await prisma.user.findUniqueOrThrow({ where: { id: owner.id } })).currentProjectId).toBeNull();
    expect((await api.POST("/api/v1/batches/{id}/retry", { params: { path: { id: batch.id } } })).response.status).toBe(409);
    const list = await api.GET("/api/v1/batches");
    check("GET", "/api/v1/batches", 200, list.data);
    expect(list.data!.batches.map((b) => b.id)).toEqual([batch.id]);
  }, 1_800_000);
});
