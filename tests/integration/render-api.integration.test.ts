// The render calls as the browser makes them (spec section 7), and the owner-only media route.
import type { Client } from "@temporalio/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RenderProgress } from "~/lib/render-progress";
import { prisma } from "~/core/db.server";
import { loader as mediaLoader } from "~/routes/projects/api.media.$id";
import { action as deleteVideosAction } from "~/routes/render/api.delete-videos";
import { loader as latestVideoLoader } from "~/routes/render/api.latest-video";
import { loader as renderProgressLoader } from "~/routes/render/api.render-progress";
import { action as renderVideoAction } from "~/routes/render/api.render-video";
import { renderWorkflowId } from "../../workflows/shared/render";
import { seedRenderableProject } from "../fixtures/render-project";
import { probeVideo } from "../fixtures/video-probe";
import { createTestUser, sessionCookieFor } from "../support/auth";
import { callWith as call } from "../support/routes";
import { startTestWorker } from "../support/temporal";

let stopWorker: () => Promise<void>;
let client: Client;

beforeAll(async () => {
  const testWorker = await startTestWorker({ stage: "render" });
  client = testWorker.client;
  stopWorker = testWorker.stop;
});
afterAll(async () => {
  await stopWorker?.();
  await prisma.$disconnect();
});

async function signedInUser() {
  const user = await createTestUser();
  return { user, cookie: await sessionCookieFor(user.id) };
}

describe("POST /api/render-video", () => {
  it("answers 401 'Not signed in' without a session", async () => {
    const response = await call(renderVideoAction, "/api/render-video", { method: "POST" });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: "Not signed in" });
  });

  it("refuses a body with fields (the call has no payload)", async () => {
    const { cookie } = await signedInUser();
    const response = await call(renderVideoAction, "/api/render-video", {
      method: "POST",
      cookie,
      body: JSON.stringify({ quality: "8k" }),
      headers: { "Content-Type": "application/json" },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toHaveProperty("field");
  });

  it("refuses to render while a scene lacks its image", async () => {
    const { user, cookie } = await signedInUser();
    const { projectId } = await seedRenderableProject({ userId: user.id, sceneSeconds: [0.5, 0.5] });
    await prisma.storyboardCell.updateMany({ where: { storyboard: { projectId }, cellIndex: 0 }, data: { imageUrl: null } });
    const response = await call(renderVideoAction, "/api/render-video", { method: "POST", cookie });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toMatch(/Every scene needs an image and a voiceover/);
    expect(await prisma.renderedVideo.count({ where: { projectId } })).toBe(0);
  });
});

describe("a render through the API", () => {
  it("starts, refuses a second start, reports progress, serves the video, and deletes it", { timeout: 300_000 }, async () => {
    const { user, cookie } = await signedInUser();
    const { projectId } = await seedRenderableProject({ userId: user.id, sceneSeconds: [0.5, 0.5] });

    const idle = (await (await call(renderProgressLoader, "/api/render-progress", { cookie })).json()) as RenderProgress;
    expect(idle).toMatchObject({ isRendering: false, isActive: false, totalScenes: 2, completedScenes: 0, progress: 0 });

    const started = await call(renderVideoAction, "/api/render-video", { method: "POST", cookie });
    expect(started.status).toBe(202);
    const again = await call(renderVideoAction, "/api/render-video", { method: "POST", cookie });
    expect(again.status).toBe(409);
    expect((await again.json()).message).toMatch(/already in progress/);

    const during = (await (await call(renderProgressLoader, "/api/render-progress", { cookie })).json()) as RenderProgress;
    expect(during.isActive).toBe(true);
    expect(during.stage).not.toBe("");

    await client.workflow.getHandle(renderWorkflowId(projectId)).result();
    const done = (await (await call(renderProgressLoader, "/api/render-progress", { cookie })).json()) as RenderProgress;
    expect(done).toMatchObject({ isRendering: false, isActive: false, progress: 100, completedScenes: 2, totalScenes: 2 });

    const latest = (await (await call(latestVideoLoader, "/api/latest-video", { cookie })).json()) as { videoUrl: string };
    expect(latest.videoUrl).toMatch(/^\/api\/media\/\w+$/);
    const mediaId = latest.videoUrl.split("/").pop()!;

    // the owner gets the MP4, whole or by range; self-hosted mode is premium, so it is 1080p
    const whole = await call(mediaLoader, latest.videoUrl, { cookie, params: { id: mediaId } });
    expect(whole.status).toBe(200);
    expect(whole.headers.get("Content-Type")).toBe("video/mp4");
    const bytes = Buffer.from(await whole.arrayBuffer());
    expect(bytes.subarray(4, 8).toString("ascii")).toBe("ftyp");
    const file = await prisma.mediaFile.findUniqueOrThrow({ where: { id: mediaId } });
    const { mediaFilePath } = await import("~/core/storage.server");
    expect((await probeVideo(mediaFilePath(file))).video).toMatchObject({ width: 1920, height: 1080 });

    const part = await call(mediaLoader, latest.videoUrl, { cookie, params: { id: mediaId }, headers: { Range: "bytes=4-11" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("Content-Range")).toBe(`bytes 4-11/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer()).toString("ascii", 0, 4)).toBe("ftyp");
    const download = await call(mediaLoader, `${latest.videoUrl}?download=1&filename=my_video.mp4`, { cookie, params: { id: mediaId } });
    expect(download.headers.get("Content-Disposition")).toBe('attachment; filename="my_video.mp4"');

    // nobody else can read it, not even by guessing the id
    const stranger = await signedInUser();
    expect((await call(mediaLoader, latest.videoUrl, { cookie: stranger.cookie, params: { id: mediaId } })).status).toBe(404);
    expect((await call(mediaLoader, latest.videoUrl, { params: { id: mediaId } })).status).toBe(401);

    // while a YouTube upload is sending the video, deleting it is refused and nothing is lost
    const video = await prisma.renderedVideo.findFirstOrThrow({ where: { projectId, mediaFileId: mediaId } });
    const upload = await prisma.youtubeUpload.create({ data: { projectId, videoId: video.id, title: "Bees", categoryId: "27", tags: [], status: "processing" } });
    const refused = await call(deleteVideosAction, "/api/delete-videos", { method: "DELETE", cookie });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ message: "A YouTube upload is sending this video right now. Delete the videos once it has finished." });
    expect((await call(mediaLoader, latest.videoUrl, { cookie, params: { id: mediaId } })).status).toBe(200);
    await prisma.youtubeUpload.update({ where: { id: upload.id }, data: { status: "completed" } });

    const deleted = await call(deleteVideosAction, "/api/delete-videos", { method: "DELETE", cookie });
    expect(deleted.status).toBe(200);
    expect(await (await call(latestVideoLoader, "/api/latest-video", { cookie })).json()).toEqual({ videoUrl: null });
    expect(await (await call(renderProgressLoader, "/api/render-progress", { cookie })).json()).toMatchObject({ isActive: false, progress: 0 });
    expect((await call(mediaLoader, latest.videoUrl, { cookie, params: { id: mediaId } })).status).toBe(404);
    expect(await prisma.mediaFile.count({ where: { id: mediaId } })).toBe(0);
  });
});
