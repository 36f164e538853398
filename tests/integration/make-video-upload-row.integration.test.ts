// make-video's upload stage makes one upload row per run: a retry of prepareUploadStage (its first attempt made the
// row and its answer was lost) takes that row, rather than leaving it "processing" for ever beside a second one;
// once that upload went through, the stage asked again (the run retried) makes a new one.
import { afterAll, describe, expect, it } from "vitest";
import { prisma } from "~/core/db.server";
import { createProjectForRun } from "~/core/video-run.server";
import { MakeVideoOptionsSchema } from "~/lib/make-video-options";
import { createMakeVideoActivities } from "../../workflows/activities/make-video";
import { createTestUser } from "../support/auth";

afterAll(async () => {
  await prisma.$disconnect();
});

const video = { title: "Why owls hoot at night", topic: "Owls call to mark their ground", format: "9:16", duration: 10, upload: true } as const;

describe("make-video's upload row", () => {
  it("one row per upload, however often its activity runs; a finished upload is not taken again", async () => {
    const user = await createTestUser();
    const options = MakeVideoOptionsSchema.parse(video);
    const project = await createProjectForRun(user.id, options, false);
    await prisma.renderedVideo.create({ data: { projectId: project.id, status: "completed", videoUrl: "/api/media/owls", completedAt: new Date() } });
    const acts = createMakeVideoActivities();
    const run = await prisma.videoRun.create({ data: { userId: user.id, projectId: project.id, options, status: "running", stage: "upload", workflowId: `make-video-${project.id}` } });
    const first = { runId: run.id, userId: user.id, projectId: project.id, description: "Owls, at night.", tags: ["owls"] };
    const made = await acts.prepareUploadStage(first);
    const retried = await acts.prepareUploadStage(first);
    expect(retried.uploadId).toBe(made.uploadId);
    expect(await prisma.youtubeUpload.count({ where: { projectId: project.id } })).toBe(1);
    expect(await prisma.youtubeUpload.findUniqueOrThrow({ where: { id: made.uploadId } })).toMatchObject({ title: video.title, status: "processing", tags: ["owls"] });

    // that upload went through; asked again, the stage makes a new row and leaves the finished one as it is
    await prisma.youtubeUpload.update({ where: { id: made.uploadId }, data: { status: "completed", youtubeVideoId: "yt-owls" } });
    const next = await acts.prepareUploadStage(first);
    expect(next.uploadId).not.toBe(made.uploadId);
    expect(await prisma.youtubeUpload.count({ where: { projectId: project.id } })).toBe(2);
  });
});
