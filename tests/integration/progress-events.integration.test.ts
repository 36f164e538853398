// Progress without work (issue 36, docs/decisions/132), against the real PostgreSQL and Temporal: the render's
// server-sent event stream carries its progress and ends when the render does; another user's stream is refused;
// and many concurrent polls of one running render cost at most one Temporal query per interval.
import { Context } from "@temporalio/activity";
import type { Client, WorkflowHandle } from "@temporalio/client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { RenderProgress } from "~/lib/render-progress";
import { loader as progressEventsLoader } from "~/routes/projects/api.progress-events";
import { loader as renderProgressLoader } from "~/routes/render/api.render-progress";
import { action as renderVideoAction } from "~/routes/render/api.render-video";
import { prisma } from "~/core/db.server";
import { PROGRESS_INTERVAL_MS } from "~/server/progress-cache.server";
import { progressEventStream } from "~/server/progress-events.server";
import { getTemporalClient } from "~/server/temporal.server";
import { renderVideoFast } from "../../workflows/activities/render";
import { startTestWorker } from "../support/temporal";
import type { RenderPlan } from "../../workflows/shared/render";
import { renderProgressQuery, renderWorkflowId } from "../../workflows/shared/render";
import { seedRenderableProject } from "../fixtures/render-project";
import { createTestUser, sessionCookieFor } from "../support/auth";
import { callWith as call } from "../support/routes";

// The fast render waits at this gate (heartbeating) until the test opens it: the render stays running as long
// as the test needs, then finishes for real.
let openGate: () => void = () => {};
let gate = new Promise<void>((resolve) => (openGate = resolve));
// Closing keeps the earlier gates' openers, so one failed test cannot leave an earlier render waiting for ever
// (holding the worker's render slot and timing out every test after it).
const closeGate = () => {
  const openEarlier = openGate;
  gate = new Promise<void>((resolve) => (openGate = () => (openEarlier(), resolve())));
};

async function gatedRenderVideoFast(plan: RenderPlan) {
  let open = false;
  void gate.then(() => (open = true));
  while (!open) {
    Context.current().heartbeat();
    await new Promise((r) => setTimeout(r, 200));
  }
  return renderVideoFast(plan);
}

let client: Client;
let stopWorker: (() => Promise<void>) | undefined;

beforeAll(async () => {
  // the render stage on its light, heavy and render queues (decision 155), with the gated fast render
  ({ client, stop: stopWorker } = await startTestWorker({ stage: "render", activities: { renderVideoFast: gatedRenderVideoFast } }));
});
afterAll(async () => {
  openGate();
  await stopWorker?.();
  await prisma.$disconnect();
});

const BASE = "http://localhost:3000";

async function signedInUser() {
  const user = await createTestUser();
  return { user, cookie: await sessionCookieFor(user.id) };
}

type ServerEvent = { event: string; data: string } | { comment: string };

/** Reads a text/event-stream body event by event; `next` resolves null once the server closed the stream. */
function eventReader(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  return async function next(): Promise<ServerEvent | null> {
    for (;;) {
      const end = buffer.indexOf("\n\n");
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (block.startsWith(":")) return { comment: block.slice(1).trim() };
        const fields = Object.fromEntries(block.split("\n").map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 1).trim()]));
        if (fields.retry !== undefined && fields.event === undefined) continue;
        return { event: fields.event ?? "message", data: fields.data ?? "" };
      }
      const { done, value } = await reader.read();
      if (done) return null;
      buffer += decoder.decode(value, { stream: true });
    }
  };
}

async function startGatedRender() {
  const { user, cookie } = await signedInUser();
  const { projectId } = await seedRenderableProject({ userId: user.id, sceneSeconds: [0.5, 0.5] });
  closeGate();
  const started = await call(renderVideoAction, "/api/render-video", { method: "POST", cookie });
  expect(started.status).toBe(202);
  return { user, cookie, projectId, handle: client.workflow.getHandle(renderWorkflowId(projectId)) as WorkflowHandle };
}

