// The drill of issue 49: the worker SIGKILLed in the middle of the uploads to TikTok and to Instagram. The upload
// activities stop heartbeating, Temporal retries them on the next worker, and each retry asks its platform where the
// post stands (TikTok's uploaded bytes, the container's bytes transferred) and goes on with the same publish id and
// the same container: exactly one post on each fake, each with the whole file.
import { instagram, tiktok } from "../support/platform-fakes";
import { createHash, randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { prisma } from "~/core/db.server";
import { mediaUrl, saveMedia } from "~/core/storage.server";
import { loader as authorizeRoute } from "~/routes/platforms/api.platforms.oauth.authorize";
import { loader as callbackRoute } from "~/routes/platforms/api.platforms.oauth.callback";
import { action as postsAction } from "~/routes/platforms/api.platforms.posts";
import { createTestUser, sessionCookieFor } from "../support/auth";
import { callRoute } from "../support/routes";
import { killWorkerProcess, startWorkerProcess, workerProcessClient } from "../support/worker-process";

const APP = "http://localhost:3000";
const temporal = workerProcessClient();

afterAll(async () => {
  await Promise.all([tiktok.stop(), instagram.stop()]);
  await prisma.$disconnect();
});

async function connect(platform: "tiktok" | "instagram", cookie: string) {
  const auth = await callRoute(authorizeRoute, new Request(`${APP}/api/platforms/${platform}/oauth/authorize`, { headers: { Cookie: cookie } }), { platform });
  const consent = await fetch(((await auth.json()) as { authUrl: string }).authUrl, { redirect: "manual" });
  const page = await callRoute(callbackRoute, new Request(consent.headers.get("location")!, { headers: { Cookie: cookie } }), { platform });
  expect(page.status).toBe(200);
  const row = await prisma.platformConnection.findFirstOrThrow({ where: { platform }, orderBy: { createdAt: "desc" } });
  return row.id;
}

describe("TikTok and Instagram posts and a dying worker", () => {
  it("leaves exactly one post on each platform when the worker is killed mid-upload", { timeout: 180_000 }, async () => {
    const size = 30_000_000 + 4321; // three TikTok chunks
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    const project = await prisma.project.create({ data: { userId: user.id, title: "Killed mid-post", topic: "Bees", resolution: "shorts", durationSeconds: 30 } });
    await prisma.user.update({ where: { id: user.id }, data: { currentProjectId: project.id } });
    const data = randomBytes(size);
    const file = await saveMedia({ userId: user.id, projectId: project.id, kind: "video", mimeType: "video/mp4", extension: "mp4", data });
    await prisma.renderedVideo.create({
      data: { projectId: project.id, status: "completed", videoUrl: mediaUrl(file), mediaFileId: file.id, width: 1080, height: 1920, durationSeconds: 30, completedAt: new Date() },
    });
    const sha256 = createHash("sha256").update(data).digest("hex");
    const tiktokConnection = await connect("tiktok", cookie);
    const instagramConnection = await connect("instagram", cookie);
    tiktok.chunkDelayMs = 600;
    instagram.uploadDelayMs = 4000;

    const taskQueue = process.env.TEMPORAL_TASK_QUEUE!;
    const first = await startWorkerProcess("all-stages", { taskQueue });
    const response = await callRoute(
      postsAction,
      new Request(`${APP}/api/platforms/posts`, {
        method: "POST",
        headers: { Cookie: cookie, "Content-Type": "application/json" },
        body: JSON.stringify({
          posts: [
            { platform: "tiktok", connectionId: tiktokConnection, caption: "Killed #bees", tiktok: { privacyLevel: "SELF_ONLY", consent: true } },
            { platform: "instagram", connectionId: instagramConnection, caption: "Killed #bees" },
          ],
        }),
      }),
    );
    expect(response.status).toBe(201);
    const { posts } = (await response.json()) as { posts: { id: string; platform: string; workflowId?: string }[] };
    const tiktokPost = posts.find((p) => p.platform === "tiktok")!;

    // kill the worker once TikTok has taken a chunk (Instagram's single upload is then waiting on the fake)
    const deadline = Date.now() + 60_000;
    for (;;) {
      const row = await prisma.platformPost.findUniqueOrThrow({ where: { id: tiktokPost.id } });
      if (row.bytesUploaded >= 10_000_000n) break;
      if (Date.now() > deadline) throw new Error(`the TikTok upload never got going: ${row.status} ${row.bytesUploaded}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await killWorkerProcess(first);
    const igStoredAtKill = [...instagram.containers.values()].at(-1)?.received ?? 0;
    tiktok.chunkDelayMs = 0;
    instagram.uploadDelayMs = 0;

    await startWorkerProcess("all-stages", { taskQueue });
    for (const post of posts) await temporal.client.workflow.getHandle(`platform-post-${post.id}`).result();

    const rows = await prisma.platformPost.findMany({ where: { id: { in: posts.map((p) => p.id) } } });
    expect(rows.map((r) => r.status)).toEqual(["published", "published"]);
    const tiktokPosts = [...tiktok.posts.values()].filter((p) => p.postInfo?.title === "Killed #bees");
    expect(tiktokPosts).toHaveLength(1);
    expect(tiktokPosts[0]).toMatchObject({ received: size, chunksReceived: 3, sha256 });
    const containers = [...instagram.containers.values()].filter((c) => c.caption === "Killed #bees");
    expect(containers).toHaveLength(1);
    expect(containers[0]).toMatchObject({ received: size, sha256, statusCode: "PUBLISHED" });
    expect(instagram.published.filter((p) => p.containerId === containers[0]!.id)).toHaveLength(1);
    // the kill came before Instagram stored anything: the file went whole on the next worker
    expect(igStoredAtKill).toBe(0);
  });
});
