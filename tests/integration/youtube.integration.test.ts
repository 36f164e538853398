// The YouTube stage end to end against a local fake of Google (tests/fakes/youtube.ts) with the real googleapis /
// google-auth-library code, real PostgreSQL and a real Temporal worker: connecting, uploading with progress, the
// thumbnail, scheduling, token refresh, a cut connection resumed from the last acknowledged byte, the quota
// error, a revoked grant, the caption track (captions.insert) and the pre-flight check, and one creator kept out of
// another's video and tokens.
import { fake, YOUTUBE_TEST_CHUNK } from "../support/youtube-fake";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/core/db.server";
import { decryptSecret } from "~/core/encryption.server";
import { loader as authStatus } from "~/routes/publish/api.youtube.auth-status";
import { loader as callbackRoute } from "~/routes/publish/api.youtube.oauth.callback";
import { loader as categoriesRoute } from "~/routes/publish/api.youtube.categories";
import { action as preferredCategory } from "~/routes/publish/api.youtube.preferred-category";
import { action as uploadRoute } from "~/routes/publish/api.youtube.upload";
import { loader as uploadStatus } from "~/routes/publish/api.youtube.upload-status";
import { loader as preflightRoute } from "~/routes/publish/api.youtube.preflight";
import { action as disconnectRoute } from "~/routes/publish/api.youtube.disconnect";
import { loader as mediaRoute } from "~/routes/projects/api.media.$id";
import { FAKE_CHANNEL } from "../fakes/youtube";
import { toSrt } from "~/lib/caption-track";
import { CAPTIONS_NEED_RECONNECT } from "~/lib/youtube";
import { APP, connectYoutube, saveOAuthClient, seedRenderedProject } from "../fixtures/youtube-project";
import { createTestUser, sessionCookieFor } from "../support/auth";
import { callRoute } from "../support/routes";
import { startTestWorker } from "../support/temporal";

const CHUNK = YOUTUBE_TEST_CHUNK;

let worker: Awaited<ReturnType<typeof startTestWorker>>;
beforeAll(async () => {
  worker = await startTestWorker();
});
afterAll(async () => {
  await worker?.stop();
  await fake.stop();
  await prisma.$disconnect();
});

async function connectedCreator(options: { videoBytes: number; thumbnail?: boolean }) {
  const user = await createTestUser();
  const cookie = await sessionCookieFor(user.id);
  await saveOAuthClient(user.id);
  const connection = await connectYoutube(cookie);
  expect(connection.page.status).toBe(200);
  const seeded = await seedRenderedProject(user.id, options);
  return { user, cookie, ...seeded };
}

const get = (fn: Parameters<typeof callRoute>[0], path: string, cookie: string) => callRoute(fn, new Request(`${APP}${path}`, { headers: { Cookie: cookie } }));
const send = (fn: Parameters<typeof callRoute>[0], method: string, path: string, cookie: string, body: unknown) =>
  callRoute(fn, new Request(`${APP}${path}`, { method, headers: { Cookie: cookie, "Content-Type": "application/json" }, body: JSON.stringify(body) }));

const uploadBody = (videoPath: string, extra: Record<string, unknown> = {}) => ({
  videoPath,
  title: "Bees and Their Dances",
  description: "How honeybees tell each other where the flowers are.",
  tags: [" bees", "honey ", "", "  ", "waggle dance"],
  privacyStatus: "public",
  categoryId: "28",
  ...extra,
});

