// AI video clips per scene (issue 50) through the animate-scenes workflow and its activities, against the local
// fakes of Veo (Gemini API) and Runway: a clip from the scene's picture is made once, converted and shown on the
// scene, its spend recorded from the price table; a retried attempt, a restarted worker and a cancelled request poll
// (or cancel) the same job and never start a second one; a request over the budget is refused with the figures
// before any request reaches a service.
import type { ChildProcess } from "node:child_process";
import sharp from "sharp";
import { Client, Connection, WorkflowFailedError } from "@temporalio/client";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { checkClipBudget, clipSpend, saveClipSettings } from "~/core/clip-budget.server";
import { prisma } from "~/core/db.server";
import { updateConfig } from "~/core/settings.server";
import { saveMedia } from "~/core/storage.server";
import { animateScenesWorkflow } from "../../workflows/ai-clips";
import type { AnimateScenesInput } from "../../workflows/shared/ai-clips";
import { createTestUser } from "../support/auth";
import { lastActivityAttempt, startTestWorker } from "../support/temporal";
import { killAllWorkerProcesses, killWorkerProcess, startWorkerProcess } from "../support/worker-process";
import { probeVideo } from "../fixtures/video-probe";

// the fakes listen, and the app points at them, before the app's environment is first read
const { veo, runway } = await vi.hoisted(async () => (await import("../fakes/ai-clips")).startClipFakes());

let worker: Awaited<ReturnType<typeof startTestWorker>>;

beforeAll(async () => {
  worker = await startTestWorker();
}, 60_000);
afterAll(async () => {
  await killAllWorkerProcesses();
  await worker?.stop();
  await veo.stop();
  await runway.stop();
  await prisma.$disconnect();
});
beforeEach(() => {
  for (const fake of [veo, runway]) {
    fake.reset();
    fake.pendingPolls = 1;
    fake.failWith = undefined;
  }
});

/** A creator with both keys and a 3-scene landscape storyboard whose scenes have pictures (3 s each). */
async function creatorWithScenes() {
  const user = await createTestUser();
  await updateConfig(user.id, { geminiApiKey: veo.apiKey });
  await saveClipSettings(user.id, { runwayApiKey: runway.apiKey });
  const project = await prisma.project.create({ data: { userId: user.id, title: "Tides", topic: "why the sea rises twice a day", resolution: "landscape", durationSeconds: 30 } });
  const storyboard = await prisma.storyboard.create({ data: { projectId: project.id, title: "Tides", status: "completed" } });
  const scenes: [string, string][] = [
    ["The moon over a calm sea at night", "The moon pulls on the ocean."],
    ["Waves climbing a sandy beach", "The water climbs the beach."],
    ["A harbour at low tide, boats resting on mud", "Six hours later, it falls away."],
  ];
  for (const [cellIndex, [imagePrompt, voiceoverText]] of scenes.entries()) {
    const png = await sharp({ create: { width: 1920, height: 1080, channels: 3, background: { r: 20 + cellIndex * 60, g: 60, b: 120 } } }).png().toBuffer();
    const picture = await saveMedia({ userId: user.id, projectId: project.id, kind: "image", data: png, mimeType: "image/png", extension: "png", width: 1920, height: 1080 });
    await prisma.storyboardCell.create({
      data: { storyboardId: storyboard.id, cellIndex, imagePrompt, voiceoverText, estimatedDuration: 3, audioDuration: 3.4, imageUrl: `/api/media/${picture.id}`, imageFileId: picture.id },
    });
  }
  return { user, project };
}

const request = (base: { user: { id: string }; project: { id: string } }, over: Partial<AnimateScenesInput>): AnimateScenesInput => ({
  userId: base.user.id,
  projectId: base.project.id,
  provider: "veo",
  cellIndexes: [0],
  source: "picture",
  pollIntervalMs: 100,
  ...over,
});

