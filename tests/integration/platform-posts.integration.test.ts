// TikTok and Instagram Reels end to end (issue 49): the real clients against the local fakes of both platforms
// (tests/fakes/tiktok.ts, tests/fakes/instagram.ts), real PostgreSQL and a real Temporal worker. Connecting each
// platform through its consent screen; one post to each, the fakes receiving the whole file (SHA-256), the caption
// and the options; an answer lost mid-upload and a lost media_publish answer, retried without a second post; an
// expired TikTok token refreshed once; a revoked one asking to reconnect; a scheduled post cancelled before it
// starts; and a 20-minute 16:9 video refused by both platforms' rules with their reasons.
import { instagram, tiktok } from "../support/platform-fakes";
import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { prisma } from "~/core/db.server";
import { decryptSecret, encryptSecret } from "~/core/encryption.server";
import { mediaUrl, saveMedia } from "~/core/storage.server";
import { loader as authorizeRoute } from "~/routes/platforms/api.platforms.oauth.authorize";
import { loader as callbackRoute } from "~/routes/platforms/api.platforms.oauth.callback";
import { loader as connectionsRoute } from "~/routes/platforms/api.platforms.connections";
import { loader as creatorInfoRoute } from "~/routes/platforms/api.platforms.connections.$id.creator-info";
import { action as postsAction, loader as postsLoader } from "~/routes/platforms/api.platforms.posts";
import { action as postAction } from "~/routes/platforms/api.platforms.posts.$id";
import { FAKE_INSTAGRAM_USER } from "../fakes/instagram";
import { FAKE_TIKTOK_CREATOR } from "../fakes/tiktok";
import { platformPostWorkflowId } from "../../workflows/shared/platform-post";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { createApiToken } from "~/server/api-tokens.server";
import { startApiV1Server } from "../support/api-v1-server";
import { handleMcpRequest } from "~/server/mcp.server";
import { apiV1Client, openApiValidator } from "../support/api-v1-client";
import { createTestUser, sessionCookieFor } from "../support/auth";
import { callRoute } from "../support/routes";
import { loader as youtubePreflightRoute } from "~/routes/publish/api.youtube.preflight";
import { blockingItems, preflightChecks } from "~/lib/preflight";
import { startTestWorker } from "../support/temporal";
import { action as connectionAction } from "~/routes/platforms/api.platforms.connections.$id";
import { deleteProject } from "~/server/project-deletion.server";
import { platformAccessToken } from "~/core/platforms/platform-tokens.server";

// the creators' webhook receivers are on this machine's loopback: allowed by the operator's setting (decision 196)
vi.hoisted(() => {
  process.env.ALLOW_PRIVATE_TARGETS = "true";
});

const APP = "http://localhost:3000";
const MB = 1024 * 1024;

let worker: Awaited<ReturnType<typeof startTestWorker>>;
beforeAll(async () => {
  worker = await startTestWorker();
});
afterAll(async () => {
  await worker?.stop();
  await Promise.all([tiktok.stop(), instagram.stop()]);
  await prisma.$disconnect();
});

const get = (fn: Parameters<typeof callRoute>[0], path: string, cookie: string, params: Record<string, string> = {}) =>
  callRoute(fn, new Request(`${APP}${path}`, { headers: { Cookie: cookie } }), params);
const send = (fn: Parameters<typeof callRoute>[0], method: string, path: string, cookie: string, body: unknown, params: Record<string, string> = {}) =>
  callRoute(fn, new Request(`${APP}${path}`, { method, headers: { Cookie: cookie, "Content-Type": "application/json" }, body: JSON.stringify(body) }), params);

/** The browser's connect flow: authorize -> the platform's consent screen (the fake approves) -> the callback. */
async function connect(platform: "tiktok" | "instagram", cookie: string) {
  const auth = await get(authorizeRoute, `/api/platforms/${platform}/oauth/authorize`, cookie, { platform });
  expect(auth.status).toBe(200);
  const { authUrl } = (await auth.json()) as { authUrl: string };
  const consent = await fetch(authUrl, { redirect: "manual" });
  const back = consent.headers.get("location");
  if (!back) throw new Error(`the consent screen did not redirect (${consent.status}: ${await consent.text()})`);
  const page = await callRoute(callbackRoute, new Request(back, { headers: { Cookie: cookie } }), { platform });
  return { authUrl: new URL(authUrl), page, html: await page.text() };
}

