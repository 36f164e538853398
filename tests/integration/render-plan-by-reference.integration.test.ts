// A 240-scene render plan with word timings goes to every activity of a chunked render by reference (decision 140).
// Given whole, a 60-minute video's plan (about half a megabyte) went to each of its chunks and to the sound in one
// workflow task, larger than gRPC's 4 MB: the task failed with "GRPC Message too large" over and over and the render
// sat at "Preparing" for good (bench:long, 27 November). Here the real workflow, plan and chunk planning on the test
// Temporal server, with a plan of the same weight (240 scenes, 60 timed words each) cut into chunks of at most 10 s;
// the chunk, sound and join activities only record what they were given, so the test measures the hand-over.
import { vi } from "vitest";

vi.hoisted(() => {
  process.env.RENDER_CHUNK_MAX_SECONDS = "10";
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/core/db.server";
import { loadRenderPlan } from "../../workflows/activities/render";
import type { MixedSound } from "../../workflows/activities/render-chunked";
import type { RenderChunk } from "../../workflows/engine/render-chunks";
import { renderVideoWorkflow } from "../../workflows/render";
import { renderProgressQuery, renderWorkflowId, type RenderPlanInput } from "../../workflows/shared/render";
import { seedRenderableProject } from "../fixtures/render-project";
import { startTestWorker } from "../support/temporal";

const SCENES = 240;
const WORDS = 60;
const handedOver: { activity: string; bytes: number; scenes: number; words: number }[] = [];

async function record(activity: string, input: { plan: RenderPlanInput }) {
  const plan = await loadRenderPlan(input.plan);
  handedOver.push({ activity, bytes: JSON.stringify(input).length, scenes: plan.scenes.length, words: plan.scenes.reduce((sum, s) => sum + (s.words?.words.length ?? 0), 0) });
}

const recording = {
  renderVideoChunk: async (input: { plan: RenderPlanInput; chunk: RenderChunk }) => {
    await record("renderVideoChunk", input);
    return { chunk: input.chunk.index, mediaFileId: `part-${input.chunk.index}`, frames: input.chunk.frames };
  },
  mixRenderSound: async (input: { plan: RenderPlanInput }) => {
    await record("mixRenderSound", input);
    return { mediaFileId: "sound", music: null } satisfies MixedSound;
  },
  normaliseRenderSound: async (input: { plan: RenderPlanInput; sound: MixedSound }) => {
    await record("normaliseRenderSound", input);
    return input.sound;
  },
  joinRenderChunks: async (input: { plan: RenderPlanInput; chunks: string[] }) => {
    await record("joinRenderChunks", input);
    return { mediaFileId: "video", videoUrl: "/api/media/video", durationSeconds: 0, width: 320, height: 180 };
  },
};

let testWorker: Awaited<ReturnType<typeof startTestWorker>>;
beforeAll(async () => {
  testWorker = await startTestWorker({ stage: "render", activities: recording });
});
afterAll(async () => {
  await testWorker?.stop();
  await prisma.$disconnect();
});

describe("a 240-scene render plan", () => {
  it("reaches every chunk, the sound and the join by reference, whole, however many chunks there are", { timeout: 300_000 }, async () => {
    const user = await prisma.user.create({ data: { email: `plan-by-reference-${Date.now()}@example.com` } });
    const { projectId } = await seedRenderableProject({ userId: user.id, sceneSeconds: Array.from({ length: SCENES }, () => 0.5) });
    // each scene's voiceover with 60 timed words, as a provider's timings are stored: the weight of a real long plan
    const cells = await prisma.storyboardCell.findMany({ where: { storyboard: { projectId } }, select: { id: true } });
    for (const cell of cells) {
      const words = Array.from({ length: WORDS }, (_, w) => ({ text: `honeybee${w}`, start: (w * 0.5) / WORDS, end: ((w + 1) * 0.5) / WORDS }));
      await prisma.storyboardCell.update({ where: { id: cell.id }, data: { wordTimings: { source: "provider", audioSeconds: 0.5, words } } });
    }
    const render = await prisma.renderedVideo.create({ data: { projectId, status: "processing", workflowId: renderWorkflowId(projectId) } });
    const handle = await testWorker.client.workflow.start(renderVideoWorkflow, {
      taskQueue: process.env.TEMPORAL_TASK_QUEUE!,
      workflowId: renderWorkflowId(projectId),
      args: [{ renderId: render.id, userId: user.id, projectId, width: 320, height: 180, captions: true }],
      // a plan too large for gRPC retried its workflow task for ever: this ends such a run inside the test's time
      // (2 minutes was too short beside the other lane: CI-like run of ba6cc60, preparing the plan alone took 39 s then)
      workflowExecutionTimeout: "4 minutes",
    });
    await handle.result();
    expect((await handle.query(renderProgressQuery)).status).toBe("completed");

    const chunks = handedOver.filter((h) => h.activity === "renderVideoChunk");
    expect(chunks.length).toBeGreaterThanOrEqual(12);
    expect(handedOver.map((h) => h.activity)).toEqual(expect.arrayContaining(["mixRenderSound", "normaliseRenderSound", "joinRenderChunks"]));
    for (const h of handedOver) {
      // every activity read the whole plan: all scenes, every word
      expect(h).toMatchObject({ scenes: SCENES, words: SCENES * WORDS });
      // ...and was handed only a reference to it
      expect(h.bytes, h.activity).toBeLessThan(4096);
    }
    // what the workflow's history holds stays small: no event near the plan's own size
    const events = (await handle.fetchHistory()).events ?? [];
    const largest = Math.max(...events.map((e) => JSON.stringify(e).length));
    const stored = await prisma.renderPlan.findUniqueOrThrow({ where: { renderId: render.id } });
    expect(JSON.stringify(stored.scenes).length).toBeGreaterThan(500_000);
    expect(largest).toBeLessThan(20_000);
  });
});
