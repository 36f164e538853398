// A retried publish never posts twice (decision 270). Temporal can run two attempts of the upload activity at once:
// it timed out the first (under load the server stopped hearing its heartbeats) while that one still ran. Both
// attempts run here side by side against the YouTube fake, each in an activity context of its own: they open one
// upload session between them (claimed before it is opened), and YouTube gets one video. A later attempt, and one
// whose upload row lost YouTube's answer, find the video on the claim and publish nothing more.
import { fake, YOUTUBE_TEST_CHUNK } from "../support/youtube-fake";
import { asyncLocalStorage, Context, type Info } from "@temporalio/activity";
import { noopMetricMeter } from "@temporalio/common";
import { afterAll, describe, expect, it } from "vitest";
import { prisma } from "~/core/db.server";
import { publishClaimKey } from "~/core/publish-claims.server";
import { createYoutubeUploadActivities } from "../../workflows/activities/youtube-upload";
import { connectYoutube, saveOAuthClient, seedRenderedProject } from "../fixtures/youtube-project";
import { createTestUser, sessionCookieFor } from "../support/auth";
import { workerProcessClient } from "../support/worker-process";

const temporal = workerProcessClient();

afterAll(async () => {
  await fake.stop();
  await prisma.$disconnect();
});

const quiet = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, log() {} };

/** Runs `fn` as attempt `attempt` of the upload activity, as a worker would (its own context, heartbeat and signal). */
function asAttempt<T>(attempt: number, workflowId: string, fn: () => Promise<T>): Promise<T> {
  const info = {
    attempt,
    activityId: "1",
    activityType: "uploadVideoToYoutube",
    heartbeatTimeoutMs: 20_000,
    startToCloseTimeoutMs: 24 * 3600_000,
    workflowExecution: { workflowId, runId: "run-1" },
    taskQueue: "test",
  } as unknown as Info;
  const ctx = new Context(info, new Promise<never>(() => {}), new AbortController().signal, () => {}, temporal.client, quiet as never, noopMetricMeter, {} as never);
  return asyncLocalStorage.run(ctx, fn);
}

describe("a publish claimed once", () => {
  it("two attempts of one upload at once open one session, and YouTube gets one video", { timeout: 60_000 }, async () => {
    const size = 3 * YOUTUBE_TEST_CHUNK + 123;
    const user = await createTestUser();
    await saveOAuthClient(user.id);
    await connectYoutube(await sessionCookieFor(user.id));
    const { project, video } = await seedRenderedProject(user.id, { videoBytes: size });
    const upload = await prisma.youtubeUpload.create({ data: { projectId: project.id, videoId: video.id, title: "Posted once", categoryId: "22", tags: [], status: "processing" } });
    const input = { uploadId: upload.id, userId: user.id, projectId: project.id };
    const workflowId = `youtube-upload-${project.id}`;
    const sessionsBefore = fake.sessions.size;
    const videosBefore = fake.videos.size;

    const activities = createYoutubeUploadActivities({ chunkBytes: YOUTUBE_TEST_CHUNK });
    const [first, second] = await Promise.all([
      asAttempt(1, workflowId, () => activities.uploadVideoToYoutube(input)),
      asAttempt(2, workflowId, () => activities.uploadVideoToYoutube(input)),
    ]);
    expect(second.videoId).toBe(first.videoId);
    expect(fake.sessions.size - sessionsBefore).toBe(1);
    expect(fake.videos.size - videosBefore).toBe(1);
    expect(fake.videos.get(first.videoId)!.bytes).toBe(size);
    const claim = await prisma.publishClaim.findUniqueOrThrow({ where: { key: publishClaimKey(upload.id, "youtube") } });
    expect(claim.remoteId).toBe(first.videoId);

    // a third attempt whose row never heard YouTube's answer finds the video on the claim: nothing is sent
    await prisma.youtubeUpload.update({ where: { id: upload.id }, data: { youtubeVideoId: null, sessionUriEnc: null } });
    const requestsBefore = fake.requestsTo(/\/upload\/youtube\/v3\/videos/).length;
    const third = await asAttempt(3, workflowId, () => activities.uploadVideoToYoutube(input));
    expect(third.videoId).toBe(first.videoId);
    expect(fake.requestsTo(/\/upload\/youtube\/v3\/videos/).length).toBe(requestsBefore);
    expect(fake.videos.size - videosBefore).toBe(1);
  });
});
