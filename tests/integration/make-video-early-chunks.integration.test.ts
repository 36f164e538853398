// Issue 53: "a render chunk starts as soon as its scenes' pictures and voiceovers exist" (decision 261). A make-video
// run on the real worker with the offline providers, chunks kept for reuse of 3 s (RENDER_REUSE_CHUNK_SECONDS), the
// voiceovers made a second apart: the render's first chunk is drawn while the later scenes' voiceovers are still
// being made (drawn by a look that found only some scenes ready), and the render, once every scene is ready, takes
// it as drawn and draws only the rest. The video is still whole: as long as its scenes, with sound.
import type { Client } from "@temporalio/client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { prisma } from "~/core/db.server";
import { findMediaForUser, withLocalMediaCopy } from "~/core/storage.server";
import { MakeVideoOptionsSchema, startMakeVideo } from "~/server/make-video.server";
import { makeVideoProgressQuery, makeVideoWorkflowId, type MakeVideoTuning } from "../../workflows/shared/make-video";
import { renderWorkflowId } from "../../workflows/shared/render";
import { probeVideo } from "../fixtures/video-probe";
import { createTestUser } from "../support/auth";
import { startTestWorker } from "../support/temporal";

vi.hoisted(() => {
  process.env.RENDER_REUSE_CHUNK_SECONDS = "3";
});

const TUNING: MakeVideoTuning = {
  renderSize: { width: 180, height: 320 },
  generateAllPauses: { imageBatchMs: 0, voiceoverMs: 1000 },
  musicPollIntervalMs: 200,
};

let stopWorker: () => Promise<void>;
let temporal: Client;

beforeAll(async () => {
  const worker = await startTestWorker();
  stopWorker = worker.stop;
  temporal = worker.client;
}, 60_000);
afterAll(async () => {
  await stopWorker?.();
  await prisma.$disconnect();
});

describe("make-video: render chunks drawn while the scene media are made", () => {
  it("draws the first chunk while later scenes lack their voiceover; the render takes it as drawn; the video is whole", { timeout: 480_000 }, async () => {
    const user = await createTestUser();
    const options = MakeVideoOptionsSchema.parse({
      title: "Tides and the Moon",
      topic: "How the moon pulls the oceans into tides twice a day",
      format: "9:16",
      duration: 15,
      quality: 720,
    });
    const { id, projectId } = await startMakeVideo(user.id, options, {
      makeCurrent: false,
      tuning: TUNING,
    });
    const deadline = Date.now() + 7 * 60_000;
    let row = await prisma.videoRun.findUniqueOrThrow({ where: { id } });
    while (row.status === "running" && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      row = await prisma.videoRun.findUniqueOrThrow({ where: { id } });
    }
    expect(row.error).toBeNull();
    expect(row.status).toBe("completed");
    expect((await temporal.workflow.getHandle(makeVideoWorkflowId(projectId)).query(makeVideoProgressQuery)).status).toBe("completed");

    // what each of the render's chunks answered: taken as drawn early, or drawn by the render
    const events = (await temporal.workflow.getHandle(renderWorkflowId(projectId)).fetchHistory()).events ?? [];
    const chunks = events
      .flatMap((e) => {
        const data = e.activityTaskCompletedEventAttributes?.result?.payloads?.[0]?.data;
        if (!data?.length) return [];
        const value = JSON.parse(Buffer.from(data).toString()) as {
          chunk?: number;
          mediaFileId?: string;
          reused?: boolean;
        };
        return typeof value.chunk === "number" && value.mediaFileId ? [value] : [];
      })
      .sort((a, b) => a.chunk! - b.chunk!);
    // what the run's looks found (ready scenes, chunks drawn early), for the log
    const looks = ((await temporal.workflow.getHandle(makeVideoWorkflowId(projectId)).fetchHistory()).events ?? []).flatMap((e) => {
      const data = e.activityTaskCompletedEventAttributes?.result?.payloads?.[0]?.data;
      let value: { ready?: number; scenes?: number; drawn?: number; never?: string | null } | null = null;
      try {
        value = data?.length ? JSON.parse(Buffer.from(data).toString()) : null;
      } catch {
        // an activity with no answer (null, or binary)
      }
      return value && typeof value.ready === "number" && "never" in value ? [value] : [];
    });
    const parts = await prisma.renderChunkPart.findMany({ where: { projectId } });
    console.log(
      `early chunk looks: ${JSON.stringify(looks)}; render chunks: ${JSON.stringify(chunks)}; kept: ${JSON.stringify(
        parts.map((p) => [p.key.slice(0, 8), p.frames])
      )}`
    );
    expect(chunks.length).toBeGreaterThanOrEqual(2);
    expect(chunks[0]!.reused).toBe(true);
    // the last chunk waits for the last scene: the render drew it
    expect(chunks.at(-1)!.reused ?? false).toBe(false);

    // the chunk was drawn by a look that found only some scenes with their picture and voiceover
    expect(looks.some((look) => (look.drawn ?? 0) > 0 && look.ready! < look.scenes!)).toBe(true);

    // the video is whole: as long as its scenes' voiceovers, with sound
    const video = await prisma.renderedVideo.findFirstOrThrow({
      where: { projectId, status: "completed" },
    });
    const file = await findMediaForUser(user.id, video.mediaFileId!);
    const facts = await withLocalMediaCopy(file!, probeVideo);
    const cells = await prisma.storyboardCell.findMany({
      where: { storyboard: { projectId } },
    });
    const spoken = cells.reduce((sum, c) => sum + (c.audioDuration ?? 0), 0);
    expect(Math.abs(facts.video.durationSeconds - spoken)).toBeLessThan(0.5 * cells.length + 0.5);
    expect(facts.audio).not.toBeNull();
    expect(Math.abs(facts.audio!.durationSeconds - facts.video.durationSeconds)).toBeLessThan(0.2);
    console.log(
      `early chunks: ${cells.length} scenes, ${chunks.length} chunks, taken as drawn early: ${chunks
        .filter((c) => c.reused)
        .map((c) => c.chunk! + 1)
        .join(", ")}`
    );
  });
});