/** Waits until the worker has the render (its query answers with the fast render under way). */
async function untilRendering(handle: WorkflowHandle) {
  for (let i = 0; i < 150; i++) {
    const state = await handle.query(renderProgressQuery).catch(() => null);
    if (state && state.progress >= 2) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("the render never started");
}

describe("GET /api/progress-events?stage=render", () => {
  it("streams the render's progress, then its completion, and ends with the render", { timeout: 240_000 }, async () => {
    const { cookie, handle } = await startGatedRender();
    await untilRendering(handle);

    const abort = new AbortController();
    const response = await call(progressEventsLoader, "/api/progress-events?stage=render", { cookie, signal: abort.signal });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^text\/event-stream/);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    const next = eventReader(response.body!);

    const first = await next();
    expect(first).toMatchObject({ event: "progress" });
    const during = JSON.parse((first as { data: string }).data) as RenderProgress;
    expect(during).toMatchObject({ isActive: true, totalScenes: 2 });
    expect(during.progress).toBeGreaterThanOrEqual(2);
    // the same answer as the polling route gives
    const polled = (await (await call(renderProgressLoader, "/api/render-progress", { cookie })).json()) as RenderProgress;
    expect({ ...polled, elapsedTime: 0 }).toEqual({ ...during, elapsedTime: 0 });

    openGate();
    const events: ServerEvent[] = [];
    for (let event = await next(); event; event = await next()) events.push(event);
    const progress = events.filter((e): e is { event: string; data: string } => "event" in e && e.event === "progress").map((e) => JSON.parse(e.data) as RenderProgress);
    // an event only when the answer changed
    for (let i = 1; i < progress.length; i++) expect(progress[i]).not.toEqual(progress[i - 1]);
    expect(progress.at(-1)).toMatchObject({ isActive: false, isRendering: false, progress: 100, completedScenes: 2, stage: "Render complete" });
    expect(events.at(-1)).toEqual({ event: "end", data: "{}" });
    // the workflow's own state says "complete" in the workflow task that returns, so the server may record the
    // completion a moment after the last answer was streamed
    await expect.poll(async () => (await handle.describe()).status.name, { timeout: 15_000, interval: 100 }).toBe("COMPLETED");
    abort.abort();
  });

  it("sends a heartbeat comment while nothing changes, and stops when the browser goes", { timeout: 120_000 }, async () => {
    const { user, handle } = await startGatedRender();
    await untilRendering(handle);
    const project = await prisma.project.findFirstOrThrow({ where: { userId: user.id } });
    const abort = new AbortController();
    const request = new Request(`${BASE}/api/progress-events?stage=render`, { signal: abort.signal });
    const next = eventReader(progressEventStream(request, project, "render", { heartbeatMs: 150 }).body!);
    // on a busy machine the first Temporal query can take longer than the 150 ms beat, so a heartbeat may come first
    let first = await next();
    while (first && "comment" in first) first = await next();
    expect(first).toMatchObject({ event: "progress" });
    const seen: ServerEvent[] = [];
    for (let i = 0; i < 3; i++) seen.push((await next())!);
    expect(seen.filter((e) => "comment" in e && e.comment === "heartbeat").length).toBeGreaterThanOrEqual(2);
    abort.abort();
    // what was already queued is read, then the stream is closed (without an end: the render still runs)
    const rest: ServerEvent[] = [];
    for (let event = await next(); event; event = await next()) rest.push(event);
    expect(rest.some((e) => "event" in e && e.event === "end")).toBe(false);
    expect((await handle.describe()).status.name).toBe("RUNNING");
    openGate();
    await handle.result();
  });

  it("refuses another user's project (404), a signed-out caller (401) and an unknown stage (400)", async () => {
    const owner = await signedInUser();
    const { projectId } = await seedRenderableProject({ userId: owner.user.id, sceneSeconds: [0.5] });
    const stranger = await signedInUser();

    const foreign = await call(progressEventsLoader, `/api/progress-events?stage=render&projectId=${projectId}`, { cookie: stranger.cookie });
    expect(foreign.status).toBe(404);
    expect(foreign.headers.get("Content-Type")).toMatch(/application\/json/);
    expect(await foreign.json()).toEqual({ message: "Project not found. Open one of your projects from the dashboard." });

    const signedOut = await call(progressEventsLoader, `/api/progress-events?stage=render&projectId=${projectId}`);
    expect(signedOut.status).toBe(401);

    const unknown = await call(progressEventsLoader, "/api/progress-events?stage=everything", { cookie: owner.cookie });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ field: "stage" });

    const head = await call(progressEventsLoader, `/api/progress-events?stage=render&projectId=${projectId}`, { cookie: owner.cookie, method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("Content-Type")).toMatch(/^text\/event-stream/);
    expect(head.body).toBeNull();

    // the owner's own project by id: a stream (nothing runs, so it sends the idle answer and ends)
    const own = await call(progressEventsLoader, `/api/progress-events?stage=render&projectId=${projectId}`, { cookie: owner.cookie });
    expect(own.status).toBe(200);
    const next = eventReader(own.body!);
    expect(await next()).toMatchObject({ event: "progress" });
    expect(await next()).toEqual({ event: "end", data: "{}" });
    expect(await next()).toBeNull();
  });
});

