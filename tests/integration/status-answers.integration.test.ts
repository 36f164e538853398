// The status routes' answers, byte for byte (spec section 7): their reads are hand-written queries (decision 186,
// second round), so these pin the JSON a page receives for each state of a render, a script and a storyboard.
// The run's state comes from the progress cache, seeded here as a poll would find it; Date is frozen so the
// elapsed times are exact.
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { prisma } from "~/core/db.server";
import { progressCache, type WorkflowSnapshot } from "~/server/progress-cache.server";
import { loader as renderProgressLoader } from "~/routes/render/api.render-progress";
import { loader as scriptStatusLoader } from "~/routes/script/api.script-status";
import { loader as storyboardStatusLoader } from "~/routes/storyboard/api.storyboard-status";
import { renderWorkflowId, type RenderProgressState } from "../../workflows/shared/render";
import type { ScriptProgress } from "../../workflows/shared/script";
import { createTestUser, sessionCookieFor } from "../support/auth";

let NOW: number;
beforeEach(() => {
  NOW = Math.floor(Date.now() / 1000) * 1000;
  vi.useFakeTimers({ toFake: ["Date"], now: NOW });
});
afterEach(() => {
  vi.useRealTimers();
});
afterAll(async () => {
  await prisma.$disconnect();
});

const ago = (seconds: number) => new Date(NOW - seconds * 1000);

/** A signed-in creator whose current project has a storyboard of `scenes` scenes. */
async function creatorWithProject(scenes: number) {
  const user = await createTestUser();
  const project = await prisma.project.create({ data: { userId: user.id, title: "Bees", topic: "How bees dance", resolution: "shorts", durationSeconds: 30 } });
  await prisma.user.update({ where: { id: user.id }, data: { currentProjectId: project.id } });
  if (scenes) {
    await prisma.storyboard.create({
      data: {
        projectId: project.id,
        title: "Bees",
        status: "completed",
        cells: { create: Array.from({ length: scenes }, (_, i) => ({ cellIndex: i, imagePrompt: `bee ${i}`, voiceoverText: `Bee ${i}.`, estimatedDuration: 2 })) },
      },
    });
  }
  return { project, cookie: await sessionCookieFor(user.id) };
}

async function answer(loader: (args: never) => Promise<unknown>, path: string, cookie: string): Promise<string> {
  const response = (await loader({ request: new Request(`http://localhost${path}`, { headers: { Cookie: cookie } }), params: {}, context: {} } as never)) as Response;
  expect(response.status).toBe(200);
  return response.text();
}

/** Puts a run's snapshot in the progress cache, as the last Temporal answer would have left it. */
async function seedRun<T>(workflowId: string, snapshot: WorkflowSnapshot<T>) {
  progressCache().forget(`workflow:${workflowId}`);
  await progressCache().read(`workflow:${workflowId}`, async () => snapshot, { ended: (s) => s.state === "ended" });
}

const renderProgress = (cookie: string) => answer(renderProgressLoader, "/api/render-progress", cookie);