async function creatorWithVideo(video: { bytes: number; durationSeconds?: number; width?: number; height?: number }) {
  const user = await createTestUser();
  const cookie = await sessionCookieFor(user.id);
  const project = await prisma.project.create({ data: { userId: user.id, title: "Bees and Their Dances", topic: "How honeybees talk", resolution: "shorts", durationSeconds: 30 } });
  await prisma.user.update({ where: { id: user.id }, data: { currentProjectId: project.id } });
  // an AI voice spoke the narration: TikTok's AI-generated label is set from it (decision 240)
  await prisma.storyboard.create({
    data: {
      projectId: project.id,
      title: "Bees",
      status: "completed",
      cells: { create: [{ cellIndex: 0, imagePrompt: "bees", voiceoverText: "Bees dance.", estimatedDuration: 30, audioUrl: "/api/media/voice", voiceMadeBy: "ElevenLabs" }] },
    },
  });
  const data = randomBytes(video.bytes);
  const file = await saveMedia({ userId: user.id, projectId: project.id, kind: "video", mimeType: "video/mp4", extension: "mp4", data });
  await prisma.renderedVideo.create({
    data: {
      projectId: project.id,
      status: "completed",
      videoUrl: mediaUrl(file),
      mediaFileId: file.id,
      width: video.width ?? 1080,
      height: video.height ?? 1920,
      durationSeconds: video.durationSeconds ?? 30,
      completedAt: new Date(),
    },
  });
  return { user, cookie, project, sha256: createHash("sha256").update(data).digest("hex") };
}

