// A worker killed in the middle of a render: the render activity stops heartbeating, Temporal retries it on the
// next worker, and the render completes.
import { spawn, type ChildProcess } from "node:child_process";
import { Client, Connection } from "@temporalio/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/server/db.server";
import { findMediaForUser, mediaFilePath } from "~/server/storage.server";
import { sceneDurationInFrames } from "../../remotion/timing";
import { renderVideoWorkflow } from "../../workflows/render";
import { renderProgressQuery, renderWorkflowId } from "../../workflows/shared/render";
import { seedRenderableProject } from "../fixtures/render-project";
import { probeVideo } from "../fixtures/video-probe";

const workers: ChildProcess[] = [];
let connection: Connection;
let client: Client;

/** A render worker in a process group of its own, so killing it also kills its Chromium. */
function startWorkerProcess(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "tests/integration/render-worker.ts"], {
    cwd: process.cwd(),
    env: process.env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  workers.push(child);
  let output = "";
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (d) => {
      output += d;
      if (output.includes("render worker ready")) resolve(child);
    });
    child.stderr!.on("data", (d) => (output += d));
    child.on("exit", (code) => reject(new Error(`render worker exited (${code}) before it was ready:\n${output}`)));
  });
}

const killGroup = (child: ChildProcess) => {
  try {
    process.kill(-child.pid!, "SIGKILL");
  } catch {
    // already gone
  }
};

beforeAll(async () => {
  connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS! });
  client = new Client({ connection });
});
afterAll(async () => {
  workers.forEach(killGroup);
  await connection?.close();
  await prisma.$disconnect();
});

describe("render workflow and a dying worker", () => {
  it("finishes the render on a new worker after the first is killed mid-render", { timeout: 420_000 }, async () => {
    const user = await prisma.user.create({ data: { email: "restart@example.com" } });
    const sceneSeconds = [3, 3, 3];
    const { projectId } = await seedRenderableProject({ userId: user.id, sceneSeconds });
    const render = await prisma.renderedVideo.create({ data: { projectId, status: "processing" } });

    const first = await startWorkerProcess();
    const handle = await client.workflow.start(renderVideoWorkflow, {
      taskQueue: process.env.TEMPORAL_TASK_QUEUE!,
      workflowId: renderWorkflowId(projectId),
      args: [{ renderId: render.id, userId: user.id, projectId, width: 640, height: 360, captions: false }],
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
    killGroup(first);

    await startWorkerProcess();
    const result = await handle.result();

    const history = await handle.fetchHistory();
    const renderAttempts = (history.events ?? [])
      .filter((e) => e.activityTaskStartedEventAttributes)
      .map((e) => e.activityTaskStartedEventAttributes!.attempt ?? 1);
    expect(Math.max(...renderAttempts)).toBeGreaterThanOrEqual(2);

    const row = await prisma.renderedVideo.findUniqueOrThrow({ where: { id: render.id } });
    expect(row.status).toBe("completed");
    const file = await findMediaForUser(user.id, result.mediaFileId);
    const facts = await probeVideo(mediaFilePath(file!));
    expect(facts.video.frames).toBe(sceneSeconds.reduce((sum, s) => sum + sceneDurationInFrames(s), 0));
    // only the finished video is stored: the killed attempt left no second file behind
    expect(await prisma.mediaFile.count({ where: { projectId, kind: "video" } })).toBe(1);
  });
});
