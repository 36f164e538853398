// Deleting a project: its files and rows go, its running workflows are stopped, another user's project cannot
// be touched (404, nothing removed), and a free account gets its one project slot back.
import fs from "node:fs";
import { afterAll, describe, expect, it, vi } from "vitest";
import { callRoute as call } from "../support/routes";
import { scriptWorkflow } from "../../workflows/script";
import { finishPublish, publishClaimKey } from "~/core/publish-claims.server";

vi.hoisted(() => {
  process.env.STRIPE_SECRET_KEY = "sk_test_projectDeletion";
});

const { prisma } = await import("~/core/db.server");
const { mediaFilePath, mediaUrl, saveMedia } = await import("~/core/storage.server");
const { getTemporalClient } = await import("~/server/temporal.server");
const projectRoute = await import("~/routes/projects/api.projects.$id");
const projectsRoute = await import("~/routes/projects/api.projects");
const { createTestUser, sessionCookieFor } = await import("../support/auth");

afterAll(async () => {
  await (await getTemporalClient()).connection.close();
  await prisma.$disconnect();
});

const url = "http://localhost:3000";
const remove = (id: string, cookie: string) => call(projectRoute.action, new Request(`${url}/api/projects/${id}`, { method: "DELETE", headers: { Cookie: cookie } }), { id });

/** A project with a script, a storyboard of two scenes with their image and voiceover files, a video file and a track. */
async function projectWithMedia(userId: string, title: string) {
  const project = await prisma.project.create({ data: { userId, title, topic: `${title} topic`, resolution: "landscape", durationSeconds: 300 } });
  await prisma.user.update({ where: { id: userId }, data: { currentProjectId: project.id } });
  const save = (kind: "image" | "voiceover" | "video" | "music", extension: string) =>
    saveMedia({ userId, projectId: project.id, kind, data: Buffer.from(`${title}-${kind}-${Math.random()}`), mimeType: "application/octet-stream", extension });
  const files = [await save("image", "png"), await save("voiceover", "wav"), await save("image", "png"), await save("voiceover", "wav"), await save("video", "mp4"), await save("music", "mp3")];
  await prisma.script.create({ data: { projectId: project.id, status: "completed", text: "words", wordCount: 1, targetWords: 750 } });
  await prisma.storyboard.create({
    data: {
      projectId: project.id,
      title,
      status: "completed",
      cells: {
        create: [0, 1].map((i) => ({
          cellIndex: i,
          imagePrompt: "p",
          voiceoverText: "v",
          estimatedDuration: 5,
          imageUrl: mediaUrl(files[i * 2]!),
          imageFileId: files[i * 2]!.id,
          audioUrl: mediaUrl(files[i * 2 + 1]!),
          audioFileId: files[i * 2 + 1]!.id,
        })),
      },
    },
  });
  await prisma.renderedVideo.create({ data: { projectId: project.id, status: "completed", videoUrl: mediaUrl(files[4]!), mediaFileId: files[4]!.id } });
  await prisma.musicTrack.create({ data: { projectId: project.id, prompt: "calm", status: "completed", audioUrl: mediaUrl(files[5]!), mediaFileId: files[5]!.id } });
  return { project, files };
}

