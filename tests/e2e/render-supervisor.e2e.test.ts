// `npm start` supervises the worker: killed in the middle of a render (kill -9, as the OOM killer would), it is
// started again by the start script with a clear line in the log, the render activity is retried by Temporal on
// the new worker, and the video completes without anyone clicking anything.
// The start script runs here against the test servers (DATABASE_URL and TEMPORAL_ADDRESS set, so it starts no
// database or Temporal of its own) on a port of this test's range, with the build the e2e step made.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client, Connection } from "@temporalio/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabaseFromTemplate } from "../../scripts/lib/test-servers.mjs";
import { sceneDurationInFrames } from "../../app/lib/timeline/timing";

const port = Number(process.env.E2E_PORT ?? 3100) + 101;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-supervisor-"));
const taskQueue = `supervisor-${Date.now()}`;
let start: ChildProcess | undefined;
let log = "";
let connection: Connection;

beforeAll(async () => {
  // the app's modules read these when first imported: a database and a media directory of this test's own
  process.env.DATABASE_URL = await createDatabaseFromTemplate(process.env.TEST_PG_ADMIN_URL, process.env.TEST_TEMPLATE_DATABASE, `test_supervisor_${Date.now()}`);
  process.env.DATA_DIR = dataDir;
  connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS! });
});

afterAll(async () => {
  if (start?.pid) {
    // SIGTERM lets the start script stop its children (web and worker) before it exits
    process.kill(start.pid, "SIGTERM");
    await new Promise((resolve) => start!.once("exit", resolve));
  }
  await connection?.close();
  const { prisma } = await import("~/core/db.server");
  await prisma.$disconnect();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function waitForLog(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = pattern.exec(log);
    if (match) return match;
    if (Date.now() > deadline) throw new Error(`the start script never logged ${pattern}; its output:\n${log.slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("npm start and a killed worker", () => {
  it("restarts the worker and the render completes on it", { timeout: 600_000 }, async () => {
    start = spawn(process.execPath, ["scripts/start.mjs"], {
      cwd: process.cwd(),
      env: { ...process.env, PORT: String(port), TEMPORAL_TASK_QUEUE: taskQueue, DATA_DIR: dataDir, NODE_ENV: "production" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    start.stdout!.on("data", (d) => (log += d));
    start.stderr!.on("data", (d) => (log += d));
    await waitForLog(/ready in/, 240_000);
    const firstWorker = Number((await waitForLog(/worker started \(pid (\d+)\)/, 10_000))[1]);
    await waitForLog(/worker polling task queue/, 120_000);

    const { prisma } = await import("~/core/db.server");
    const { seedRenderableProject } = await import("../fixtures/render-project");
    const { renderVideoWorkflow } = await import("../../workflows/render");
    const { renderWorkflowId } = await import("../../workflows/shared/render");
    const user = await prisma.user.create({ data: { email: "supervised@example.com" } });
    const sceneSeconds = [2.5, 2.5];
    const { projectId } = await seedRenderableProject({ userId: user.id, sceneSeconds });
    const render = await prisma.renderedVideo.create({ data: { projectId, status: "processing" } });
    const client = new Client({ connection });
    const handle = await client.workflow.start(renderVideoWorkflow, {
      taskQueue,
      workflowId: renderWorkflowId(projectId),
      args: [{ renderId: render.id, userId: user.id, projectId, width: 640, height: 360, captions: true }],
    });

    // as soon as the render activity runs on the worker, kill the worker (its whole process group, browser too)
    const deadline = Date.now() + 180_000;
    for (;;) {
      const description = await handle.describe();
      // PendingActivityState 2 is STARTED: a worker has taken the task
      const rendering = (description.raw.pendingActivities ?? []).some((a) => a.activityType?.name?.startsWith("renderVideo") && Number(a.state) === 2);
      if (rendering) break;
      expect(description.status.name, "the render ended before the worker could be killed").toBe("RUNNING");
      if (Date.now() > deadline) throw new Error("the render activity never started");
      await new Promise((r) => setTimeout(r, 100));
    }
    process.kill(-firstWorker, "SIGKILL");

    await waitForLog(new RegExp(`worker \\(pid ${firstWorker}\\) exited \\(SIGKILL\\); restarting it in 1 s \\(restart 1\\)`), 30_000);
    const secondWorker = Number((await waitForLog(/worker started \(pid (\d+)\)[\s\S]*worker started \(pid (\d+)\)/, 30_000))[2]);
    expect(secondWorker).not.toBe(firstWorker);

    const result = await handle.result();
    const history = await handle.fetchHistory();
    const attempts = (history.events ?? []).filter((e) => e.activityTaskStartedEventAttributes).map((e) => e.activityTaskStartedEventAttributes!.attempt ?? 1);
    expect(Math.max(...attempts)).toBeGreaterThanOrEqual(2);

    const row = await prisma.renderedVideo.findUniqueOrThrow({ where: { id: render.id } });
    expect(row.status).toBe("completed");
    expect(row.renderer).toBe("fast");
    expect(result.durationSeconds).toBeCloseTo(sceneSeconds.reduce((sum, s) => sum + sceneDurationInFrames(s), 0) / 30, 5);
    // the web server kept answering all along: only the worker was restarted
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).ok).toBe(true);
    expect(log).not.toMatch(/web \(pid \d+\) exited/);
  });
});
