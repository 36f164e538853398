// Issue 51 on the YouTube fake: a video with a Spanish version goes up with the version's title and description as
// a Spanish localization (snippet.defaultLanguage set, the localizations part named) and the version's captions as
// a second caption track, in Spanish, after the original's.
import { fake } from "../support/youtube-fake";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toSrt } from "~/lib/caption-track";
import { prisma } from "~/core/db.server";
import { action as uploadRoute } from "~/routes/publish/api.youtube.upload";
import { APP, connectYoutube, saveOAuthClient, seedRenderedProject } from "../fixtures/youtube-project";
import { createTestUser, sessionCookieFor } from "../support/auth";
import { callRoute } from "../support/routes";
import { startTestWorker } from "../support/temporal";

let worker: Awaited<ReturnType<typeof startTestWorker>>;
beforeAll(async () => {
  worker = await startTestWorker();
});
afterAll(async () => {
  await worker?.stop();
  await fake.stop();
  await prisma.$disconnect();
});

const ENGLISH = [{ startMs: 50, endMs: 1900, text: "Bees dance." }];
const SPANISH = [
  { startMs: 50, endMs: 1900, text: "Las abejas bailan." },
  { startMs: 2000, endMs: 4100, text: "La danza muestra\nel camino de las flores." },
];

describe("a video with a version in another language, uploaded to YouTube", () => {
  it("carries the Spanish title and description as a localization and the Spanish captions as a second track", { timeout: 120_000 }, async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    await saveOAuthClient(user.id);
    expect((await connectYoutube(cookie)).page.status).toBe(200);
    const { project, video } = await seedRenderedProject(user.id, { videoBytes: 30_000 });
    await prisma.renderedVideo.update({ where: { id: video.id }, data: { captionCues: ENGLISH } });
    const version = await prisma.project.create({
      data: { userId: user.id, title: "Las abejas y sus danzas", topic: "x", resolution: "shorts", durationSeconds: 30, language: "es", sourceProjectId: project.id, derivedKind: "version" },
    });
    await prisma.renderedVideo.create({ data: { projectId: version.id, status: "completed", width: 1080, height: 1920, durationSeconds: 4.2, completedAt: new Date(), captionCues: SPANISH } });

    const response = await callRoute(
      uploadRoute,
      new Request(`${APP}/api/youtube/upload`, {
        method: "POST",
        headers: { Cookie: cookie, "Content-Type": "application/json" },
        body: JSON.stringify({ videoPath: video.videoUrl, title: "Bees and Their Dances", description: "The bees dance in the dark hive.", tags: ["bees"], privacyStatus: "public", categoryId: "28" }),
      }),
    );
    expect(response.status).toBe(200);
    const { videoId } = (await response.json()) as { videoId: string };
    const uploaded = fake.videos.get(videoId)!;
    expect(uploaded.resource.snippet).toMatchObject({ title: "Bees and Their Dances", defaultLanguage: "en" });
    expect(uploaded.resource.localizations?.es?.title).toBe("Las abejas y sus danzas");
    // the description translated offline by Apertium
    expect(uploaded.resource.localizations?.es?.description).toMatch(/abejas.*colmena/i);
    const [insert] = fake.requestsTo(/^\/upload\/youtube\/v3\/videos$/, "POST");
    expect(insert!.query.get("part")).toBe("snippet,status,localizations");
    expect(uploaded.captions.map((c) => [c.language, c.name])).toEqual([
      ["en", "English"],
      ["es", "Español"],
    ]);
    expect(uploaded.captions[1]!.text).toBe(toSrt(SPANISH));
  });

  it("YouTube stumbling on the Spanish track: the step is tried again and sends only the Spanish one (one English track)", { timeout: 120_000 }, async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    await saveOAuthClient(user.id);
    expect((await connectYoutube(cookie)).page.status).toBe(200);
    const { project, video } = await seedRenderedProject(user.id, { videoBytes: 20_000 });
    await prisma.renderedVideo.update({ where: { id: video.id }, data: { captionCues: ENGLISH } });
    const version = await prisma.project.create({
      data: { userId: user.id, title: "Las abejas", topic: "x", resolution: "shorts", durationSeconds: 30, language: "es", sourceProjectId: project.id, derivedKind: "version" },
    });
    await prisma.renderedVideo.create({ data: { projectId: version.id, status: "completed", width: 1080, height: 1920, durationSeconds: 4.2, completedAt: new Date(), captionCues: SPANISH } });
    fake.failCaptionInsertAfter = fake.captionsTaken + 1;

    const response = await callRoute(
      uploadRoute,
      new Request(`${APP}/api/youtube/upload`, {
        method: "POST",
        headers: { Cookie: cookie, "Content-Type": "application/json" },
        body: JSON.stringify({ videoPath: video.videoUrl, title: "Bees", description: "Bees dance.", tags: [], privacyStatus: "public", categoryId: "28" }),
      }),
    );
    expect(response.status).toBe(200);
    const { videoId } = (await response.json()) as { videoId: string };
    expect(fake.failCaptionInsertAfter, "the fake's stumble was used").toBeNull();
    expect(fake.videos.get(videoId)!.captions.map((c) => c.language)).toEqual(["en", "es"]);
    const upload = await prisma.youtubeUpload.findFirstOrThrow({ where: { projectId: project.id } });
    expect(upload).toMatchObject({ captionError: null, captionLanguagesSent: ["en", "es"] });
  });
});