describe("GET /api/render-progress", () => {
  it("no render yet", async () => {
    const { cookie } = await creatorWithProject(3);
    expect(await renderProgress(cookie)).toBe(
      '{"isRendering":false,"isActive":false,"totalScenes":3,"completedScenes":0,"currentScene":0,"stage":"","progress":0,"elapsedTime":"0s","step":"","details":""}',
    );
  });

  it("a render waiting for a worker", async () => {
    const { project, cookie } = await creatorWithProject(3);
    await prisma.renderedVideo.create({ data: { projectId: project.id, status: "completed", createdAt: ago(600), completedAt: ago(560) } });
    await prisma.renderedVideo.create({ data: { projectId: project.id, status: "processing", createdAt: ago(7) } });
    await seedRun(renderWorkflowId(project.id), { state: "running", runId: "run-1", progress: null });
    expect(await renderProgress(cookie)).toBe(
      '{"isRendering":false,"isActive":true,"totalScenes":3,"completedScenes":0,"currentScene":0,"stage":"Waiting for a render worker...","progress":0,"elapsedTime":7,"step":"Queued","details":"The render starts as soon as a worker is free"}',
    );
  });

  it("a render in progress", async () => {
    const { project, cookie } = await creatorWithProject(3);
    await prisma.renderedVideo.create({ data: { projectId: project.id, status: "processing", createdAt: ago(30) } });
    const state: RenderProgressState = {
      status: "rendering",
      totalScenes: 3,
      completedScenes: 1,
      currentScene: 2,
      stage: "Rendering scene 2 of 3",
      progress: 40,
      step: "Rendering",
      details: "frames 100/250",
      startedAt: NOW - 20_000,
      error: null,
      attempt: 2,
    };
    await seedRun(renderWorkflowId(project.id), { state: "running", runId: "run-1", progress: state });
    expect(await renderProgress(cookie)).toBe(
      '{"isRendering":true,"isActive":true,"totalScenes":3,"completedScenes":1,"currentScene":2,"stage":"Rendering scene 2 of 3","progress":40,"elapsedTime":20,"step":"Rendering","details":"frames 100/250","error":null,"attempt":2}',
    );
  });

  it("a finished render (the newest counts, not an older failure)", async () => {
    const { project, cookie } = await creatorWithProject(3);
    await prisma.renderedVideo.create({ data: { projectId: project.id, status: "error", error: "old failure", createdAt: ago(900) } });
    await prisma.renderedVideo.create({ data: { projectId: project.id, status: "completed", createdAt: ago(120), completedAt: ago(78) } });
    expect(await renderProgress(cookie)).toBe(
      '{"isRendering":false,"isActive":false,"totalScenes":3,"completedScenes":3,"currentScene":3,"stage":"Render complete","progress":100,"elapsedTime":42,"step":"Done","details":""}',
    );
  });

  it("a failed render", async () => {
    const { project, cookie } = await creatorWithProject(2);
    await prisma.renderedVideo.create({ data: { projectId: project.id, status: "error", error: "ffmpeg said no", createdAt: ago(50) } });
    expect(await renderProgress(cookie)).toBe(
      '{"isRendering":false,"isActive":false,"totalScenes":2,"completedScenes":0,"currentScene":0,"stage":"Render failed","progress":0,"elapsedTime":"0s","step":"","details":"ffmpeg said no","error":"ffmpeg said no"}',
    );
  });

  it("a render whose run ended unrecorded is marked failed and answered as failed", async () => {
    const { project, cookie } = await creatorWithProject(0);
    const row = await prisma.renderedVideo.create({ data: { projectId: project.id, status: "processing", createdAt: ago(60) } });
    await seedRun(renderWorkflowId(project.id), { state: "ended", runId: "run-1", progress: null });
    const stopped = "The render was stopped before it finished";
    expect(await renderProgress(cookie)).toBe(
      `{"isRendering":false,"isActive":false,"totalScenes":0,"completedScenes":0,"currentScene":0,"stage":"Render failed","progress":0,"elapsedTime":"0s","step":"","details":"${stopped}","error":"${stopped}"}`,
    );
    expect(await prisma.renderedVideo.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({ status: "error", error: stopped });
  });
});

describe("GET /api/script-status and /api/storyboard-status", () => {
  it("a completed script and storyboard", async () => {
    const { project, cookie } = await creatorWithProject(3);
    await prisma.script.create({
      data: { projectId: project.id, status: "completed", text: "The bee dances.", targetWords: 80, startedAt: ago(100), createdAt: ago(110), writtenBy: "Offline writer" },
    });
    expect(await answer(scriptStatusLoader, "/api/script-status", cookie)).toBe(
      `{"title":"Bees","topic":"How bees dance","resolution":"9:16","duration":30,"createdAt":"${ago(110).toISOString()}","generationStartTime":"${ago(100).toISOString()}",` +
        '"status":"completed","script":"The bee dances.","progress":null,"error":null,"isStuck":false,"writtenBy":"Offline writer"}',
    );
    expect(await answer(storyboardStatusLoader, "/api/storyboard-status", cookie)).toBe(
      '{"status":"completed","cellCount":3,"title":"Bees","error":null,"splitBy":null,"startedAt":null}',
    );
  });

  it("a script being written", async () => {
    const { project, cookie } = await creatorWithProject(0);
    const workflowId = `script-test-${project.id}`;
    await prisma.script.create({ data: { projectId: project.id, status: "processing", targetWords: 80, workflowId, startedAt: ago(20), createdAt: ago(21) } });
    const progress: ScriptProgress = { phase: "generating_chunks", percentComplete: 35, currentChunk: 2, totalChunks: 4, currentWords: 30, targetWords: 80, expansionAttempt: 0, stage: "Writing part 2 of 4" };
    await seedRun(workflowId, { state: "running", runId: "run-1", progress });
    expect(await answer(scriptStatusLoader, "/api/script-status", cookie)).toBe(
      `{"title":"Bees","topic":"How bees dance","resolution":"9:16","duration":30,"createdAt":"${ago(21).toISOString()}","generationStartTime":"${ago(20).toISOString()}",` +
        `"status":"processing","script":null,"progress":${JSON.stringify(progress)},"error":null,"isStuck":false}`,
    );
    expect(await answer(storyboardStatusLoader, "/api/storyboard-status", cookie)).toBe('{"status":"not_found","cellCount":0}');
  });
});
