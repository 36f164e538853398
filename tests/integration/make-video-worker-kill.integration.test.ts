// Issue 53's "done when": the worker SIGKILLed in the middle of a pipelined make-video run (title to upload, on the
// real worker in a process of its own, the offline providers and the YouTube fake) still ends with one video and one
// upload. The worker is killed while the video renders (or, on a machine fast enough to finish the render between two
// looks, while it uploads), with the thumbnail and the upload's description made beside it; a second worker takes
// the run over from Temporal's history: the interrupted activity is retried there, nothing done before is made again.
import { fake } from "../support/youtube-fake";
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { afterAll, describe, expect, it } from "vitest";
import { prisma } from "~/core/db.server";
import { findMediaForUser, withLocalMediaCopy } from "~/core/storage.server";
import { MakeVideoOptionsSchema, startMakeVideo } from "~/server/make-video.server";
import { makeVideoProgressQuery, makeVideoWorkflowId, type MakeVideoTuning } from "../../workflows/shared/make-video";
import { renderProgressQuery, renderWorkflowId } from "../../workflows/shared/render";
import { connectYoutube, saveOAuthClient } from "../fixtures/youtube-project";
import { createTestUser, sessionCookieFor } from "../support/auth";
import { killWorkerProcess, startWorkerProcess, workerProcessClient } from "../support/worker-process";

const temporal = workerProcessClient();
const TUNING: MakeVideoTuning = {
  renderSize: { width: 360, height: 640 },
  generateAllPauses: { imageBatchMs: 0, voiceoverMs: 0 },
  musicPollIntervalMs: 200,
};

afterAll(async () => {
  await fake.stop();
  await prisma.$disconnect();
});

describe("make-video and a worker killed mid-pipeline", () => {
  it("ends with one video and one upload on YouTube after the worker is SIGKILLed and another takes over", { timeout: 480_000 }, async () => {
    const user = await createTestUser();
    await saveOAuthClient(user.id);
    await connectYoutube(await sessionCookieFor(user.id));
    const taskQueue = process.env.TEMPORAL_TASK_QUEUE!;
    const first = await startWorkerProcess("all-stages", { taskQueue });

    const options = MakeVideoOptionsSchema.parse({
      title: "Lamps Through the Storm",
      topic: "How lighthouse keepers kept the lamps burning through storms",
      format: "9:16",
      duration: 10,
      quality: 720,
      upload: true,
    });
    const { id, projectId } = await startMakeVideo(user.id, options, {
      makeCurrent: false,
      tuning: TUNING,
    });
    const run = temporal.client.workflow.getHandle(makeVideoWorkflowId(projectId));
    // the upload slowed a little, so a run past its render is still uploading when looked at
    fake.chunkDelayMs = 300;

    // wait until the render draws frames (or the upload runs), then pull the plug on the worker and what it started
    let killedAt = "";
    const deadline = Date.now() + 240_000;
    while (!killedAt) {
      const progress = await run.query(makeVideoProgressQuery).catch(() => null);
      expect(progress?.status ?? "running", `the run ended before the worker could be killed: ${progress?.error}`).toBe("running");
      const state = (stage: string) => progress?.stages.find((s) => s.stage === stage)?.state;
      const render =
        state("render") === "running"
          ? await temporal.client.workflow
              .getHandle(renderWorkflowId(projectId))
              .query(renderProgressQuery)
              .catch(() => null)
          : null;
      // the upload stage runs a step of its own before its child workflow uploads: the kill waits for the upload's
      // activity to run on the worker (PendingActivityState 2, STARTED), so there is an activity to retry
      const upload = progress?.stages.find((s) => s.stage === "upload");
      const uploading =
        upload?.state === "running" && upload.workflowId
          ? await temporal.client.workflow
              .getHandle(upload.workflowId)
              .describe()
              .then((d) => (d.raw.pendingActivities ?? []).some((a) => Number(a.state) === 2))
              .catch(() => false)
          : false;
      if (render?.status === "rendering") killedAt = `render (${render.progress} %)`;
      else if (uploading) killedAt = "upload";
      if (Date.now() > deadline) throw new Error(`the run never reached its render: ${JSON.stringify(progress)}`);
      if (!killedAt) await new Promise((r) => setTimeout(r, 100));
    }
    await killWorkerProcess(first);
    console.log(`make-video worker killed during the ${killedAt}`);
    fake.chunkDelayMs = 0;

    await startWorkerProcess("all-stages", { taskQueue });
    const finishBy = Date.now() + 300_000;
    let row = await prisma.videoRun.findUniqueOrThrow({ where: { id } });
    while (row.status === "running" && Date.now() < finishBy) {
      await new Promise((r) => setTimeout(r, 500));
      row = await prisma.videoRun.findUniqueOrThrow({ where: { id } });
    }
    expect(row.error).toBeNull();
    expect(row.status).toBe("completed");
    expect((await run.query(makeVideoProgressQuery)).stages.find((s) => s.stage === "upload")?.state).toBe("done");

    // the interrupted activity was retried on the second worker
    const children = ((await run.fetchHistory()).events ?? []).flatMap((e) => {
      const a = e.childWorkflowExecutionCompletedEventAttributes;
      return a ? [a.workflowExecution!] : [];
    });
    let retried = 0;
    for (const child of children) {
      const events = (await temporal.client.workflow.getHandle(child.workflowId!, child.runId!).fetchHistory()).events ?? [];
      retried += events.filter((e) => (e.activityTaskStartedEventAttributes?.attempt ?? 1) > 1).length;
    }
    expect(retried).toBeGreaterThanOrEqual(1);

    // one video: one finished render, one stored video file
    const videos = await prisma.renderedVideo.findMany({
      where: { projectId },
    });
    expect(videos.map((v) => v.status)).toEqual(["completed"]);
    expect(
      await prisma.mediaFile.count({
        where: { projectId, kind: "video", renderChunkPart: { is: null } },
      })
    ).toBe(1);
    const file = await findMediaForUser(user.id, videos[0]!.mediaFileId!);
    // one upload: one session at YouTube, one video there, with the stored video's every byte
    expect(fake.sessions.size).toBe(1);
    expect(fake.videos.size).toBe(1);
    const [uploaded] = [...fake.videos.values()];
    expect(uploaded!.bytes).toBe(file!.bytes);
    expect(uploaded!.sha256).toBe(
      await withLocalMediaCopy(file!, async (local) =>
        createHash("sha256")
          .update(await readFile(local))
          .digest("hex")
      )
    );
    expect(uploaded!.resource.snippet?.title).toBe("Lamps Through the Storm");
    const uploads = await prisma.youtubeUpload.findMany({
      where: { projectId },
    });
    expect(uploads).toHaveLength(1);
    expect(uploads[0]).toMatchObject({
      status: "completed",
      youtubeVideoId: uploaded!.id,
    });
    expect(row.youtubeUrl).toContain(uploaded!.id);
  });
});