/** A webhook endpoint of the user (private targets allowed, as the owner may), at a local receiver: the events it got. */
async function webhookReceiver(userId: string, events: string[]) {
  const received: { type: string; data: Record<string, unknown> }[] = [];
  const server = (await import("node:http")).createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (d: Buffer) => parts.push(d));
    req.on("end", () => {
      received.push(JSON.parse(Buffer.concat(parts).toString()) as { type: string; data: Record<string, unknown> });
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  await prisma.webhookEndpoint.create({ data: { userId, url, events, allowPrivate: true, secretEnc: encryptSecret("whsec_test", { userId, field: "webhookSecret" }) } });
  return { received, close: () => server.close() };
}

async function connections(cookie: string) {
  const list = (await (await get(connectionsRoute, "/api/platforms/connections", cookie)).json()) as { connections: { id: string; platform: string; accountName: string; needsReconnect: boolean }[] };
  return {
    tiktok: list.connections.find((c) => c.platform === "tiktok")!,
    instagram: list.connections.find((c) => c.platform === "instagram")!,
    all: list.connections,
  };
}

const tiktokEntry = (connectionId: string, extra: Record<string, unknown> = {}) => ({
  platform: "tiktok",
  connectionId,
  caption: "How bees dance #bees #science",
  tiktok: { mode: "direct", privacyLevel: "SELF_ONLY", allowComment: true, allowDuet: false, allowStitch: false, consent: true },
  ...extra,
});
const instagramEntry = (connectionId: string, extra: Record<string, unknown> = {}) => ({
  platform: "instagram",
  connectionId,
  caption: "How bees dance\n\n#bees #honey",
  instagram: { shareToFeed: false, coverAtMs: 1500 },
  ...extra,
});

async function waitForPosts(cookie: string, done: (posts: { status: string }[]) => boolean, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { posts } = (await (await get(postsLoader, "/api/platforms/posts", cookie)).json()) as { posts: { id: string; platform: string; status: string; permalink: string | null; error: string | null; publishedId: string | null }[] };
    if (done(posts)) return posts;
    if (Date.now() > deadline) throw new Error(`posts did not settle: ${JSON.stringify(posts)}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

const finished = (posts: { status: string }[]) => posts.length > 0 && posts.every((p) => ["published", "sent_to_inbox", "failed", "cancelled"].includes(p.status));

describe("connecting TikTok and Instagram", () => {
  it("sends the creator to each consent screen with its state (and PKCE for TikTok), and stores the tokens encrypted", async () => {
    const { user, cookie } = await creatorWithVideo({ bytes: 1024 });
    const tk = await connect("tiktok", cookie);
    expect(tk.authUrl.searchParams.get("scope")).toBe("user.info.basic,video.publish,video.upload");
    expect(tk.authUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(tk.page.status).toBe(200);
    expect(tk.html).toContain(`Reelsmith can now post to ${FAKE_TIKTOK_CREATOR.nickname}.`);
    const ig = await connect("instagram", cookie);
    expect(ig.authUrl.searchParams.get("scope")).toBe("instagram_business_basic,instagram_business_content_publish");
    expect(ig.html).toContain(`Reelsmith can now post to ${FAKE_INSTAGRAM_USER.username}.`);

    const rows = await prisma.platformConnection.findMany({ where: { userId: user.id } });
    expect(rows.map((r) => r.platform).sort()).toEqual(["instagram", "tiktok"]);
    for (const row of rows) {
      const plain = decryptSecret(row.accessTokenEnc, { userId: user.id, field: `${row.platform}AccessToken` });
      expect(row.accessTokenEnc).not.toContain(plain);
    }
    // the Instagram token is the long-lived one (60 days)
    const igRow = rows.find((r) => r.platform === "instagram")!;
    expect(igRow.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 59 * 24 * 3600 * 1000);

    // a state from another browser session is refused
    const otherCookie = await sessionCookieFor(user.id);
    const auth = await get(authorizeRoute, "/api/platforms/tiktok/oauth/authorize", cookie, { platform: "tiktok" });
    const consent = await fetch(((await auth.json()) as { authUrl: string }).authUrl, { redirect: "manual" });
    const stolen = await callRoute(callbackRoute, new Request(consent.headers.get("location")!, { headers: { Cookie: otherCookie } }), { platform: "tiktok" });
    expect(stolen.status).toBe(400);
    expect(await stolen.text()).toContain("was not started from this browser session");

    // creator info for the export step: the nickname and the account's privacy options
    const { tiktok: tiktokConnection } = await connections(cookie);
    const info = (await (await get(creatorInfoRoute, "", cookie, { id: tiktokConnection.id })).json()) as { creatorNickname: string; privacyLevelOptions: string[] };
    expect(info.creatorNickname).toBe(FAKE_TIKTOK_CREATOR.nickname);
    expect(info.privacyLevelOptions).toContain("SELF_ONLY");
  });
});

describe("posting to TikTok and Instagram", () => {
  it("posts one video to each, once, even when an answer is lost mid-upload and the publish answer is lost", { timeout: 120_000 }, async () => {
    const size = 21 * MB + 123; // TikTok: two chunks (10,000,000 bytes, then the rest)
    const { cookie, sha256 } = await creatorWithVideo({ bytes: size });
    await connect("tiktok", cookie);
    await connect("instagram", cookie);
    const c = await connections(cookie);
    const tiktokPostsBefore = tiktok.posts.size;
    const igContainersBefore = instagram.containers.size;
    const igPublishedBefore = instagram.published.length;
    // the first chunk is stored but its answer never comes; Instagram's publish answer is lost too
    tiktok.loseNextChunkAnswer = true;
    instagram.loseNextPublishAnswer = true;
    // and the TikTok access token has expired: it is refreshed once, before the post
    tiktok.expireAccessTokens();

    const response = await send(postsAction, "POST", "/api/platforms/posts", cookie, { posts: [tiktokEntry(c.tiktok.id), instagramEntry(c.instagram.id)] });
    expect(response.status).toBe(201);
    const started = (await response.json()) as { posts: { id: string }[]; refused: unknown[] };
    expect(started.posts).toHaveLength(2);
    expect(started.refused).toEqual([]);

    const posts = await waitForPosts(cookie, finished);
    expect(posts.map((p) => [p.platform, p.status, p.error]).sort()).toEqual([
      ["instagram", "published", null],
      ["tiktok", "published", null],
    ]);

    // TikTok: one publish id, the whole file in two chunks, the caption and the options chosen
    expect(tiktok.posts.size).toBe(tiktokPostsBefore + 1);
    const tiktokPost = [...tiktok.posts.values()].at(-1)!;
    expect(tiktokPost).toMatchObject({ mode: "direct", videoSize: size, chunkSize: 10_000_000, totalChunkCount: 2, received: size, sha256 });
    expect(tiktokPost.postInfo).toMatchObject({ title: "How bees dance #bees #science", privacy_level: "SELF_ONLY", disable_comment: false, disable_duet: true, disable_stitch: true, is_aigc: true });

    // Instagram: one container, the whole file, one published media despite the lost answer
    expect(instagram.containers.size).toBe(igContainersBefore + 1);
    expect(instagram.published.length).toBe(igPublishedBefore + 1);
    const container = [...instagram.containers.values()].at(-1)!;
    expect(container).toMatchObject({ caption: "How bees dance\n\n#bees #honey", shareToFeed: false, thumbOffset: "1500", fileSize: size, sha256, statusCode: "PUBLISHED" });

    const ig = posts.find((p) => p.platform === "instagram")!;
    const row = await prisma.platformPost.findUniqueOrThrow({ where: { id: ig.id } });
    expect(row.remoteId).toBe(container.id);

    // the history shows the retries: the upload and the publish each ran more than once, yet nothing twice
    const attempts = async (postId: string) =>
      ((await worker.client.workflow.getHandle(platformPostWorkflowId(postId)).fetchHistory()).events ?? [])
        .filter((e) => e.activityTaskStartedEventAttributes)
        .map((e) => e.activityTaskStartedEventAttributes!.attempt ?? 1);
    expect(Math.max(...(await attempts(posts.find((p) => p.platform === "tiktok")!.id)))).toBeGreaterThanOrEqual(2);
    expect(Math.max(...(await attempts(ig.id)))).toBeGreaterThanOrEqual(2);
  });

  it("asks to reconnect TikTok when its token is revoked, and posts nothing", { timeout: 60_000 }, async () => {
    const { user, cookie } = await creatorWithVideo({ bytes: 2 * MB });
    await connect("tiktok", cookie);
    const c = await connections(cookie);
    const hook = await webhookReceiver(user.id, ["post.failed"]);
    const before = tiktok.posts.size;
    tiktok.revokeAll = true;
    tiktok.expireAccessTokens();
    try {
      const response = await send(postsAction, "POST", "/api/platforms/posts", cookie, { posts: [tiktokEntry(c.tiktok.id)] });
      expect(response.status).toBe(201);
      const [post] = await waitForPosts(cookie, finished);
      expect(post).toMatchObject({ status: "failed", error: "Your TikTok connection is no longer valid. Reconnect TikTok in Settings." });
      expect(tiktok.posts.size).toBe(before);
      expect((await connections(cookie)).tiktok.needsReconnect).toBe(true);
      // the webhook event says so too
      await expect.poll(() => hook.received.length, { timeout: 20_000 }).toBe(1);
      expect(hook.received[0]).toMatchObject({ type: "post.failed", data: { platform: "tiktok", status: "failed", error: "Your TikTok connection is no longer valid. Reconnect TikTok in Settings." } });
    } finally {
      tiktok.revokeAll = false;
      hook.close();
    }
  });
});

describe("scheduling and the platforms' rules", () => {
  it("waits for a scheduled post's time, and a scheduled post cancelled before its time is never sent", { timeout: 60_000 }, async () => {
    const { cookie } = await creatorWithVideo({ bytes: 2 * MB });
    await connect("instagram", cookie);
    const c = await connections(cookie);
    const before = instagram.containers.size;
    const later = new Date(Date.now() + 3600_000).toISOString();
    // a post for later, moved, then cancelled before its time: never sent (and a cancelled post does not block another)
    const second = (await (await send(postsAction, "POST", "/api/platforms/posts", cookie, { posts: [instagramEntry(c.instagram.id, { scheduledAt: later })] })).json()) as { posts: { id: string }[] };
    const id = second.posts[0]!.id;
    // an empty move is refused (it does not mean "now"), and so is a time beyond 50 days
    const empty = await send(postAction, "PATCH", `/api/platforms/posts/${id}`, cookie, {}, { id });
    expect(empty.status).toBe(400);
    const tooFar = await send(postAction, "PATCH", `/api/platforms/posts/${id}`, cookie, { scheduledAt: new Date(Date.now() + 51 * 86400_000).toISOString() }, { id });
    expect(tooFar.status).toBe(400);
    expect(await tooFar.json()).toMatchObject({ field: "scheduledAt", message: expect.stringContaining("at most 50 days ahead") });
    const moved = await send(postAction, "PATCH", `/api/platforms/posts/${id}`, cookie, { scheduledAt: new Date(Date.now() + 7200_000).toISOString() }, { id });
    expect(moved.status).toBe(200);
    const cancelled = await callRoute(postAction, new Request(`${APP}/api/platforms/posts/${id}`, { method: "DELETE", headers: { Cookie: cookie } }), { id });
    expect(cancelled.status).toBe(200);
    await waitForPosts(cookie, (p) => p.some((x) => x.status === "cancelled"));
    const result = await worker.client.workflow.getHandle(platformPostWorkflowId(id)).result().catch((e: Error) => e);
    expect(result).toBeInstanceOf(Error);
    expect(instagram.containers.size).toBe(before);

    // a few seconds from now, taken now: taken at the test's start, a loaded machine had passed it by here (CI: the
    // request was refused, "The scheduled time must be in the future.")
    const soonAt = Date.now() + 8000;
    const scheduled = await send(postsAction, "POST", "/api/platforms/posts", cookie, { posts: [instagramEntry(c.instagram.id, { scheduledAt: new Date(soonAt).toISOString() })] });
    expect(scheduled.status).toBe(201);
    const first = (await scheduled.json()) as { posts: { id: string; status: string }[] };
    expect(first.posts[0]!.status).toBe("scheduled");
    // the same request again (a retry) is refused with the post it would repeat, while scheduled and once published
    const retried = await send(postsAction, "POST", "/api/platforms/posts", cookie, { posts: [instagramEntry(c.instagram.id)] });
    expect(retried.status).toBe(409);
    expect(await retried.json()).toMatchObject({ field: "connectionId", postId: first.posts[0]!.id });
    // nothing is sent before the time (read while it is still before it)
    await new Promise((r) => setTimeout(r, 1000));
    const sentBeforeTheTime = instagram.containers.size;
    expect(Date.now()).toBeLessThan(soonAt);
    expect(sentBeforeTheTime).toBe(before);
    const posts = await waitForPosts(cookie, (p) => p.some((x) => x.status === "published"));
    expect(posts.filter((p) => p.status === "published")).toHaveLength(1);
    expect(instagram.containers.size).toBe(before + 1);
    const afterwards = await send(postsAction, "POST", "/api/platforms/posts", cookie, { posts: [instagramEntry(c.instagram.id)] });
    expect(afterwards.status).toBe(409);
    expect(instagram.containers.size).toBe(before + 1);

    // a post that is no longer scheduled cannot be changed
    const again = await callRoute(postAction, new Request(`${APP}/api/platforms/posts/${id}`, { method: "DELETE", headers: { Cookie: cookie } }), { id });
    expect(again.status).toBe(409);
  });

  it("refuses a 20-minute 16:9 video for TikTok and Reels with the reasons, and an unaudited app's public TikTok post", async () => {
    const { cookie } = await creatorWithVideo({ bytes: 1024, durationSeconds: 1200, width: 1920, height: 1080 });
    await connect("tiktok", cookie);
    await connect("instagram", cookie);
    const c = await connections(cookie);
    const beforeTikTok = tiktok.posts.size;
    const beforeInstagram = instagram.containers.size;
    const response = await send(postsAction, "POST", "/api/platforms/posts", cookie, { posts: [tiktokEntry(c.tiktok.id), instagramEntry(c.instagram.id)] });
    expect(response.status).toBe(422);
    const body = (await response.json()) as { message: string; refused: { platform: string; reasons: string[] }[] };
    expect(body.refused.find((r) => r.platform === "tiktok")!.reasons).toContain("TikTok lets this account post videos of at most 10 minutes; this one is 20 minutes.");
    expect(body.refused.find((r) => r.platform === "instagram")!.reasons).toContain("Instagram Reels are at most 15 minutes; this video is 20 minutes.");
    expect(tiktok.posts.size).toBe(beforeTikTok);
    expect(instagram.containers.size).toBe(beforeInstagram);
    // YouTube takes the same video: its pre-flight, on the facts the Upload page reads, blocks nothing
    const facts = (await (await get(youtubePreflightRoute, "/api/youtube/preflight", cookie)).json()) as Parameters<typeof preflightChecks>[0];
    expect(facts.video).toMatchObject({ durationSeconds: 1200, width: 1920, height: 1080 });
    const youtubeChecks = preflightChecks({ ...facts, title: "Bees and Their Dances", description: "", tags: [], publishAt: null, now: new Date() });
    expect(blockingItems(youtubeChecks)).toEqual([]);
    expect(youtubeChecks.find((i) => i.id === "duration")).toMatchObject({ status: "pass", detail: "20:00" });

    // TikTok's guidelines: no default privacy, and the consent line must be agreed to
    const noPrivacy = await send(postsAction, "POST", "/api/platforms/posts", cookie, { posts: [tiktokEntry(c.tiktok.id, { tiktok: { mode: "direct", privacyLevel: null, consent: true } })] });
    expect(noPrivacy.status).toBe(400);
    expect(((await noPrivacy.json()) as { message: string }).message).toContain("Choose who can see the TikTok post.");
    const noConsent = await send(postsAction, "POST", "/api/platforms/posts", cookie, { posts: [tiktokEntry(c.tiktok.id, { tiktok: { mode: "direct", privacyLevel: "SELF_ONLY", consent: false } })] });
    expect(noConsent.status).toBe(400);

    // an unaudited app may only post privately
    const shortOne = await creatorWithVideo({ bytes: 1024 });
    await connect("tiktok", shortOne.cookie);
    const own = await connections(shortOne.cookie);
    const publicPost = await send(postsAction, "POST", "/api/platforms/posts", shortOne.cookie, {
      posts: [tiktokEntry(own.tiktok.id, { tiktok: { mode: "direct", privacyLevel: "PUBLIC_TO_EVERYONE", consent: true } })],
    });
    expect(publicPost.status).toBe(422);
    expect(((await publicPost.json()) as { message: string }).message).toContain("can only be private (Only me)");

    // another creator's account is unknown here
    const stranger = await send(postsAction, "POST", "/api/platforms/posts", cookie, { posts: [tiktokEntry(own.tiktok.id)] });
    expect(stranger.status).toBe(404);
  });
});

describe("posts whose account or project goes", () => {
  /** The post's workflow has ended (cancelled or terminated), or was never started. */
  async function workflowEnded(postId: string) {
    const status = await worker.client.workflow
      .getHandle(platformPostWorkflowId(postId))
      .describe()
      .then((d) => d.status.name);
    return status !== "RUNNING";
  }

  it("stops a scheduled post's workflow when its account is disconnected or its project deleted", { timeout: 60_000 }, async () => {
    const soon = () => new Date(Date.now() + 4000).toISOString();
    const a = await creatorWithVideo({ bytes: 1024 * 1024 });
    await connect("instagram", a.cookie);
    const before = instagram.containers.size;
    const ca = await connections(a.cookie);
    const pa = (await (await send(postsAction, "POST", "/api/platforms/posts", a.cookie, { posts: [instagramEntry(ca.instagram.id, { scheduledAt: soon() })] })).json()) as { posts: { id: string }[] };
    const gone = await callRoute(connectionAction, new Request(`${APP}/api/platforms/connections/${ca.instagram.id}`, { method: "DELETE", headers: { Cookie: a.cookie } }), { id: ca.instagram.id });
    expect(gone.status).toBe(200);
    expect(await gone.json()).toMatchObject({ postsDropped: 1 });
    expect(await workflowEnded(pa.posts[0]!.id)).toBe(true);
    expect(await prisma.platformPost.count({ where: { id: pa.posts[0]!.id } })).toBe(0);

    const b = await creatorWithVideo({ bytes: 1024 * 1024 });
    await connect("instagram", b.cookie);
    const cb = await connections(b.cookie);
    const pb = (await (await send(postsAction, "POST", "/api/platforms/posts", b.cookie, { posts: [instagramEntry(cb.instagram.id, { scheduledAt: soon() })] })).json()) as { posts: { id: string }[] };
    await deleteProject(b.user.id, b.project.id);
    expect(await workflowEnded(pb.posts[0]!.id)).toBe(true);

    // past both posts' time: nothing was sent to Instagram
    await new Promise((r) => setTimeout(r, 5000));
    expect(instagram.containers.size).toBe(before);
  });

  it("two refreshes of one TikTok connection at once both get a working token (TikTok rotates the refresh token)", { timeout: 30_000 }, async () => {
    const { user, cookie } = await creatorWithVideo({ bytes: 1024 });
    await connect("tiktok", cookie);
    const c = await connections(cookie);
    // both calls had the same token refused; whichever refreshes second finds the first one's token and uses it
    const spent = await platformAccessToken(user.id, c.tiktok.id);
    const [one, two] = await Promise.all([platformAccessToken(user.id, c.tiktok.id, { refused: spent }), platformAccessToken(user.id, c.tiktok.id, { refused: spent })]);
    expect(one).not.toBe(spent);
    expect(one).toBe(two);
    expect((await connections(cookie)).tiktok.needsReconnect).toBe(false);
    // the saved refresh token is the rotated one: a later refresh works
    await expect(platformAccessToken(user.id, c.tiktok.id, { refused: one })).resolves.not.toBe(one);
  });
});

describe("/api/v1", () => {
  it("posts a finished video to TikTok and Instagram in one call of the typed client, and lists the posts", { timeout: 60_000 }, async () => {
    const { user, cookie, project, sha256 } = await creatorWithVideo({ bytes: 3 * MB });
    await connect("tiktok", cookie);
    await connect("instagram", cookie);
    const c = await connections(cookie);
    const run = await prisma.videoRun.create({ data: { userId: user.id, projectId: project.id, options: {}, status: "completed", stage: "done", percent: 100 } });
    const api = await apiV1Client((await createApiToken(user.id, { name: "poster", scope: "full", expiresInDays: 7 })).token);
    const hook = await webhookReceiver(user.id, ["post.published"]);
    const validator = await openApiValidator();

    const { data, response } = await api.POST("/api/v1/videos/{id}/posts", {
      params: { path: { id: run.id } },
      body: {
        posts: [
          { platform: "tiktok", connectionId: c.tiktok.id, caption: "From the API #bees", tiktok: { mode: "direct", privacyLevel: "SELF_ONLY", consent: true } },
          { platform: "instagram", connectionId: c.instagram.id, caption: "From the API #bees" },
        ],
      },
    });
    expect(response.status).toBe(201);
    validator.check("POST", "/api/v1/videos/{id}/posts", 201, data);
    expect(data!.posts.map((p) => p.platform).sort()).toEqual(["instagram", "tiktok"]);

    await waitForPosts(cookie, finished);
    const listed = await api.GET("/api/v1/videos/{id}/posts", { params: { path: { id: run.id } } });
    validator.check("GET", "/api/v1/videos/{id}/posts", 200, listed.data);
    expect(listed.data!.posts.map((p) => p.status)).toEqual(["published", "published"]);
    expect([...tiktok.posts.values()].filter((p) => p.postInfo?.title === "From the API #bees").map((p) => p.sha256)).toEqual([sha256]);
    expect([...instagram.containers.values()].filter((x) => x.caption === "From the API #bees").map((x) => x.sha256)).toEqual([sha256]);
    // one post.published event per post, with its link when the platform gave one
    await expect.poll(() => hook.received.length, { timeout: 20_000 }).toBe(2);
    hook.close();
    expect(hook.received.map((e) => [e.type, e.data.platform, e.data.status]).sort()).toEqual([
      ["post.published", "instagram", "published"],
      ["post.published", "tiktok", "published"],
    ]);
    expect(hook.received.find((e) => e.data.platform === "instagram")!.data.permalink).toMatch(/^https:\/\/www\.instagram\.com\/reel\//);

    // another creator's video id is unknown to this token
    const stranger = await createTestUser();
    const strangerApi = await apiV1Client((await createApiToken(stranger.id, { name: "other", scope: "full", expiresInDays: 7 })).token);
    const refused = await strangerApi.GET("/api/v1/videos/{id}/posts", { params: { path: { id: run.id } } });
    expect(refused.response.status).toBe(404);
  });
});

describe("MCP", () => {
  it("lists the accounts and posts a finished video to TikTok and Instagram in one call of the SDK's client", { timeout: 60_000 }, async () => {
    const { user, cookie, project, sha256 } = await creatorWithVideo({ bytes: 2 * MB });
    await connect("tiktok", cookie);
    await connect("instagram", cookie);
    const run = await prisma.videoRun.create({ data: { userId: user.id, projectId: project.id, options: {}, status: "completed", stage: "done", percent: 100 } });
    // the MCP endpoint's handler for this creator, served over HTTP as the SDK's client expects
    const server = (await import("node:http")).createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
      const answer = await handleMcpRequest(new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body: req.method === "POST" ? Buffer.concat(chunks) : undefined }), { userId: user.id, via: "token", scope: "full" });
      res.writeHead(answer.status, Object.fromEntries(answer.headers.entries()));
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const client = new Client({ name: "test", version: "1.0.0" });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`)));
      const listed = await client.callTool({ name: "list_social_accounts", arguments: {} });
      const { accounts } = JSON.parse((listed.content as { text: string }[])[0]!.text) as { accounts: { id: string; platform: string }[] };
      const byPlatform = Object.fromEntries(accounts.map((a) => [a.platform, a.id]));
      const posted = await client.callTool({
        name: "post_video",
        arguments: {
          id: run.id,
          posts: [
            { platform: "tiktok", connectionId: byPlatform.tiktok, caption: "From MCP #bees", tiktok: { privacyLevel: "SELF_ONLY", consent: true } },
            { platform: "instagram", connectionId: byPlatform.instagram, caption: "From MCP #bees" },
          ],
        },
      });
      expect(posted.isError).toBeFalsy();
      await waitForPosts(cookie, (p) => p.length === 2 && finished(p));
      expect([...tiktok.posts.values()].filter((p) => p.postInfo?.title === "From MCP #bees").map((p) => p.sha256)).toEqual([sha256]);
      expect([...instagram.containers.values()].filter((x) => x.caption === "From MCP #bees").map((x) => x.sha256)).toEqual([sha256]);
    } finally {
      await client.close();
      server.close();
    }
  });
});