describe("connecting YouTube", () => {
  it("sends the creator to Google with offline access, both scopes, PKCE and a state; stores the tokens encrypted", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    expect(await (await get(authStatus, "/api/youtube/auth-status", cookie)).json()).toMatchObject({ isAuthenticated: false, hasOAuthClient: false });
    await saveOAuthClient(user.id);

    const { authUrl, page, html } = await connectYoutube(cookie);
    const url = new URL(authUrl);
    expect(url.origin + url.pathname).toBe(`${fake.url}/o/oauth2/v2/auth`);
    expect(url.searchParams.get("access_type")).toBe("offline");
    expect(url.searchParams.get("scope")?.split(" ")).toEqual([
      "https://www.googleapis.com/auth/youtube.upload",
      "https://www.googleapis.com/auth/youtube.readonly",
      // captions.insert (the caption track sent with the video) asks for this one
      "https://www.googleapis.com/auth/youtube.force-ssl",
    ]);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get("state")).toMatch(/^[\w-]{40,}$/);
    expect(url.searchParams.get("redirect_uri")).toBe(`${APP}/api/youtube/oauth/callback`);
    expect(page.status).toBe(200);
    expect(html).toContain("YouTube connected");
    expect(html).toContain(FAKE_CHANNEL.title);
    expect(html).toContain("window.close()");

    const row = await prisma.youtubeConnection.findUniqueOrThrow({ where: { userId: user.id } });
    expect(row.accessTokenEnc).not.toContain("ya29.");
    expect(decryptSecret(row.accessTokenEnc, { userId: user.id, field: "youtubeAccessToken" })).toMatch(/^ya29\./);
    expect(decryptSecret(row.refreshTokenEnc!, { userId: user.id, field: "youtubeRefreshToken" })).toMatch(/^1\/\//);
    expect(row.channelTitle).toBe(FAKE_CHANNEL.title);
    // the verifier the client kept matched the challenge (the fake checks it), and the state is used up
    expect(await prisma.youtubeOAuthRequest.count({ where: { userId: user.id } })).toBe(0);
    expect(await (await get(authStatus, "/api/youtube/auth-status", cookie)).json()).toMatchObject({
      isAuthenticated: true,
      needsReconnect: false,
      channelTitle: FAKE_CHANNEL.title,
    });
  });

  it("refuses a callback from another browser session than the one that started it", async () => {
    const user = await createTestUser();
    const started = await sessionCookieFor(user.id);
    const other = await sessionCookieFor(user.id);
    await saveOAuthClient(user.id);
    const { loader: authorize } = await import("~/routes/publish/api.youtube.oauth.authorize");
    const { authUrl } = (await (await get(authorize, "/api/youtube/oauth/authorize", started)).json()) as { authUrl: string };
    const back = (await fetch(authUrl, { redirect: "manual" })).headers.get("location")!;
    const page = await callRoute(callbackRoute, new Request(back, { headers: { Cookie: other } }));
    expect(page.status).toBe(400);
    expect(await page.text()).toContain("not started from this browser session");
    expect(await prisma.youtubeConnection.count({ where: { userId: user.id } })).toBe(0);
  });

  it("says what to do when no OAuth client is saved", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    const { loader: authorize } = await import("~/routes/publish/api.youtube.oauth.authorize");
    const response = await get(authorize, "/api/youtube/oauth/authorize", cookie);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toMatch(/Google OAuth client ID and secret in Settings/);
  });

  it("lists the allowed categories with YouTube's names, and saves the default", async () => {
    const { cookie } = await connectedCreator({ videoBytes: 1000 });
    const body = (await (await get(categoriesRoute, "/api/youtube/categories", cookie)).json()) as {
      categories: { id: string; title: string }[];
      preferredCategoryId: string;
      source: string;
    };
    expect(body.source).toBe("youtube");
    expect(body.categories.map((c) => c.id)).toEqual(["1", "2", "10", "15", "17", "19", "20", "22", "23", "24", "25", "26", "27", "28"]);
    expect(body.categories.find((c) => c.id === "27")?.title).toBe("Education");
    expect(body.preferredCategoryId).toBe("24");
    expect((await send(preferredCategory, "PUT", "/api/youtube/preferred-category", cookie, { categoryId: "99" })).status).toBe(400);
    expect((await send(preferredCategory, "PUT", "/api/youtube/preferred-category", cookie, { categoryId: "27" })).status).toBe(200);
    expect(((await (await get(categoriesRoute, "/api/youtube/categories", cookie)).json()) as { preferredCategoryId: string }).preferredCategoryId).toBe("27");
  });
});

