// A worker killed in the middle of a YouTube upload: the upload activity stops heartbeating, Temporal retries it
// on the next worker, and that attempt resumes the same resumable session from YouTube's last acknowledged byte.
import { fake, YOUTUBE_TEST_CHUNK } from "../support/youtube-fake";
import { afterAll, describe, expect, it } from "vitest";
import { prisma } from "~/core/db.server";
import { youtubeUploadProgressQuery, youtubeUploadWorkflowId } from "../../workflows/shared/youtube-upload";
import { youtubeUploadWorkflow } from "../../workflows/youtube-upload";
import { connectYoutube, saveOAuthClient, seedRenderedProject } from "../fixtures/youtube-project";
import { createTestUser, sessionCookieFor } from "../support/auth";
import { killWorkerProcess, startWorkerProcess, workerProcessClient } from "../support/worker-process";

const temporal = workerProcessClient();

afterAll(async () => {
  await fake.stop();
  await prisma.$disconnect();
});

describe("YouTube upload and a dying worker", () => {
  it("resumes the same session from the last acknowledged byte on a new worker", { timeout: 180_000 }, async () => {
    const size = 10 * YOUTUBE_TEST_CHUNK + 777;
    const user = await createTestUser();
    await saveOAuthClient(user.id);
    await connectYoutube(await sessionCookieFor(user.id));
    const { project, video } = await seedRenderedProject(user.id, { videoBytes: size });
    const upload = await prisma.youtubeUpload.create({
      data: { projectId: project.id, videoId: video.id, title: "Killed mid-upload", categoryId: "22", tags: [], status: "processing" },
    });
    fake.chunkDelayMs = 400;

    const taskQueue = process.env.TEMPORAL_TASK_QUEUE!;
    const first = await startWorkerProcess("all-stages", { taskQueue });
    const handle = await temporal.client.workflow.start(youtubeUploadWorkflow, {
      taskQueue,
      workflowId: youtubeUploadWorkflowId(project.id),
      args: [{ uploadId: upload.id, userId: user.id, projectId: project.id }],
    });

    const deadline = Date.now() + 60_000;
    for (;;) {
      const state = await handle.query(youtubeUploadProgressQuery).catch(() => null);
      if (state && state.bytesUploaded >= 3 * YOUTUBE_TEST_CHUNK) break;
      if (Date.now() > deadline) throw new Error(`the upload never got going: ${JSON.stringify(state)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await killWorkerProcess(first);
    const acknowledgedAtKill = Number((await prisma.youtubeUpload.findUniqueOrThrow({ where: { id: upload.id } })).bytesUploaded);
    expect(acknowledgedAtKill).toBeGreaterThanOrEqual(3 * YOUTUBE_TEST_CHUNK);
    fake.chunkDelayMs = 0;

    await startWorkerProcess("all-stages", { taskQueue });
    const result = await handle.result();
    expect(fake.videos.get(result.videoId)!.bytes).toBe(size);
    // one session only: the second worker went on with the first one's, after asking where it stood
    expect(fake.sessions.size).toBe(1);
    expect(fake.uploadBytesReceived).toBeLessThanOrEqual(size + YOUTUBE_TEST_CHUNK);
    const attempts = ((await handle.fetchHistory()).events ?? [])
      .filter((e) => e.activityTaskStartedEventAttributes)
      .map((e) => e.activityTaskStartedEventAttributes!.attempt ?? 1);
    expect(Math.max(...attempts)).toBeGreaterThanOrEqual(2);
    const row = await prisma.youtubeUpload.findUniqueOrThrow({ where: { id: upload.id } });
    expect(row).toMatchObject({ status: "completed", youtubeVideoId: result.videoId, progress: 100 });
  });
});