describe("AI clips with Veo through the Gemini API", () => {
  it("animates two scenes from their pictures: one operation each, the clips on the scenes, the spend recorded", async () => {
    const base = await creatorWithScenes();
    const result = await worker.client.workflow.execute(animateScenesWorkflow, {
      taskQueue: worker.taskQueue,
      workflowId: `ai-clips-veo-${base.project.id}`,
      args: [request(base, { cellIndexes: [0, 2] })],
    });
    expect(result.failures).toEqual([]);
    // a 3.4 s scene asks Veo 3.1 Fast for its shortest clip that covers it: 4 s at 15 cents a second
    expect(result.clips.map((c) => [c.cellIndex, c.seconds, c.costCents])).toEqual([
      [0, 4, 60],
      [2, 4, 60],
    ]);
    expect(veo.creates).toHaveLength(2);
    const sent = veo.creates[0]!.json() as { instances: { prompt: string; image: { bytesBase64Encoded: string; mimeType: string } }[]; parameters: Record<string, unknown> };
    expect(sent.parameters).toEqual({ aspectRatio: "16:9", durationSeconds: 4 });
    expect(sent.instances[0]!.image.mimeType).toBe("image/png");
    expect(Buffer.from(sent.instances[0]!.image.bytesBase64Encoded, "base64").subarray(1, 4).toString()).toBe("PNG");
    // the prompt carries what the narrator says, so the motion fits the words
    expect(sent.instances[0]!.prompt).toContain("The moon pulls on the ocean.");

    const cells = await prisma.storyboardCell.findMany({ where: { storyboard: { projectId: base.project.id } }, orderBy: { cellIndex: "asc" } });
    expect(cells.map((c) => Boolean(c.clipUrl))).toEqual([true, false, true]);
    expect(cells[0]!.clipDuration).toBeCloseTo(4, 1);
    expect(cells[0]!.imageMadeBy).toBe("Google Veo (Veo 3.1 Fast)");
    // converted as an upload is: the format's size (1920x1080 from the fake's 320x180), no sound
    const clipFile = await prisma.mediaFile.findUniqueOrThrow({ where: { id: cells[0]!.clipFileId! } });
    expect([clipFile.width, clipFile.height]).toEqual([1920, 1080]);

    const spend = await prisma.clipGeneration.findMany({ where: { projectId: base.project.id }, orderBy: { cellIndex: "asc" } });
    expect(spend.map((s) => [s.cellIndex, s.provider, s.model, s.seconds, s.costCents, s.status])).toEqual([
      [0, "veo", "veo-3.1-fast-generate-preview", 4, 60, "succeeded"],
      [2, "veo", "veo-3.1-fast-generate-preview", 4, 60, "succeeded"],
    ]);
    // two clips converted to Full HD: 72 s once on a busy machine
  }, 120_000);

  it("a status check that fails is retried by Temporal, which polls the same operation: created (and paid) once", async () => {
    const base = await creatorWithScenes();
    veo.trouble({ kind: "server-error" }, 1, /\/operations\//);
    const workflowId = `ai-clips-veo-retry-${base.project.id}`;
    await worker.client.workflow.execute(animateScenesWorkflow, { taskQueue: worker.taskQueue, workflowId, args: [request(base, {})] });
    expect(await lastActivityAttempt(worker.client, workflowId)).toBe(2);
    expect(veo.creates).toHaveLength(1);
    expect(veo.operations.size).toBe(1);
    const ledger = await prisma.providerJob.findMany({ where: { key: { startsWith: `${workflowId}/` } } });
    expect(ledger.map((r) => [r.key.split("/").at(-1), r.jobId])).toEqual([["veo:operation", [...veo.operations.keys()][0]]]);
    expect(await prisma.clipGeneration.count({ where: { projectId: base.project.id } })).toBe(1);
  }, 60_000);

  it("an operation that ends in an error fails the scene with the service's reason; it is listed, but not spent", async () => {
    const base = await creatorWithScenes();
    // exactly one 4 s clip's worth of budget: the failed clip must not use it up (decision 270)
    await saveClipSettings(base.user.id, { monthlyBudgetCents: 60, videoCapCents: 60 });
    veo.failWith = "The prompt could not be submitted. It may violate our policies.";
    const result = await worker.client.workflow.execute(animateScenesWorkflow, { taskQueue: worker.taskQueue, workflowId: `ai-clips-veo-fail-${base.project.id}`, args: [request(base, {})] });
    expect(result.clips).toEqual([]);
    expect(result.failures).toEqual([{ cellIndex: 0, message: expect.stringContaining("may violate our policies") }]);
    expect(veo.creates).toHaveLength(1);
    expect(await prisma.clipGeneration.findMany({ where: { projectId: base.project.id }, select: { status: true, costCents: true } })).toEqual([{ status: "failed", costCents: 60 }]);
    expect(await clipSpend(base.user.id, base.project.id)).toEqual({ monthCents: 0, videoCents: 0 });
    await expect(checkClipBudget(base.user.id, base.project.id, 60)).resolves.toBeUndefined();
  }, 60_000);
});

describe("AI clips with Runway", () => {
  it("animates a scene from its picture: a data URI, 1280:720, 5 s (25 cents); a retried status check polls the same task", async () => {
    const base = await creatorWithScenes();
    runway.trouble({ kind: "server-error", status: 502 }, 1, /^\/v1\/tasks\//);
    const workflowId = `ai-clips-runway-${base.project.id}`;
    const result = await worker.client.workflow.execute(animateScenesWorkflow, { taskQueue: worker.taskQueue, workflowId, args: [request(base, { provider: "runway", cellIndexes: [1] })] });
    expect(result.clips.map((c) => [c.cellIndex, c.seconds, c.costCents])).toEqual([[1, 5, 25]]);
    expect(await lastActivityAttempt(worker.client, workflowId)).toBe(2);
    expect(runway.creates).toHaveLength(1);
    const sent = runway.creates[0]!.json() as Record<string, unknown>;
    expect(sent).toMatchObject({ model: "gen4_turbo", ratio: "1280:720", duration: 5 });
    expect(String(sent.promptImage)).toMatch(/^data:image\/png;base64,/);
    expect(runway.creates[0]!.headers["x-runway-version"]).toBe("2024-11-06");
    const cell = await prisma.storyboardCell.findFirstOrThrow({ where: { cellIndex: 1, storyboard: { projectId: base.project.id } } });
    expect(cell.clipDuration).toBeCloseTo(5, 1);
    const clipFile = await prisma.mediaFile.findUniqueOrThrow({ where: { id: cell.clipFileId! } });
    const probed = await probeVideo((await import("~/core/storage.server")).mediaFilePath(clipFile));
    expect(probed.audio).toBeNull();
  }, 60_000);

  it("cannot start from words alone: refused before any request, without retries", async () => {
    const base = await creatorWithScenes();
    const result = await worker.client.workflow.execute(animateScenesWorkflow, { taskQueue: worker.taskQueue, workflowId: `ai-clips-runway-words-${base.project.id}`, args: [request(base, { provider: "runway", source: "words" })] });
    expect(result.failures).toEqual([{ cellIndex: 0, message: expect.stringContaining("starts from the scene's picture") }]);
    expect(runway.requests).toHaveLength(0);
  }, 60_000);

  it("a cancelled request cancels the running task at Runway and starts nothing more", async () => {
    const base = await creatorWithScenes();
    runway.pendingPolls = 1_000_000;
    const handle = await worker.client.workflow.start(animateScenesWorkflow, { taskQueue: worker.taskQueue, workflowId: `ai-clips-runway-cancel-${base.project.id}`, args: [request(base, { provider: "runway", cellIndexes: [0, 1] })] });
    await expect.poll(() => runway.requestsTo(/^\/v1\/tasks\//).length >= 2, { timeout: 20_000, interval: 100, message: "the task to be polled" }).toBe(true);
    await handle.cancel();
    // the cancellation reaches the activity with a heartbeat's answer (at most 24 s with a 30 s heartbeat timeout)
    await expect.poll(() => runway.requests.some((r) => r.method === "DELETE"), { timeout: 40_000, interval: 100, message: "the task to be cancelled" }).toBe(true);
    await expect(handle.result()).rejects.toThrow();
    expect(runway.creates).toHaveLength(1);
    expect([...runway.tasks.values()].map((t) => t.cancelled)).toEqual([true]);
  }, 60_000);
});

describe("cost before spending", () => {
  it("a request over the monthly budget is refused with the figures, and no request reaches the service", async () => {
    const base = await creatorWithScenes();
    await saveClipSettings(base.user.id, { monthlyBudgetCents: 100 });
    const error = await worker.client.workflow
      .execute(animateScenesWorkflow, { taskQueue: worker.taskQueue, workflowId: `ai-clips-budget-${base.project.id}`, args: [request(base, { cellIndexes: [0, 1, 2] })] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkflowFailedError);
    const cause = (error as WorkflowFailedError).cause?.cause as { type?: string; message?: string } | undefined;
    expect(cause?.type).toBe("ClipBudgetRefused");
    // 3 scenes x 4 s x 15 cents
    expect(cause?.message).toContain("would cost $1.80, and $1.00 is left of your monthly AI clip budget of $1.00");
    expect(veo.requests).toHaveLength(0);
    expect(await prisma.clipGeneration.count({ where: { userId: base.user.id } })).toBe(0);
  }, 30_000);

  it("the cap per video counts what the video already spent", async () => {
    const base = await creatorWithScenes();
    await saveClipSettings(base.user.id, { videoCapCents: 100 });
    // an earlier clip of this video, and one of another video this month (which the cap per video does not count)
    await prisma.clipGeneration.create({ data: { userId: base.user.id, projectId: base.project.id, cellIndex: 0, provider: "veo", model: "veo-3.1-fast-generate-preview", jobId: `earlier-${base.project.id}`, seconds: 4, costCents: 60, source: "picture", status: "succeeded" } });
    await prisma.clipGeneration.create({ data: { userId: base.user.id, projectId: "another-video", cellIndex: 0, provider: "runway", model: "gen4_turbo", jobId: `other-${base.project.id}`, seconds: 10, costCents: 50, source: "picture", status: "succeeded" } });
    const error = await worker.client.workflow
      .execute(animateScenesWorkflow, { taskQueue: worker.taskQueue, workflowId: `ai-clips-cap-2-${base.project.id}`, args: [request(base, { cellIndexes: [1] })] })
      .catch((e: unknown) => e);
    const cause = (error as WorkflowFailedError).cause?.cause as { message?: string } | undefined;
    expect(cause?.message).toContain("would cost $0.60, and $0.40 is left of the $1.00 cap per video ($0.60 spent on this video)");
    expect(veo.requests).toHaveLength(0);
  }, 30_000);
});

describe("a worker SIGKILLed mid-generation", () => {
  it("leaves one operation: the new worker polls the one the killed worker started, and the clip is made", async () => {
    const taskQueue = `${process.env.TEMPORAL_TASK_QUEUE}-ai-clip-kill`;
    const env = { GEMINI_BASE_URL: veo.url, RUNWAY_BASE_URL: runway.url };
    const base = await creatorWithScenes();
    veo.pendingPolls = 1_000_000;
    const connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS! });
    const client = new Client({ connection });
    let first: ChildProcess | undefined;
    try {
      first = await startWorkerProcess("all-stages", { taskQueue, env });
      const handle = await client.workflow.start(animateScenesWorkflow, { taskQueue, workflowId: `ai-clips-kill-${base.project.id}`, args: [request(base, { pollIntervalMs: 200 })] });
      await expect.poll(() => veo.requestsTo(/\/operations\//).length >= 1, { timeout: 60_000, interval: 100, message: "the first worker to poll its operation" }).toBe(true);
      await killWorkerProcess(first);
      expect(veo.creates).toHaveLength(1);
      veo.pendingPolls = 0;
      await startWorkerProcess("all-stages", { taskQueue, env });
      const result = await handle.result();
      expect(result.clips).toHaveLength(1);
      expect(veo.creates).toHaveLength(1);
      expect(veo.operations.size).toBe(1);
      expect(await prisma.clipGeneration.count({ where: { projectId: base.project.id } })).toBe(1);
    } finally {
      await connection.close();
    }
  }, 150_000);
});
