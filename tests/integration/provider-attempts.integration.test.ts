// One retry owner (decision 200), against the Leonardo fake and a real Temporal server: each activity attempt makes
// one request; a cancelled activity closes its connection; a paid generation is created once and the retry polls it,
// in the same worker or, after the worker is SIGKILLed, in a new one.
import type { ChildProcess } from "node:child_process";
import { Client, Connection, WorkflowFailedError } from "@temporalio/client";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createLeonardoImageProvider } from "~/providers/image/leonardo.server";
import { createOfflineSpeechProvider } from "~/providers/speech/offline.server";
import { createOfflineTextProvider } from "~/providers/text/offline";
import { prisma } from "~/core/db.server";
import { updateConfig } from "~/core/settings.server";
import { createStoryboardActivities } from "../../workflows/activities/storyboard";
import { activityProviderCall } from "../../workflows/activities/providers";
import { sceneImageWorkflow } from "../../workflows/scene-media";
import { FakeLeonardo } from "../fakes/leonardo";
import { createTestUser } from "../support/auth";
import { lastActivityAttempt, startTestWorker } from "../support/temporal";
import { killAllWorkerProcesses, killWorkerProcess, startWorkerProcess } from "../support/worker-process";

const fake = new FakeLeonardo("leo-attempts-key");
/** The in-process worker's request timeout: short, so a slow answer ends an attempt quickly. */
let requestTimeoutMs = 1500;
let worker: Awaited<ReturnType<typeof startTestWorker>>;

const POLLS = /^\/generations\/gen-/;
const CREATES = /^\/generations$/;

beforeAll(async () => {
  await fake.start();
  // the providers as providersForUser makes them, with the activity's own attempt; only the timeout is shorter
  const activities = createStoryboardActivities({
    providersFor: async () => ({
      text: createOfflineTextProvider(),
      speech: createOfflineSpeechProvider(),
      image: createLeonardoImageProvider({
        apiKey: fake.apiKey,
        baseUrl: fake.url,
        policy: { timeoutMs: requestTimeoutMs },
        call: activityProviderCall(),
        pollIntervalMs: 100,
      }),
    }),
  });
  worker = await startTestWorker({ activities: { generateSceneImage: activities.generateSceneImage } });
}, 60_000);
afterAll(async () => {
  await killAllWorkerProcesses();
  await worker?.stop();
  await fake.stop();
  await prisma.$disconnect();
});
beforeEach(() => {
  fake.reset();
  fake.generations.clear();
  fake.pendingPolls = 1;
  requestTimeoutMs = 1500;
});

async function sceneToIllustrate(userId: string) {
  const project = await prisma.project.create({ data: { userId, title: "Lighthouses", topic: "keepers", resolution: "shorts", durationSeconds: 30 } });
  const storyboard = await prisma.storyboard.create({ data: { projectId: project.id, title: "Lighthouses", status: "completed" } });
  await prisma.storyboardCell.create({
    data: { storyboardId: storyboard.id, cellIndex: 0, imagePrompt: "A lighthouse keeper climbing the stairs at dusk", voiceoverText: "The keeper climbs.", estimatedDuration: 4 },
  });
  return { projectId: project.id, userId, cellIndex: 0 };
}