describe("uploading", () => {
  it("uploads the video in chunks with live progress, then sets the approved thumbnail", async () => {
    const size = 5 * CHUNK + 12_345;
    const { cookie, video, user } = await connectedCreator({ videoBytes: size, thumbnail: true });
    fake.chunkDelayMs = 250;
    const seen: number[] = [];
    let polling = true;
    const poll = (async () => {
      while (polling) {
        const status = (await (await get(uploadStatus, "/api/youtube/upload-status", cookie)).json()) as { status: string; percent: number };
        if (status.status === "uploading") seen.push(status.percent);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const response = await send(uploadRoute, "POST", "/api/youtube/upload", cookie, uploadBody(video.videoUrl!));
    polling = false;
    await poll;
    fake.chunkDelayMs = 0;
    expect(response.status).toBe(200);
    const result = (await response.json()) as { videoId: string; url: string; thumbnailSet: boolean };
    expect(result.videoId).toMatch(/^[\w-]{11}$/);
    expect(result.url).toBe(`https://www.youtube.com/watch?v=${result.videoId}`);
    expect(result.thumbnailSet).toBe(true);

    const uploaded = fake.videos.get(result.videoId)!;
    expect(uploaded.bytes).toBe(size);
    expect(uploaded.resource.snippet).toMatchObject({ title: "Bees and Their Dances", tags: ["bees", "honey", "waggle dance"], categoryId: "28" });
    // left out of the body, the AI-made declaration follows what made the video (decision 240): this seeded video
    // has no AI-made scene, so it is not declared; the schedule test below declares one by asking
    expect(uploaded.resource.status).toMatchObject({ privacyStatus: "public", selfDeclaredMadeForKids: false, containsSyntheticMedia: false });
    expect(uploaded.thumbnail?.bytes).toBeGreaterThan(1000);
    expect(uploaded.thumbnail?.contentType).toMatch(/image\/png/);
    // six PUTs of at most one chunk each; the page saw the bytes move
    const puts = fake.requestsTo(/^\/upload\/youtube\/v3\/videos$/, "PUT").filter((r) => r.query.get("upload_id") === [...fake.sessions.values()].at(-1)!.id);
    expect(puts.length).toBe(6);
    expect(seen.some((p) => p > 0 && p < 100)).toBe(true);

    const row = await prisma.youtubeUpload.findFirstOrThrow({ where: { project: { userId: user.id } } });
    expect(row).toMatchObject({ status: "completed", progress: 100, youtubeVideoId: result.videoId, thumbnailSet: true, sessionUriEnc: null });
    const status = (await (await get(uploadStatus, "/api/youtube/upload-status", cookie)).json()) as Record<string, unknown>;
    expect(status).toMatchObject({ status: "completed", percent: 100, videoId: result.videoId });
  });

  it("schedules: the video goes up private with publishAt, and lastScheduleDate moves to it", async () => {
    const { cookie, video, user } = await connectedCreator({ videoBytes: 40_000 });
    const publishAt = new Date(Date.now() + 3 * 24 * 3600 * 1000);
    publishAt.setUTCSeconds(0, 0);
    const response = await send(uploadRoute, "POST", "/api/youtube/upload", cookie, uploadBody(video.videoUrl!, { publishAt: publishAt.toISOString(), privacyStatus: "public", containsSyntheticMedia: true }));
    expect(response.status).toBe(200);
    const { videoId } = (await response.json()) as { videoId: string };
    expect(fake.videos.get(videoId)!.resource.status).toMatchObject({ privacyStatus: "private", publishAt: publishAt.toISOString(), containsSyntheticMedia: true });
    const settings = await prisma.userSettings.findUniqueOrThrow({ where: { userId: user.id } });
    expect(settings.lastScheduleDate?.toISOString()).toBe(publishAt.toISOString());
  });

  it("refreshes an expired access token before uploading, and keeps the new one encrypted", async () => {
    const { cookie, video, user } = await connectedCreator({ videoBytes: 40_000 });
    const before = await prisma.youtubeConnection.findUniqueOrThrow({ where: { userId: user.id } });
    fake.expireAccessTokens();
    await prisma.youtubeConnection.update({ where: { userId: user.id }, data: { expiresAt: new Date(Date.now() - 60_000) } });
    const refreshesBefore = fake.requestsTo(/^\/token$/).length;
    const response = await send(uploadRoute, "POST", "/api/youtube/upload", cookie, uploadBody(video.videoUrl!));
    expect(response.status).toBe(200);
    expect(fake.requestsTo(/^\/token$/).length).toBeGreaterThan(refreshesBefore);
    const after = await prisma.youtubeConnection.findUniqueOrThrow({ where: { userId: user.id } });
    expect(decryptSecret(after.accessTokenEnc, { userId: user.id, field: "youtubeAccessToken" })).not.toBe(decryptSecret(before.accessTokenEnc, { userId: user.id, field: "youtubeAccessToken" }));
    expect(after.expiresAt!.getTime()).toBeGreaterThan(Date.now());
  });

  it("resumes from the last acknowledged byte when the connection is cut mid-chunk", async () => {
    const size = 4 * CHUNK;
    const { cookie, video } = await connectedCreator({ videoBytes: size });
    const receivedBefore = fake.uploadBytesReceived;
    const sessionsBefore = fake.sessions.size;
    fake.cutNextChunkAfterBytes = 100_000;
    const response = await send(uploadRoute, "POST", "/api/youtube/upload", cookie, uploadBody(video.videoUrl!));
    expect(response.status).toBe(200);
    const { videoId } = (await response.json()) as { videoId: string };
    expect(fake.videos.get(videoId)!.bytes).toBe(size);
    expect(fake.sessions.size).toBe(sessionsBefore + 1); // the same session went on
    const received = fake.uploadBytesReceived - receivedBefore;
    // what was cut is sent again at most once: never more than one chunk beyond the file
    expect(received).toBeGreaterThan(size);
    expect(received).toBeLessThanOrEqual(size + CHUNK);
    const session = [...fake.sessions.values()].at(-1)!;
    const statusQueries = fake.requests.filter((r) => r.query.get("upload_id") === session.id && r.bodyBytes === 0 && r.method === "PUT");
    expect(statusQueries.length).toBeGreaterThanOrEqual(1);
  });

  it("resumes a failed chunk once within an attempt; failing again ends the attempt and Temporal's next one resumes (decision 201)", async () => {
    const size = 3 * CHUNK;
    const { cookie, video, project } = await connectedCreator({ videoBytes: size });
    const sessionsBefore = fake.sessions.size;
    fake.failChunks = 2;
    const response = await send(uploadRoute, "POST", "/api/youtube/upload", cookie, uploadBody(video.videoUrl!));
    expect(response.status).toBe(200);
    const { videoId } = (await response.json()) as { videoId: string };
    expect(fake.videos.get(videoId)!.bytes).toBe(size);
    expect(fake.sessions.size).toBe(sessionsBefore + 1);
    const session = [...fake.sessions.values()].at(-1)!;
    const firstChunkPuts = fake.requests.filter((r) => r.query.get("upload_id") === session.id && r.method === "PUT" && r.bodyBytes > 0 && r.headers["content-range"]?.startsWith("bytes 0-"));
    // attempt 1 sends it, asks the offset, sends it again, and stops; attempt 2 asks the offset and sends it once
    expect(firstChunkPuts).toHaveLength(3);
    const history = await worker.client.workflow.getHandle(`youtube-upload-${project.id}`).fetchHistory();
    // the upload activity needed a second attempt (the others, one each)
    const attempts = (history.events ?? []).flatMap((e) => (e.activityTaskStartedEventAttributes ? [e.activityTaskStartedEventAttributes.attempt ?? 0] : []));
    expect(Math.max(...attempts)).toBe(2);
  });

  it("stops at once with a clear message when the quota is used up (no retry storm)", async () => {
    const { cookie, video, user } = await connectedCreator({ videoBytes: 40_000 });
    const startsBefore = fake.requestsTo(/^\/upload\/youtube\/v3\/videos$/, "POST").length;
    fake.quotaExceeded = 10;
    const response = await send(uploadRoute, "POST", "/api/youtube/upload", cookie, uploadBody(video.videoUrl!));
    fake.quotaExceeded = 0;
    expect(response.status).toBe(502);
    const { message } = (await response.json()) as { message: string };
    expect(message).toMatch(/daily YouTube Data API quota is used up/);
    expect(fake.requestsTo(/^\/upload\/youtube\/v3\/videos$/, "POST").length).toBe(startsBefore + 1);
    const row = await prisma.youtubeUpload.findFirstOrThrow({ where: { project: { userId: user.id } } });
    expect(row.status).toBe("error");
    expect(row.error).toMatch(/quota/);
    expect(await prisma.errorLog.count({ where: { userId: user.id, type: "youtube-upload" } })).toBe(1);
  });

  it("refuses an upload without a title, with the field named", async () => {
    const { cookie, video } = await connectedCreator({ videoBytes: 1000 });
    const response = await send(uploadRoute, "POST", "/api/youtube/upload", cookie, uploadBody(video.videoUrl!, { title: "   " }));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ field: "title", message: "title: Please enter a title for your video" });
  });
});

describe("the caption track and the pre-flight check", () => {
  const cues = [
    { startMs: 50, endMs: 1900, text: "Les abeilles dansent." },
    { startMs: 2000, endMs: 4100, text: "La danse montre\nle chemin des fleurs." },
  ];

  it("sends the caption track with captions.insert in the project's language, after the video", async () => {
    const { cookie, video, user, project } = await connectedCreator({ videoBytes: 40_000 });
    await prisma.project.update({ where: { id: project.id }, data: { language: "fr" } });
    await prisma.renderedVideo.update({ where: { id: video.id }, data: { captionCues: cues } });
    const response = await send(uploadRoute, "POST", "/api/youtube/upload", cookie, uploadBody(video.videoUrl!));
    expect(response.status).toBe(200);
    const result = (await response.json()) as { videoId: string; captionsSet: boolean };
    expect(result.captionsSet).toBe(true);
    const [caption, ...more] = fake.videos.get(result.videoId)!.captions;
    expect(more).toEqual([]);
    expect(caption).toMatchObject({ videoId: result.videoId, language: "fr", name: "Français", isDraft: false, contentType: "application/octet-stream" });
    expect(caption!.text).toBe(toSrt(cues));
    // the documented request shape: a multipart upload to /upload/youtube/v3/captions?part=snippet
    const [insert] = fake.requestsTo(/^\/upload\/youtube\/v3\/captions$/, "POST");
    expect(insert!.query.get("part")).toBe("snippet");
    expect(insert!.query.get("uploadType")).toBe("multipart");
    expect(String(insert!.headers["content-type"])).toMatch(/^multipart\/related; boundary=/);
    const row = await prisma.youtubeUpload.findFirstOrThrow({ where: { project: { userId: user.id } } });
    expect(row).toMatchObject({ captionTrackId: caption!.id, captionError: null });
    expect(await (await get(uploadStatus, "/api/youtube/upload-status", cookie)).json()).toMatchObject({ captionsSet: true, captionError: null });
  });

  it("a connection made before the captions scope: the video goes up, and the page says to reconnect for captions", async () => {
    const { cookie, video, user } = await connectedCreator({ videoBytes: 40_000 });
    await prisma.renderedVideo.update({ where: { id: video.id }, data: { captionCues: cues } });
    await prisma.youtubeConnection.update({
      where: { userId: user.id },
      data: { scope: "https://www.googleapis.com/auth/youtube.upload https://www.googleapis.com/auth/youtube.readonly" },
    });
    // the Upload page's pre-flight check says so before the upload
    const facts = (await (await get(preflightRoute, "/api/youtube/preflight", cookie)).json()) as { captionsAllowed: boolean; video: { captionCueCount: number } };
    expect(facts).toMatchObject({ captionsAllowed: false, video: { captionCueCount: 2 } });
    const inserts = fake.requestsTo(/^\/upload\/youtube\/v3\/captions$/).length;
    const response = await send(uploadRoute, "POST", "/api/youtube/upload", cookie, uploadBody(video.videoUrl!));
    expect(response.status).toBe(200);
    const { videoId, captionsSet } = (await response.json()) as { videoId: string; captionsSet: boolean };
    expect(captionsSet).toBe(false);
    expect(fake.videos.get(videoId)!.captions).toEqual([]);
    // no call that YouTube would refuse (and charge 400 units of quota for)
    expect(fake.requestsTo(/^\/upload\/youtube\/v3\/captions$/).length).toBe(inserts);
    expect(await (await get(uploadStatus, "/api/youtube/upload-status", cookie)).json()).toMatchObject({ status: "completed", captionsSet: false, captionError: CAPTIONS_NEED_RECONNECT });
  });

  it("refuses what YouTube would refuse, with the reason: a description over 5,000 bytes, tags over 500 characters as YouTube counts them", async () => {
    const { cookie, video } = await connectedCreator({ videoBytes: 40_000 });
    const sessions = fake.sessions.size;
    const bees = await send(uploadRoute, "POST", "/api/youtube/upload", cookie, uploadBody(video.videoUrl!, { description: "🐝".repeat(1300) }));
    expect(bees.status).toBe(400);
    expect(((await bees.json()) as { message: string; field: string }).message).toContain("Description size: The description is 5,200 bytes; YouTube takes at most 5,000.");
    // 493 characters joined with commas, 569 as YouTube counts them (quotes around each tag with a space)
    const tags = Array.from({ length: 38 }, (_, i) => `honey bee ${i + 10}`);
    const tagged = await send(uploadRoute, "POST", "/api/youtube/upload", cookie, uploadBody(video.videoUrl!, { tags }));
    expect(tagged.status).toBe(400);
    expect(((await tagged.json()) as { message: string }).message).toMatch(/Tags length: The tags take \d+ characters as YouTube counts them/);
    expect(fake.sessions.size).toBe(sessions);
  });
});

describe("a revoked grant", () => {
  it("shows as needing a reconnect, and an upload is refused until then", async () => {
    const { cookie, video, user } = await connectedCreator({ videoBytes: 1000 });
    fake.revokeAll();
    await prisma.youtubeConnection.update({ where: { userId: user.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await (await get(authStatus, "/api/youtube/auth-status", cookie)).json()).toMatchObject({ isAuthenticated: false, needsReconnect: true });
    const response = await send(uploadRoute, "POST", "/api/youtube/upload", cookie, uploadBody(video.videoUrl!));
    expect(response.status).toBe(409);
    expect(((await response.json()) as { message: string }).message).toMatch(/Connect YouTube again/);
    // connecting again clears it
    await connectYoutube(cookie);
    expect(await (await get(authStatus, "/api/youtube/auth-status", cookie)).json()).toMatchObject({ isAuthenticated: true });
    expect((await send(disconnectRoute, "POST", "/api/youtube/disconnect", cookie, {})).status).toBe(200);
    expect(await prisma.youtubeConnection.count({ where: { userId: user.id } })).toBe(0);
  });
});

describe("one creator cannot reach another's video or tokens", () => {
  it("keeps user B out of user A's video, upload status and YouTube connection", async () => {
    const a = await connectedCreator({ videoBytes: 40_000 });
    const bUser = await createTestUser();
    const b = await sessionCookieFor(bUser.id);
    await seedRenderedProject(bUser.id, { videoBytes: 1000, title: "B's own" });
    await saveOAuthClient(bUser.id);
    const uploadedByA = await send(uploadRoute, "POST", "/api/youtube/upload", a.cookie, uploadBody(a.video.videoUrl!));
    expect(uploadedByA.status).toBe(200);
    const videosBefore = fake.videos.size;

    // B names A's video: refused, and nothing reaches YouTube
    const refused = await send(uploadRoute, "POST", "/api/youtube/upload", b, uploadBody(a.video.videoUrl!));
    expect(refused.status).toBe(409); // B has no connection of its own; A's tokens are never used for B
    await connectYoutube(b);
    const stillRefused = await send(uploadRoute, "POST", "/api/youtube/upload", b, uploadBody(a.video.videoUrl!));
    expect(stillRefused.status).toBe(404);
    expect(await stillRefused.json()).toMatchObject({ field: "videoPath" });
    expect(fake.videos.size).toBe(videosBefore);

    // B reads only its own state
    expect(await (await get(uploadStatus, "/api/youtube/upload-status", b)).json()).toMatchObject({ status: "idle", videoId: null });
    const media = await callRoute(mediaRoute, new Request(`${APP}${a.video.videoUrl}`, { headers: { Cookie: b } }), { id: a.file.id });
    expect(media.status).toBe(404);
    const aTokens = await prisma.youtubeConnection.findUniqueOrThrow({ where: { userId: a.user.id } });
    const bTokens = await prisma.youtubeConnection.findUniqueOrThrow({ where: { userId: bUser.id } });
    expect(decryptSecret(bTokens.accessTokenEnc, { userId: bUser.id, field: "youtubeAccessToken" })).not.toBe(decryptSecret(aTokens.accessTokenEnc, { userId: a.user.id, field: "youtubeAccessToken" }));
    // B's thumbnail cannot be A's image either
    const { thumbnailUrl } = await seedRenderedProject(a.user.id, { videoBytes: 1000, thumbnail: true });
    const ownVideo = await prisma.renderedVideo.findFirstOrThrow({ where: { project: { userId: bUser.id } } });
    const thumb = await send(uploadRoute, "POST", "/api/youtube/upload", b, uploadBody(ownVideo.videoUrl!, { thumbnailUrl }));
    expect(thumb.status).toBe(404);
    expect(await thumb.json()).toMatchObject({ field: "thumbnailUrl" });
  });
});

it("answers 401 to a caller who is not signed in", async () => {
  const response = await callRoute(uploadRoute, new Request(`${APP}/api/youtube/upload`, { method: "POST", body: "{}" }));
  expect(response.status).toBe(401);
  const status = await callRoute(authStatus, new Request(`${APP}/api/youtube/auth-status`));
  expect(status.status).toBe(401);
});