describe("DELETE /api/projects/{id}", () => {
  it("removes the project's files and rows, stops its workflows, and leaves another user's project alone", async () => {
    const owner = await createTestUser();
    const other = await createTestUser();
    const ownerCookie = await sessionCookieFor(owner.id);
    const otherCookie = await sessionCookieFor(other.id);
    const mine = await projectWithMedia(owner.id, "Tides");
    const theirs = await projectWithMedia(other.id, "Comets");

    // a script run still going for the project (no worker serves this queue, so it runs until stopped)
    const client = await getTemporalClient();
    const running = await client.workflow.start(scriptWorkflow, {
      taskQueue: `nobody-serves-${mine.project.id}`,
      workflowId: `script-${mine.project.id}`,
      args: [{ projectId: mine.project.id, userId: owner.id, title: "Tides", topic: "Why the sea rises twice a day", durationSeconds: 60 }],
    });

    // a finished YouTube upload of each project, with its publish claim (decision 270; keyed, not related)
    const claims: string[] = [];
    for (const { project } of [mine, theirs]) {
      const upload = await prisma.youtubeUpload.create({ data: { projectId: project.id, title: project.title, categoryId: "27", status: "completed", youtubeVideoId: `yt-${project.id}` } });
      claims.push(publishClaimKey(upload.id, "youtube"));
      await finishPublish(claims.at(-1)!, `yt-${project.id}`);
    }

    // another user's id looks exactly like a missing one, and nothing of it is touched
    const refused = await remove(theirs.project.id, ownerCookie);
    expect(refused.status).toBe(404);
    expect((await refused.json()).message).toBe("Project not found. Open one of your projects from the dashboard.");
    await expect(prisma.project.count({ where: { id: theirs.project.id } })).resolves.toBe(1);

    const response = await remove(mine.project.id, ownerCookie);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true, id: mine.project.id, title: "Tides", filesRemoved: 6, workflowsStopped: 1 });

    for (const file of mine.files) expect(fs.existsSync(mediaFilePath(file))).toBe(false);
    await expect(prisma.mediaFile.count({ where: { id: { in: mine.files.map((f) => f.id) } } })).resolves.toBe(0);
    await expect(prisma.project.count({ where: { id: mine.project.id } })).resolves.toBe(0);
    await expect(prisma.script.count({ where: { projectId: mine.project.id } })).resolves.toBe(0);
    await expect(prisma.storyboardCell.count({ where: { storyboard: { projectId: mine.project.id } } })).resolves.toBe(0);
    await expect(prisma.renderedVideo.count({ where: { projectId: mine.project.id } })).resolves.toBe(0);
    await expect(prisma.musicTrack.count({ where: { projectId: mine.project.id } })).resolves.toBe(0);
    expect((await prisma.user.findUniqueOrThrow({ where: { id: owner.id } })).currentProjectId).toBeNull();
    expect((await running.describe()).status.name).toBe("TERMINATED");
    // what the deleted project published is no longer kept under its upload's key; the other user's claim is
    await expect(prisma.publishClaim.count({ where: { key: claims[0]! } })).resolves.toBe(0);
    await expect(prisma.publishClaim.count({ where: { key: claims[1]! } })).resolves.toBe(1);

    // the other user's project, rows and files are all there
    for (const file of theirs.files) expect(fs.existsSync(mediaFilePath(file))).toBe(true);
    await expect(prisma.mediaFile.count({ where: { projectId: theirs.project.id } })).resolves.toBe(6);
    await expect(prisma.storyboardCell.count({ where: { storyboard: { projectId: theirs.project.id } } })).resolves.toBe(2);

    // deleting it again: 404; and the other user can still delete their own
    expect((await remove(mine.project.id, ownerCookie)).status).toBe(404);
    expect((await remove(theirs.project.id, otherCookie)).status).toBe(200);
  });

  it("gives a free account its one project slot back", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    const create = (title: string) =>
      call(
        projectsRoute.action,
        new Request(`${url}/api/projects`, {
          method: "POST",
          headers: { Cookie: cookie, "Content-Type": "application/json", Origin: url },
          body: JSON.stringify({ title, topic: "Why the sea is salty", resolution: "16:9", duration: 300 }),
        }),
      );
    const first = await create("First");
    expect(first.status).toBe(201);
    expect((await create("Second")).status).toBe(402);
    const { id } = await first.json();
    expect((await remove(id, cookie)).status).toBe(200);
    const again = await create("Second");
    expect(again.status).toBe(201);
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).currentProjectId).toBe((await again.json()).id);
  });

  it("signed out: 401; a GET is not a delete", async () => {
    expect((await call(projectRoute.action, new Request(`${url}/api/projects/x`, { method: "DELETE" }), { id: "x" })).status).toBe(401);
  });
});
