// A worker killed in the middle of a render: the render activity stops heartbeating, Temporal retries it on the
// next worker, and the render completes.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { prisma } from "~/core/db.server";
import { findMediaForUser, mediaFilePath } from "~/core/storage.server";
import { sceneDurationInFrames } from "../../app/lib/timeline/timing";
import { renderVideoWorkflow } from "../../workflows/render";
import { renderProgressQuery, renderWorkflowId } from "../../workflows/shared/render";
import { seedRenderableProject } from "../fixtures/render-project";
import { probeVideo } from "../fixtures/video-probe";
import { killWorkerProcess, startWorkerProcess, workerProcessClient } from "../support/worker-process";

const temporal = workerProcessClient();

afterAll(async () => {
  await prisma.$disconnect();
});

describe("render workflow and a dying worker", () => {
  it("finishes the render on a new worker after the first is killed mid-render", { timeout: 420_000 }, async () => {
    const user = await prisma.user.create({ data: { email: "restart@example.com" } });
    // long and large enough that the render is still drawing frames when the poll below sees it (9 s at 360p was
    // sometimes done in under a second, between two polls); under RENDER_CHUNKED_MIN_SECONDS, so one piece
    const sceneSeconds = [6, 6, 6];
    const { projectId } = await seedRenderableProject({ userId: user.id, sceneSeconds });
    const render = await prisma.renderedVideo.create({ data: { projectId, status: "processing" } });

    const first = await startWorkerProcess("render", { taskQueue: process.env.TEMPORAL_TASK_QUEUE! });
    const handle = await temporal.client.workflow.start(renderVideoWorkflow, {
      taskQueue: process.env.TEMPORAL_TASK_QUEUE!,
      workflowId: renderWorkflowId(projectId),
      args: [{ renderId: render.id, userId: user.id, projectId, width: 1280, height: 720, captions: false }],
    });

    // wait until frames are being rendered, then pull the plug
    const deadline = Date.now() + 180_000;
    for (;;) {
      const state = await handle.query(renderProgressQuery);
      if (state.status === "rendering" && state.progress >= 15) break;
      expect(state.status, "the render ended before the worker could be killed").not.toMatch(/completed|failed/);
      if (Date.now() > deadline) throw new Error(`the render never reached the frames: ${JSON.stringify(state)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    await killWorkerProcess(first);

    await startWorkerProcess("render", { taskQueue: process.env.TEMPORAL_TASK_QUEUE! });
    const result = await handle.result();

    const history = await handle.fetchHistory();
    const renderAttempts = (history.events ?? [])
      .filter((e) => e.activityTaskStartedEventAttributes)
      .map((e) => e.activityTaskStartedEventAttributes!.attempt ?? 1);
    expect(Math.max(...renderAttempts)).toBeGreaterThanOrEqual(2);
    // the progress the Render page reads says so ("Resumed after an interruption (attempt N)")
    expect((await handle.query(renderProgressQuery)).attempt).toBeGreaterThanOrEqual(2);

    const row = await prisma.renderedVideo.findUniqueOrThrow({ where: { id: render.id } });
    expect(row.status).toBe("completed");
    const file = await findMediaForUser(user.id, result.mediaFileId);
    const facts = await probeVideo(mediaFilePath(file!));
    expect(facts.video.frames).toBe(sceneSeconds.reduce((sum, s) => sum + sceneDurationInFrames(s), 0));
    // only the finished video is stored: the killed attempt left no second file behind
    expect(await prisma.mediaFile.count({ where: { projectId, kind: "video" } })).toBe(1);
    // nor a work folder: the new attempt removed the killed one's, and its own went when it finished
    expect(fs.existsSync(path.join(os.tmpdir(), `reelsmith-render-${render.id}`))).toBe(false);
  });
});