describe("provider calls under Temporal's retries", () => {
  it("a slow answer, then a 500: exactly one request per activity attempt, and the third attempt finishes", async () => {
    const user = await createTestUser();
    const input = await sceneToIllustrate(user.id);
    fake.trouble({ kind: "slow", delayMs: 4000 }, 1, POLLS);
    fake.trouble({ kind: "server-error" }, 1, POLLS);
    const workflowId = `attempts-slow-500-${input.projectId}`;
    const result = await worker.client.workflow.execute(sceneImageWorkflow, { taskQueue: worker.taskQueue, workflowId, args: [input] });
    expect(result.imageUrl).toMatch(/^\/api\/media\//);
    const attempts = await lastActivityAttempt(worker.client, workflowId);
    expect(attempts).toBe(3);
    // one status request per attempt (slow, 500, complete), and the generation was created, and paid for, once
    expect(fake.requestsTo(POLLS)).toHaveLength(attempts);
    expect(fake.requestsTo(CREATES)).toHaveLength(1);
    expect(fake.generations.size).toBe(1);
  });

  it("a paid generation whose first attempt times out is created once and polled by the retry", async () => {
    const user = await createTestUser();
    const input = await sceneToIllustrate(user.id);
    fake.pendingPolls = 2;
    fake.trouble({ kind: "slow", delayMs: 4000 }, 1, POLLS);
    const workflowId = `attempts-paid-timeout-${input.projectId}`;
    await worker.client.workflow.execute(sceneImageWorkflow, { taskQueue: worker.taskQueue, workflowId, args: [input] });
    expect(await lastActivityAttempt(worker.client, workflowId)).toBe(2);
    expect(fake.requestsTo(CREATES)).toHaveLength(1);
    expect(fake.generations.size).toBe(1);
    // the ledger row the retry read: this activity's generation
    const rows = await prisma.providerJob.findMany({ where: { key: { startsWith: `${workflowId}/` } } });
    expect(rows.map((r) => [r.key.split("/").at(-1), r.jobId])).toEqual([["leonardo:generation", "gen-1"]]);
  });

  it("a paid create whose answer is lost is not sent again: the scene fails at once, saying why", async () => {
    const user = await createTestUser();
    const input = await sceneToIllustrate(user.id);
    fake.trouble({ kind: "slow", delayMs: 4000 }, 1, CREATES);
    const workflowId = `attempts-paid-lost-${input.projectId}`;
    const error = await worker.client.workflow.execute(sceneImageWorkflow, { taskQueue: worker.taskQueue, workflowId, args: [input] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkflowFailedError);
    const cause = (error as WorkflowFailedError).cause?.cause as { message?: string; type?: string; nonRetryable?: boolean } | undefined;
    expect(cause?.type).toBe("ProviderUnconfirmedError");
    expect(cause?.message).toMatch(/Leonardo did not answer within 2 s after the request was sent \(1 attempt\).*not paid for twice/);
    expect(await lastActivityAttempt(worker.client, workflowId)).toBe(1);
    expect(fake.requestsTo(CREATES)).toHaveLength(1);
    // the service did make it after all (the creator finds it in their account): one, never a second
    await expect.poll(() => fake.generations.size === 1, { timeout: 10_000, interval: 100, message: "the slow create to land" }).toBe(true);
  });

  it("a cancelled activity closes its connection: the fake sees the request abandoned", async () => {
    requestTimeoutMs = 120_000;
    const user = await createTestUser();
    const input = await sceneToIllustrate(user.id);
    fake.trouble({ kind: "slow", delayMs: 90_000 }, 1, POLLS);
    const handle = await worker.client.workflow.start(sceneImageWorkflow, { taskQueue: worker.taskQueue, workflowId: `attempts-cancel-${input.projectId}`, args: [input] });
    await expect.poll(() => fake.requestsTo(POLLS).length === 1, { timeout: 20_000, interval: 100, message: "the status request" }).toBe(true);
    const cancelledAt = Date.now();
    await handle.cancel();
    // the cancellation reaches the activity with a heartbeat's answer (at most 16 s with a 20 s heartbeat timeout)
    await expect.poll(() => fake.abandoned.length === 1, { timeout: 30_000, interval: 100, message: "the connection to close" }).toBe(true);
    expect(fake.abandoned[0]!.path).toBe("/generations/gen-1");
    expect(Date.now() - cancelledAt).toBeLessThan(30_000);
    await expect(handle.result()).rejects.toThrow();
    expect(fake.requestsTo(POLLS)).toHaveLength(1);
  }, 60_000);
});

describe("a worker SIGKILLed mid-generation", () => {
  it("leaves one generation: the new worker polls the job the killed one created", async () => {
    const taskQueue = `${process.env.TEMPORAL_TASK_QUEUE}-provider-kill`;
    const env = { LEONARDO_BASE_URL: fake.url };
    const user = await createTestUser();
    await updateConfig(user.id, { leonardoApiKey: fake.apiKey });
    const input = await sceneToIllustrate(user.id);
    // the generation stays PENDING while the first worker polls it
    fake.pendingPolls = 1_000_000;
    const connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS! });
    const client = new Client({ connection });
    let first: ChildProcess | undefined;
    try {
      first = await startWorkerProcess("all-stages", { taskQueue, env });
      const handle = await client.workflow.start(sceneImageWorkflow, { taskQueue, workflowId: `attempts-kill-${input.projectId}`, args: [input] });
      await expect.poll(() => fake.requestsTo(POLLS).length >= 1, { timeout: 60_000, interval: 100, message: "the first worker to poll its generation" }).toBe(true);
      await killWorkerProcess(first);
      const createdBefore = fake.requestsTo(CREATES).length;
      expect(createdBefore).toBe(1);
      fake.pendingPolls = 0;
      await startWorkerProcess("all-stages", { taskQueue, env });
      const result = await handle.result();
      expect(result.imageUrl).toMatch(/^\/api\/media\//);
      expect(fake.requestsTo(CREATES)).toHaveLength(1);
      expect(fake.generations.size).toBe(1);
      expect(await lastActivityAttempt(client, handle.workflowId)).toBe(2);
    } finally {
      await connection.close();
    }
  }, 150_000);
});
