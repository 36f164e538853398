// A long video on a single worker is rendered in chunks one after another (issue 38): a one-piece render's memory
// grows with its scenes, so a render longer than RENDER_CHUNK_MAX_SECONDS is cut into chunks no longer than that
// even when one worker polls the render queue, and that worker's one render slot takes them in turn. Here a 30 s
// video with chunks of at most 10 s, on one worker process with one slot: three chunks, never two at once, the progress adding
// up and never moving back, the joined video whole (every frame, its sound as long), and the plan's scenes read from
// the database by each activity rather than carried in the workflow's history. And with two slots (the default on two
// cores, decision 266) the same video, never cut for length, is cut in two and both chunks render at once.
import { afterAll, describe, expect, it } from "vitest";
import { prisma } from "~/core/db.server";
import { renderProgressQuery } from "../../workflows/shared/render";
import { chunkProgressSignals, framesOf, startSeededRender, storedVideoFacts, THIRTY_SECONDS_OF_SCENES } from "../support/render-runs";
import { killWorkerProcess, startWorkerProcess, workerProcessClient } from "../support/worker-process";

const temporal = workerProcessClient();
afterAll(async () => {
  await prisma.$disconnect();
});

const FRAMES = framesOf(THIRTY_SECONDS_OF_SCENES);
const SIZE = { width: 320, height: 180 };

describe("a long render on one worker", () => {
  it("is cut into chunks no longer than the bound, rendered one after another and joined whole", { timeout: 300_000 }, async () => {
    const taskQueue = `${process.env.TEMPORAL_TASK_QUEUE!}-one`;
    const worker = await startWorkerProcess("render", { taskQueue, env: { RENDER_CHUNK_MAX_SECONDS: "10", WORKER_RENDERS: "1" } });
    try {
      const { user, projectId, render, handle } = await startSeededRender(temporal.client, { taskQueue, label: "one-worker", size: SIZE });
      const result = await handle.result();
      expect((await prisma.renderedVideo.findUniqueOrThrow({ where: { id: render.id } })).status).toBe("completed");
      expect((await handle.query(renderProgressQuery)).progress).toBe(100);

      // the chunks' progress, in the order the workflow heard it
      const signals = await chunkProgressSignals(handle);
      const chunks = [...new Set(signals.map((s) => s.chunk))].sort();
      expect(chunks).toEqual([0, 1, 2]);
      // one after another: once a chunk has moved, it finishes before the next one moves
      const moving = signals.filter((s) => s.frames > 0).map((s) => s.chunk);
      const runs = moving.filter((chunk, i) => i === 0 || moving[i - 1] !== chunk);
      expect(runs.sort()).toEqual([0, 1, 2]);
      // the render's one number adds the chunks up and never moves back
      const latest = new Map<number, number>();
      let before = 0;
      for (const s of signals) {
        latest.set(s.chunk, s.frames);
        const done = [...latest.values()].reduce((a, b) => a + b, 0);
        expect(done).toBeGreaterThanOrEqual(before);
        before = done;
      }
      expect(before).toBe(FRAMES);

      // the plan travels by reference (decision 140): the scenes wait in the RenderPlan table, and no activity's
      // input holds them (a 60-minute plan given whole to every chunk made a workflow task larger than gRPC's 4 MB)
      const inputs = ((await handle.fetchHistory()).events ?? []).flatMap((e) => {
        const a = e.activityTaskScheduledEventAttributes;
        return a ? [{ type: a.activityType!.name!, input: Buffer.from(a.input!.payloads![0]!.data!).toString() }] : [];
      });
      expect(inputs.map((i) => i.type)).toContain("renderVideoChunk");
      for (const { type, input } of inputs) {
        expect(input, type).not.toContain('"scenes"');
        expect(input.length, type).toBeLessThan(4096);
      }
      expect(inputs.filter((i) => i.type === "renderVideoChunk").every((i) => i.input.includes('"sceneCount":6'))).toBe(true);
      const stored = await prisma.renderPlan.findUniqueOrThrow({ where: { renderId: render.id } });
      expect((stored.scenes as unknown[]).length).toBe(6);

      const facts = await storedVideoFacts(user.id, result.mediaFileId);
      expect(facts.video).toMatchObject({ codec: "h264", ...SIZE, frames: FRAMES });
      expect(Math.abs(facts.audio!.durationSeconds - FRAMES / 30)).toBeLessThanOrEqual(1 / 30);
      // the sound was deleted after the join; the three chunks are kept for the project's next render (decision 260)
      expect(await prisma.mediaFile.count({ where: { projectId, kind: "video", renderChunkPart: { is: null } } })).toBe(1);
      expect(await prisma.renderChunkPart.count({ where: { projectId } })).toBe(3);
    } finally {
      await killWorkerProcess(worker);
    }
  });

  it("with two render slots (the default on two cores, decision 266), a lone video is cut in two and both chunks render at once", { timeout: 300_000 }, async () => {
    const taskQueue = `${process.env.TEMPORAL_TASK_QUEUE!}-two-slots`;
    const worker = await startWorkerProcess("render", { taskQueue, env: { RENDER_CHUNK_MAX_SECONDS: "0", RENDER_CHUNKED_MIN_SECONDS: "20", WORKER_RENDERS: "2" } });
    try {
      const { user, handle } = await startSeededRender(temporal.client, { taskQueue, label: "two-slots", size: SIZE });
      const result = await handle.result();
      const events = (await handle.fetchHistory()).events ?? [];
      expect(events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === "renderVideoChunk")).toHaveLength(2);
      // both chunks at once: each chunk's signals span from its first (its start) to its last (its end), and the two
      // spans overlap (one after the other, the second would begin after the first ended)
      const spans = new Map<number, { from: number; to: number }>();
      for (const { chunk, at } of await chunkProgressSignals(handle)) spans.set(chunk, { from: spans.get(chunk)?.from ?? at, to: at });
      expect([...spans.keys()].sort()).toEqual([0, 1]);
      const [a, b] = [spans.get(0)!, spans.get(1)!];
      expect(Math.max(a.from, b.from)).toBeLessThan(Math.min(a.to, b.to));

      const facts = await storedVideoFacts(user.id, result.mediaFileId);
      expect(facts.video).toMatchObject({ codec: "h264", ...SIZE, frames: FRAMES });
      expect(Math.abs(facts.audio!.durationSeconds - FRAMES / 30)).toBeLessThanOrEqual(1 / 30);
    } finally {
      await killWorkerProcess(worker);
    }
  });
});
