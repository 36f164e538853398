import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/core/db.server";
import { countWords, planChunks, targetWordsFor } from "~/lib/script";
import { createScriptActivities } from "../../workflows/activities/script";
import { scriptWorkflow } from "../../workflows/script";
import { scriptProgressQuery, type ScriptPhase } from "../../workflows/shared/script";
import { planNarration, TYPICAL_CLOUD_WORDS_PER_SECOND } from "~/lib/narration";
import { sceneCountFor } from "~/lib/storyboard";
import { scriptedTextProvider, scriptedVoice } from "../support/scripted-text-provider";
import { startTestWorker } from "../support/temporal";
import { killAllWorkerProcesses, killWorkerProcess, startWorkerProcess } from "../support/worker-process";

/** The words a landscape video of this length is planned at with a cloud voice (the scripted one). */
const plannedWords = (durationSeconds: number) =>
  planNarration({ durationSeconds, sceneCount: sceneCountFor("16:9", durationSeconds), wordsPerSecond: TYPICAL_CLOUD_WORDS_PER_SECOND }).targetWords;

async function createProject(durationSeconds: number) {
  const user = await prisma.user.create({ data: { email: `writer-${Math.random().toString(36).slice(2)}@example.com` } });
  const project = await prisma.project.create({
    data: { userId: user.id, title: "Tides of the World", topic: "Why oceans rise and fall twice a day", resolution: "landscape", durationSeconds },
  });
  return { user, project, input: { projectId: project.id, userId: user.id, title: project.title, topic: project.topic, durationSeconds } };
}

afterAll(async () => {
  await prisma.$disconnect();
});

describe("script workflow on a real Temporal server", () => {
  let testWorker: Awaited<ReturnType<typeof startTestWorker>>;
  const flaky = scriptedTextProvider({ failFirstChunkCalls: 2 });
  const slowShort = scriptedTextProvider({ delayMs: 150, shortChunkRatio: 0.5 });
  const providers = new Map<string, typeof flaky.provider>();

  beforeAll(async () => {
    // One worker; each test's user picks its provider.
    testWorker = await startTestWorker({
      activities: createScriptActivities({ textProviderFor: async (userId) => providers.get(userId)!, speechProviderFor: async () => scriptedVoice }),
    });
  });
  afterAll(async () => {
    await testWorker?.stop();
  });

  it("advances through the phases in order and saves a script of the target length", async () => {
    const { user, project, input } = await createProject(300);
    providers.set(user.id, slowShort.provider);
    const handle = await testWorker.client.workflow.start(scriptWorkflow, {
      taskQueue: testWorker.taskQueue,
      workflowId: `script-${project.id}`,
      args: [input],
    });
    const seen: ScriptPhase[] = [];
    const percents: number[] = [];
    const done = handle.result();
    let finished = false;
    done.finally(() => (finished = true)).catch(() => {});
    while (!finished) {
      const progress = await handle.query(scriptProgressQuery).catch(() => null);
      if (progress) {
        if (seen.at(-1) !== progress.phase) seen.push(progress.phase);
        percents.push(progress.percentComplete);
        if (progress.phase !== "initializing") {
          expect(progress.targetWords).toBe(plannedWords(300));
          expect(progress.totalChunks).toBe(planChunks(plannedWords(300)).length);
        }
      }
      await new Promise((r) => setTimeout(r, 40));
    }
    const { wordCount } = await done;

    expect(seen).toContain("generating_chunks");
    expect(seen).toContain("expanding_chunks");
    const order: ScriptPhase[] = ["initializing", "generating_chunks", "expanding_chunks", "proofreading"];
    expect(seen.map((p) => order.indexOf(p))).toEqual([...seen.map((p) => order.indexOf(p))].sort((a, b) => a - b));
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(slowShort.calls.expandScriptChunk).toBeGreaterThan(0);

    const script = await prisma.script.findUniqueOrThrow({ where: { projectId: project.id } });
    expect(script.status).toBe("completed");
    expect(script.wordCount).toBe(wordCount);
    expect(countWords(script.text!)).toBe(wordCount);
    expect(Math.abs(wordCount - plannedWords(300)) / plannedWords(300)).toBeLessThan(0.1);
  });

  it("still yields a script when the provider fails twice and then succeeds", async () => {
    const { user, project, input } = await createProject(60);
    providers.set(user.id, flaky.provider);
    const result = await testWorker.client.workflow.execute(scriptWorkflow, {
      taskQueue: testWorker.taskQueue,
      workflowId: `script-${project.id}`,
      args: [input],
    });
    expect(flaky.calls.failures).toBe(2);
    const script = await prisma.script.findUniqueOrThrow({ where: { projectId: project.id } });
    expect(script.status).toBe("completed");
    expect(script.wordCount).toBe(result.wordCount);
    expect(result.wordCount).toBeGreaterThanOrEqual(targetWordsFor(60) * 0.9);
  });

  it("records a provider that rejects the request for good as the script's error, without retrying", async () => {
    const { user, project, input } = await createProject(60);
    let calls = 0;
    providers.set(user.id, {
      ...flaky.provider,
      async writeScriptChunk() {
        calls++;
        throw Object.assign(new Error("Gemini rejected the API key"), { retryable: false, name: "ProviderAuthError" });
      },
    });
    await expect(
      testWorker.client.workflow.execute(scriptWorkflow, { taskQueue: testWorker.taskQueue, workflowId: `script-${project.id}`, args: [input] }),
    ).rejects.toThrow();
    expect(calls).toBe(1);
    const script = await prisma.script.findUniqueOrThrow({ where: { projectId: project.id } });
    expect(script.status).toBe("error");
    expect(script.error).toBe("Gemini rejected the API key");
    const logged = await prisma.errorLog.findFirst({ where: { userId: user.id } });
    expect(logged?.message).toBe("Gemini rejected the API key");
  });
});

describe("a worker killed in the middle of generation", () => {
  const taskQueue = `${process.env.TEMPORAL_TASK_QUEUE}-kill`;
  const startSlowWorker = () => startWorkerProcess("slow-script", { taskQueue, env: { SCRIPTED_DELAY_MS: "400" } });

  afterAll(killAllWorkerProcesses);

  it("finishes the same workflow after a new worker starts, with no chunk lost or duplicated", async () => {
    const { project, input } = await createProject(600); // 1,655 words: 4 chunks
    const { Client, Connection } = await import("@temporalio/client");
    const connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS! });
    const client = new Client({ connection });
    try {
      const first = await startSlowWorker();
      const handle = await client.workflow.start(scriptWorkflow, { taskQueue, workflowId: `script-${project.id}`, args: [input] });
      // Wait until the second chunk is being written, then kill the worker without warning.
      for (;;) {
        const progress = await handle.query(scriptProgressQuery).catch(() => null);
        if (progress && progress.currentChunk >= 2) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await killWorkerProcess(first);

      await startSlowWorker();
      const { wordCount } = await handle.result();

      const script = await prisma.script.findUniqueOrThrow({ where: { projectId: project.id } });
      expect(script.status).toBe("completed");
      expect(wordCount).toBe(plannedWords(600));
      // every chunk's words are there exactly once, in order
      const chunkMarks = [...script.text!.matchAll(/\bchunk(\d+)s0\b/g)].map((m) => Number(m[1]));
      expect(chunkMarks).toEqual([0, 1, 2, 3]);
      const history = await handle.fetchHistory();
      const completedChunks = (history.events ?? []).filter(
        (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === "writeScriptChunk",
      );
      expect(completedChunks).toHaveLength(4);
    } finally {
      await connection.close();
    }
  });
});