describe("many polls of one running render", () => {
  it("cost at most one Temporal query per interval, all answered as active", { timeout: 120_000 }, async () => {
    const { cookie, handle } = await startGatedRender();
    await untilRendering(handle);

    // count what the web process asks Temporal about this render
    const webClient = await getTemporalClient();
    const getHandle = webClient.workflow.getHandle.bind(webClient.workflow);
    const asked = { query: 0, describe: 0 };
    const spy = vi.spyOn(webClient.workflow, "getHandle").mockImplementation(((workflowId: string, ...rest: unknown[]) => {
      const h = (getHandle as (...args: unknown[]) => WorkflowHandle)(workflowId, ...rest);
      if (workflowId !== handle.workflowId) return h;
      const query = h.query.bind(h);
      const describeRun = h.describe.bind(h);
      return Object.assign(Object.create(h) as WorkflowHandle, {
        query: (...args: Parameters<typeof query>) => (asked.query++, query(...args)),
        describe: () => (asked.describe++, describeRun()),
      });
    }) as typeof webClient.workflow.getHandle);

    try {
      const started = Date.now();
      const rounds = 8;
      const pollsPerRound = 40;
      const answers: RenderProgress[] = [];
      for (let round = 0; round < rounds; round++) {
        const polls = Array.from({ length: pollsPerRound }, () => call(renderProgressLoader, "/api/render-progress", { cookie }).then((r) => r.json()));
        answers.push(...((await Promise.all(polls)) as RenderProgress[]));
        await new Promise((r) => setTimeout(r, 250));
      }
      const elapsed = Date.now() - started;
      expect(answers).toHaveLength(rounds * pollsPerRound);
      for (const answer of answers) expect(answer).toMatchObject({ isActive: true, totalScenes: 2 });
      // 320 polls over about 2-3 s: one query to start with, then at most one more per interval
      const allowed = Math.ceil(elapsed / PROGRESS_INTERVAL_MS) + 1;
      expect(asked.query).toBeGreaterThanOrEqual(1);
      expect(asked.query).toBeLessThanOrEqual(allowed);
      expect(asked.describe).toBeLessThanOrEqual(allowed);
      console.log(`${answers.length} polls in ${elapsed} ms: ${asked.query} Temporal queries, ${asked.describe} describes (at most ${allowed} allowed)`);
    } finally {
      spy.mockRestore();
      openGate();
      await handle.result();
    }
  });
});