describe("the CLI", () => {
  it("posts a finished video with --platforms tiktok,instagram, and says what TikTok needs first", { timeout: 90_000 }, async () => {
    const { user, cookie, project, sha256 } = await creatorWithVideo({ bytes: 2 * MB });
    await connect("tiktok", cookie);
    await connect("instagram", cookie);
    const run = await prisma.videoRun.create({ data: { userId: user.id, projectId: project.id, options: {}, status: "completed", stage: "done", percent: 100 } });
    const { token } = await createApiToken(user.id, { name: "cli", scope: "full", expiresInDays: 7 });
    const server = await startApiV1Server();
    const cli = (args: string[]) =>
      promisify(execFile)(process.execPath, [fileURLToPath(new URL("../../bin/reelsmith.mjs", import.meta.url)), ...args], {
        env: { ...process.env, REELSMITH_URL: server.url, REELSMITH_TOKEN: token, REELSMITH_CONFIG: "/nonexistent/reelsmith.json" },
        timeout: 60_000,
      });
    try {
      // TikTok's consent and a privacy choice are the creator's to give: refused before anything is sent
      const refused = await cli(["post", run.id, "--platforms", "tiktok,instagram", "--caption", "From the CLI #bees"]).catch((e: { stderr: string; code: number }) => e);
      expect((refused as { code: number }).code).not.toBe(0);
      expect((refused as { stderr: string }).stderr).toContain("--agree-music-usage");

      const { stdout } = await cli(["post", run.id, "--platforms", "tiktok,instagram", "--caption", "From the CLI #bees", "--tiktok-privacy", "SELF_ONLY", "--agree-music-usage", "--json"]);
      const result = JSON.parse(stdout) as { posts: { platform: string }[]; refused: unknown[] };
      expect(result.posts.map((p) => p.platform).sort()).toEqual(["instagram", "tiktok"]);
      await waitForPosts(cookie, (p) => p.length === 2 && finished(p));
      expect([...tiktok.posts.values()].filter((p) => p.postInfo?.title === "From the CLI #bees").map((p) => p.sha256)).toEqual([sha256]);
      expect([...instagram.containers.values()].filter((x) => x.caption === "From the CLI #bees").map((x) => x.sha256)).toEqual([sha256]);
    } finally {
      server.close();
    }
  });
});
