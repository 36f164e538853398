// The render's progress moves while the fast renderer draws its captions (issue 38: the render page sat at 4 %
// through 44 s of caption drawing at 20 minutes), then while it encodes, and never moves back. The real render
// workflow and fast render activity; every progress report the activity makes is read where it goes out (the
// heartbeat carries the whole report each time, the workflow's signal at most one a second).
import { Context } from "@temporalio/activity";
import type { Client } from "@temporalio/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/core/db.server";
import { renderVideoFast } from "../../workflows/activities/render";
import { renderVideoWorkflow } from "../../workflows/render";
import { renderProgressQuery, renderWorkflowId, type RenderPlan, type RenderProgressUpdate } from "../../workflows/shared/render";
import { seedRenderableProject } from "../fixtures/render-project";
import { startTestWorker } from "../support/temporal";

const reports: RenderProgressUpdate[] = [];

/** The real fast render, its every heartbeat (the latest report) kept. */
async function recordedRenderVideoFast(plan: RenderPlan) {
  const ctx = Context.current();
  const beat = ctx.heartbeat;
  // (a read-only property of the context to its users: replaced here on this one activity's context)
  Object.defineProperty(ctx, "heartbeat", {
    value: (details?: unknown) => {
      reports.push({ ...(details as RenderProgressUpdate) });
      beat(details);
    },
  });
  return renderVideoFast(plan);
}

let client: Client;
let stopWorker: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ client, stop: stopWorker } = await startTestWorker({ stage: "render", activities: { renderVideoFast: recordedRenderVideoFast } }));
});
afterAll(async () => {
  await stopWorker?.();
  await prisma.$disconnect();
});

describe("render progress", () => {
  it("moves while the captions are drawn and while the frames are encoded, and never moves back", { timeout: 300_000 }, async () => {
    const user = await prisma.user.create({ data: { email: `progress-captions-${Date.now()}@example.com` } });
    const { projectId } = await seedRenderableProject({ userId: user.id, sceneSeconds: Array.from({ length: 12 }, () => 1) });
    const render = await prisma.renderedVideo.create({ data: { projectId, status: "processing", workflowId: renderWorkflowId(projectId) } });
    const handle = await client.workflow.start(renderVideoWorkflow, {
      taskQueue: process.env.TEMPORAL_TASK_QUEUE!,
      workflowId: renderWorkflowId(projectId),
      args: [{ renderId: render.id, userId: user.id, projectId, width: 320, height: 180, captions: true }],
    });
    await handle.result();
    expect((await handle.query(renderProgressQuery)).progress).toBe(100);

    const percents = reports.map((r) => r.progress ?? 0);
    for (let i = 1; i < percents.length; i++) expect(percents[i], `report ${i}: ${JSON.stringify(reports[i])}`).toBeGreaterThanOrEqual(percents[i - 1]!);

    // one report per caption drawn, counting up, the percent rising past the 4 % the page showed before
    const drawing = reports.filter((r) => /^Drawing caption \d+ of \d+/.test(r.details ?? ""));
    const total = Number(/of (\d+)/.exec(drawing[0]!.details!)![1]);
    expect(total).toBeGreaterThanOrEqual(12);
    // (the activity's timer repeats the latest report every 5 s while nothing new happens)
    const counted = drawing.map((r) => Number(/caption (\d+)/.exec(r.details!)![1])).filter((n, i, all) => i === 0 || all[i - 1] !== n);
    expect(counted).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    expect(drawing[0]!.progress).toBeGreaterThan(4);
    expect(new Set(drawing.map((r) => r.progress)).size).toBeGreaterThanOrEqual(3);
    // then the frames carry it on from there to 92 %, and the save step on to 99 %: it takes about 7 % of a fast
    // render's time, so the time left holds to the end (workflows/shared/render-percent.ts)
    const encoding = reports.filter((r) => /frame \d+ of \d+/.test(r.details ?? ""));
    expect(encoding[0]!.progress).toBeGreaterThanOrEqual(drawing.at(-1)!.progress!);
    expect(encoding.at(-1)!.progress).toBe(92);
    const saving = reports.filter((r) => r.status === "saving");
    expect(saving[0]).toMatchObject({ details: "Bringing the sound to -14 LUFS", progress: 92 });
    expect(new Set(saving.map((r) => r.progress)).size, JSON.stringify(saving)).toBeGreaterThanOrEqual(3);
    expect(saving.at(-1)).toMatchObject({ details: "Storing the MP4", progress: 99 });
  });
});
