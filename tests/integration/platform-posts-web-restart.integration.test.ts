// The drill of issue 49 for the web server: the real web server (server.ts, the production build) SIGKILLed in the
// middle of a publish to TikTok and Instagram. The posts belong to their workflows, not to the web process: they go
// on in the worker while no web server runs, and the next web server shows them published. A post whose row the
// killed server had written but whose workflow it never started (the kill between the two) is started by the next
// server when the posts are read, under the post's own workflow id. Exactly one post on each fake, each whole.
import { instagram, tiktok } from "../support/platform-fakes";
import { createHash, randomBytes } from "node:crypto";
import type { ChildProcess } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { prisma } from "~/core/db.server";
import { mediaUrl, saveMedia } from "~/core/storage.server";
import { loader as authorizeRoute } from "~/routes/platforms/api.platforms.oauth.authorize";
import { loader as callbackRoute } from "~/routes/platforms/api.platforms.oauth.callback";
import { createTestUser, sessionCookieFor } from "../support/auth";
import { callRoute } from "../support/routes";
import { startWebProcess, type WebProcess } from "../support/web-process";
import { isAlive, killWorkerProcess, startWorkerProcess } from "../support/worker-process";

const APP = "http://localhost:3000";
let worker: ChildProcess | null = null;
let web: WebProcess | null = null;

afterAll(async () => {
  await web?.stop();
  if (worker) await killWorkerProcess(worker);
  await Promise.all([tiktok.stop(), instagram.stop()]);
  await prisma.$disconnect();
});

async function connect(platform: "tiktok" | "instagram", userId: string, cookie: string) {
  const auth = await callRoute(authorizeRoute, new Request(`${APP}/api/platforms/${platform}/oauth/authorize`, { headers: { Cookie: cookie } }), { platform });
  const consent = await fetch(((await auth.json()) as { authUrl: string }).authUrl, { redirect: "manual" });
  const page = await callRoute(callbackRoute, new Request(consent.headers.get("location")!, { headers: { Cookie: cookie } }), { platform });
  expect(page.status).toBe(200);
  return (await prisma.platformConnection.findFirstOrThrow({ where: { platform, userId } })).id;
}

type PostView = { id: string; platform: string; status: string; caption: string; error: string | null };

describe("TikTok and Instagram posts and a dying web server", () => {
  it("leaves exactly one post on each platform when the web server is killed mid-publish", { timeout: 240_000 }, async () => {
    const size = 30_000_000 + 777; // three TikTok chunks
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    const project = await prisma.project.create({ data: { userId: user.id, title: "Web killed", topic: "Bees", resolution: "shorts", durationSeconds: 30 } });
    await prisma.user.update({ where: { id: user.id }, data: { currentProjectId: project.id } });
    const data = randomBytes(size);
    const file = await saveMedia({ userId: user.id, projectId: project.id, kind: "video", mimeType: "video/mp4", extension: "mp4", data });
    const video = await prisma.renderedVideo.create({
      data: { projectId: project.id, status: "completed", videoUrl: mediaUrl(file), mediaFileId: file.id, width: 1080, height: 1920, durationSeconds: 30, completedAt: new Date() },
    });
    const sha256 = createHash("sha256").update(data).digest("hex");
    const tiktokConnection = await connect("tiktok", user.id, cookie);
    const instagramConnection = await connect("instagram", user.id, cookie);
    tiktok.chunkDelayMs = 800;
    instagram.uploadDelayMs = 3000;

    worker = await startWorkerProcess("all-stages", { taskQueue: process.env.TEMPORAL_TASK_QUEUE! });
    web = await startWebProcess();
    const posted = await fetch(`${web.baseUrl}/api/platforms/posts`, {
      method: "POST",
      headers: { Cookie: cookie, "Content-Type": "application/json", Origin: web.baseUrl },
      body: JSON.stringify({
        posts: [
          { platform: "tiktok", connectionId: tiktokConnection, caption: "Web killed #bees", tiktok: { privacyLevel: "SELF_ONLY", consent: true } },
          { platform: "instagram", connectionId: instagramConnection, caption: "Web killed #bees" },
        ],
      }),
    });
    expect(posted.status, await posted.clone().text()).toBe(201);
    const { posts } = (await posted.json()) as { posts: PostView[] };

    // the web server killed while the bytes go: TikTok has taken its first chunk
    const deadline = Date.now() + 60_000;
    for (;;) {
      const row = await prisma.platformPost.findUniqueOrThrow({ where: { id: posts.find((p) => p.platform === "tiktok")!.id } });
      if (row.bytesUploaded >= 10_000_000n) break;
      if (Date.now() > deadline) throw new Error(`the TikTok upload never got going: ${row.status} ${row.bytesUploaded}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const killedPid = web.pid;
    process.kill(killedPid, "SIGKILL");
    await expect.poll(() => isAlive(killedPid), { timeout: 10_000 }).toBe(false);
    web = null;

    // what a kill between the row and its workflow leaves: a post written, its workflow never started
    const leftBehind = await prisma.platformPost.create({
      data: {
        userId: user.id,
        projectId: project.id,
        videoId: video.id,
        connectionId: instagramConnection,
        platform: "instagram",
        caption: "Left behind #bees",
        options: { shareToFeed: true, thumbOffsetMs: null },
        status: "posting",
        createdAt: new Date(Date.now() - 60_000),
      },
    });
    tiktok.chunkDelayMs = 0;
    instagram.uploadDelayMs = 0;

    // the next web server: reading the posts starts the one left behind; all three end published
    web = await startWebProcess();
    let seen: PostView[] = [];
    const until = Date.now() + 120_000;
    for (;;) {
      const listed = await fetch(`${web.baseUrl}/api/platforms/posts`, { headers: { Cookie: cookie } });
      expect(listed.status).toBe(200);
      seen = ((await listed.json()) as { posts: PostView[] }).posts;
      if (seen.length === 3 && seen.every((p) => p.status === "published")) break;
      if (Date.now() > until) throw new Error(`the posts did not finish: ${JSON.stringify(seen.map((p) => [p.caption, p.platform, p.status, p.error]))}`);
      await new Promise((r) => setTimeout(r, 500));
    }
    expect((await prisma.platformPost.findUniqueOrThrow({ where: { id: leftBehind.id } })).workflowId).toBe(`platform-post-${leftBehind.id}`);

    const tiktokPosts = [...tiktok.posts.values()].filter((p) => p.postInfo?.title === "Web killed #bees");
    expect(tiktokPosts).toHaveLength(1);
    expect(tiktokPosts[0]).toMatchObject({ received: size, chunksReceived: 3, sha256 });
    for (const caption of ["Web killed #bees", "Left behind #bees"]) {
      const containers = [...instagram.containers.values()].filter((c) => c.caption === caption);
      expect(containers).toHaveLength(1);
      expect(containers[0]).toMatchObject({ received: size, sha256, statusCode: "PUBLISHED" });
      expect(instagram.published.filter((p) => p.containerId === containers[0]!.id)).toHaveLength(1);
    }
  });
});
