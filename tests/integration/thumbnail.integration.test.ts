// The thumbnail and metadata calls as the browser makes them, against real PostgreSQL and a
// real Temporal worker: a thumbnail is generated, stored, served to its owner only, and approved; the
// metadata stays within YouTube's limits; another user's projects, images and thumbnails answer 404/400.
import fs from "node:fs";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { action as approveAction } from "~/routes/publish/api.approve-thumbnail";
import { action as generateMetadataAction } from "~/routes/publish/api.generate-metadata";
import { action as generateThumbnailAction } from "~/routes/publish/api.generate-thumbnail";
import { loader as thumbnailsLoader } from "~/routes/publish/api.thumbnails";
import { loader as projectLoader } from "~/routes/projects/api.projects.$id";
import { loader as projectStoryboardLoader } from "~/routes/projects/api.projects.$id.storyboard";
import { loader as mediaLoader } from "~/routes/projects/api.media.$id";
import { loader as projectPageLoader } from "~/routes/publish/projects.$id";
import { prisma } from "~/core/db.server";
import { mediaFilePath } from "~/core/storage.server";
import { tagsLength } from "~/lib/upload-metadata";
import { chapterTimestamp, chaptersInDescription, validateChapters } from "~/lib/chapters";
import { sceneBoundaries, VIDEO_FPS } from "../../app/lib/timeline/timing";
import { seedRenderableProject } from "../fixtures/render-project";
import { createTestUser, sessionCookieFor } from "../support/auth";
import { callRoute } from "../support/routes";
import { startTestWorker } from "../support/temporal";

let testWorker: Awaited<ReturnType<typeof startTestWorker>>;
beforeAll(async () => {
  testWorker = await startTestWorker();
});
afterAll(async () => {
  await testWorker?.stop();
  await prisma.$disconnect();
});

const BASE = "http://localhost:3000";
function request(path: string, cookie: string, body?: unknown) {
  const headers = new Headers({ Cookie: cookie });
  if (body !== undefined) headers.set("Content-Type", "application/json");
  return new Request(`${BASE}${path}`, body === undefined ? { headers } : { method: "POST", headers, body: JSON.stringify(body) });
}

async function signedIn() {
  const user = await createTestUser();
  return { user, cookie: await sessionCookieFor(user.id) };
}

async function creatorWithProject() {
  const { user, cookie } = await signedIn();
  const { projectId } = await seedRenderableProject({ userId: user.id, sceneSeconds: [1, 1], title: "Secrets of the Deep Ocean" });
  const cells = await prisma.storyboardCell.findMany({ where: { storyboard: { projectId } }, orderBy: { cellIndex: "asc" } });
  return { user, cookie, projectId, imageUrl: cells[1]!.imageUrl! };
}

describe("POST /api/generate-thumbnail and /api/approve-thumbnail", () => {
  it("generates a 1280x720 PNG from a scene image, serves it to its owner and approves it", async () => {
    const a = await creatorWithProject();
    const response = await callRoute(
      generateThumbnailAction,
      request("/api/generate-thumbnail", a.cookie, { imageUrl: a.imageUrl, title: "Secrets of the Deep", cellIndex: 1, fontFamily: "Anton", fontValue: "anton", fontSize: 96 }),
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as { success: boolean; thumbnailUrl: string; error: null; fontSize: number };
    expect(body).toMatchObject({ success: true, error: null, fontSize: 96 });
    expect(body.thumbnailUrl).toMatch(/^\/api\/media\//);

    const file = await callRoute(mediaLoader, request(body.thumbnailUrl, a.cookie), { id: body.thumbnailUrl.split("/").pop()! });
    expect(file.headers.get("Content-Type")).toBe("image/png");
    const meta = await sharp(Buffer.from(await file.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([1280, 720]);

    const row = await prisma.thumbnail.findFirstOrThrow({ where: { projectId: a.projectId } });
    expect(row).toMatchObject({ thumbnailUrl: body.thumbnailUrl, title: "Secrets of the Deep", cellIndex: 1, fontFamily: "Anton", fontSize: 96, approved: false });

    const approved = await callRoute(approveAction, request("/api/approve-thumbnail", a.cookie, { thumbnailUrl: body.thumbnailUrl }));
    expect(approved.status).toBe(200);
    expect(await approved.json()).toMatchObject({ success: true, thumbnail: { approved: true } });

    // a second one, approved, takes over: one approved thumbnail per project
    const second = (await (
      await callRoute(generateThumbnailAction, request("/api/generate-thumbnail", a.cookie, { imageUrl: a.imageUrl, title: "Second", fontValue: "bangers" }))
    ).json()) as { thumbnailUrl: string; fontSize: number };
    expect(second.fontSize).toBe(72); // no size sent, none saved: the default
    await callRoute(approveAction, request("/api/approve-thumbnail", a.cookie, { thumbnailUrl: second.thumbnailUrl }));
    const rows = await prisma.thumbnail.findMany({ where: { projectId: a.projectId }, orderBy: { createdAt: "asc" } });
    expect(rows.map((r) => r.approved)).toEqual([false, true]);

    const workspace = (await (await callRoute(thumbnailsLoader, request(`/api/thumbnails?projectId=${a.projectId}`, a.cookie))).json()) as {
      images: unknown[];
      thumbnails: { approved: boolean; thumbnailUrl: string }[];
      defaultFont: string;
      defaultFontSize: number;
    };
    expect(workspace.images).toHaveLength(2);
    expect(workspace.thumbnails.find((t) => t.approved)?.thumbnailUrl).toBe(second.thumbnailUrl);
    expect([workspace.defaultFont, workspace.defaultFontSize]).toEqual(["bebas-neue", 72]);
  });

  it("uses the creator's saved font size when the request names none", async () => {
    const a = await creatorWithProject();
    await prisma.userSettings.create({ data: { userId: a.user.id, preferredThumbnailFont: "Russo One", preferredThumbnailFontSize: 100 } });
    const body = (await (await callRoute(generateThumbnailAction, request("/api/generate-thumbnail", a.cookie, { imageUrl: a.imageUrl, title: "Saved" }))).json()) as {
      fontSize: number;
    };
    expect(body.fontSize).toBe(100);
    expect(await prisma.thumbnail.findFirstOrThrow({ where: { projectId: a.projectId } })).toMatchObject({ fontFamily: "Russo One", fontSize: 100 });
  });

  it("refuses bad bodies with a message naming the field", async () => {
    const a = await creatorWithProject();
    for (const [body, field] of [
      [{ imageUrl: a.imageUrl, title: "" }, "title"],
      [{ imageUrl: a.imageUrl, title: "x", fontSize: 41 }, "fontSize"],
      [{ imageUrl: a.imageUrl, title: "x", fontValue: "comic-sans" }, "fontValue"],
      [{ title: "x" }, "imageUrl"],
      [{ imageUrl: "https://example.com/cat.png", title: "x" }, "imageUrl"],
    ] as const) {
      const response = await callRoute(generateThumbnailAction, request("/api/generate-thumbnail", a.cookie, body));
      expect(response.status, JSON.stringify(body)).toBe(400);
      const json = (await response.json()) as { message: string; field: string };
      expect(json.field).toBe(field);
      expect(json.message).toBeTruthy();
    }
  });

  it("gives another user nothing: not the project, its storyboard, its images or its thumbnails", async () => {
    const a = await creatorWithProject();
    const { thumbnailUrl } = (await (
      await callRoute(generateThumbnailAction, request("/api/generate-thumbnail", a.cookie, { imageUrl: a.imageUrl, title: "Mine", projectId: a.projectId }))
    ).json()) as { thumbnailUrl: string };
    const b = await creatorWithProject();

    expect((await callRoute(projectLoader, request(`/api/projects/${a.projectId}`, b.cookie), { id: a.projectId })).status).toBe(404);
    expect((await callRoute(projectStoryboardLoader, request(`/api/projects/${a.projectId}/storyboard`, b.cookie), { id: a.projectId })).status).toBe(404);
    expect((await callRoute(projectPageLoader, request(`/projects/${a.projectId}`, b.cookie), { id: a.projectId })).status).toBe(404);
    expect((await callRoute(thumbnailsLoader, request(`/api/thumbnails?projectId=${a.projectId}`, b.cookie))).status).toBe(404);
    // A's project with B's image, and B's project with A's image
    const intoA = await callRoute(generateThumbnailAction, request("/api/generate-thumbnail", b.cookie, { imageUrl: b.imageUrl, title: "x", projectId: a.projectId }));
    expect(intoA.status).toBe(404);
    const withA = await callRoute(generateThumbnailAction, request("/api/generate-thumbnail", b.cookie, { imageUrl: a.imageUrl, title: "x" }));
    expect(withA.status).toBe(400);
    expect(await withA.json()).toMatchObject({ field: "imageUrl" });
    const approve = await callRoute(approveAction, request("/api/approve-thumbnail", b.cookie, { thumbnailUrl }));
    expect(approve.status).toBe(404);
    expect((await callRoute(mediaLoader, request(thumbnailUrl, b.cookie), { id: thumbnailUrl.split("/").pop()! })).status).toBe(404);
    expect(await prisma.thumbnail.count({ where: { projectId: a.projectId, approved: true } })).toBe(0);

    // the owner reads both
    expect((await callRoute(projectLoader, request(`/api/projects/${a.projectId}`, a.cookie), { id: a.projectId })).status).toBe(200);
    const storyboard = await callRoute(projectStoryboardLoader, request(`/api/projects/${a.projectId}/storyboard`, a.cookie), { id: a.projectId });
    expect(((await storyboard.json()) as { storyboardCells: unknown[] }).storyboardCells).toHaveLength(2);
  });

  it("answers 502 with the reason, and logs it, when the picked image's file is gone", async () => {
    const a = await creatorWithProject();
    const file = await prisma.mediaFile.findUniqueOrThrow({ where: { id: a.imageUrl.split("/").pop()! } });
    fs.rmSync(mediaFilePath(file));
    const response = await callRoute(generateThumbnailAction, request("/api/generate-thumbnail", a.cookie, { imageUrl: a.imageUrl, title: "Gone" }));
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ success: false, error: "The picked scene image no longer exists; pick another one" });
    expect(await prisma.errorLog.findFirst({ where: { userId: a.user.id, type: "thumbnail_generation" } })).toMatchObject({
      message: "The picked scene image no longer exists; pick another one",
    });
    expect(await prisma.thumbnail.count({ where: { projectId: a.projectId } })).toBe(0);
  });

  it("answers 401 without a session", async () => {
    const response = await callRoute(generateThumbnailAction, new Request(`${BASE}/api/generate-thumbnail`, { method: "POST", body: "{}" }));
    expect(response.status).toBe(401);
  });
});

describe("POST /api/generate-metadata", () => {
  it("writes a description of at most 4,900 characters and tags of at most 400 characters together (offline writer)", async () => {
    const { cookie } = await signedIn();
    const script = Array.from({ length: 600 }, (_, i) => `Creature number ${i} glows in the deep ocean, where sunlight never reaches the sea floor.`).join(" ");
    const response = await callRoute(generateMetadataAction, request("/api/generate-metadata", cookie, { script, title: "Secrets of the Deep Ocean" }));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { description: string; tags: string[]; source: string };
    expect(body.source).toBe("offline");
    expect(body.description.length).toBeGreaterThan(50);
    expect(body.description.length).toBeLessThanOrEqual(4900);
    expect(body.tags.length).toBeGreaterThan(2);
    expect(tagsLength(body.tags)).toBeLessThanOrEqual(400);
  });

  it("ends a 5-minute 16:9 video's description with valid chapters from its scenes", async () => {
    const { user, cookie } = await signedIn();
    const project = await prisma.project.create({ data: { userId: user.id, title: "Secrets of the Deep Ocean", topic: "Life in the deep", resolution: "landscape", durationSeconds: 300 } });
    await prisma.user.update({ where: { id: user.id }, data: { currentProjectId: project.id } });
    const storyboard = await prisma.storyboard.create({ data: { projectId: project.id, title: project.title, status: "completed" } });
    const topics = ["The sunlit zone", "Into the twilight", "Creatures that glow", "The midnight zone", "Giants of the abyss", "Life on the sea floor"];
    const texts: string[] = [];
    for (let i = 0; i < 40; i++) {
      const text = `${topics[Math.floor(i / 7)]}, scene ${i + 1}. The ocean keeps its secrets well.`;
      texts.push(text);
      await prisma.storyboardCell.create({ data: { storyboardId: storyboard.id, cellIndex: i, imagePrompt: "ocean", voiceoverText: text, estimatedDuration: 7.2, audioDuration: 7.2 } });
    }
    const response = await callRoute(generateMetadataAction, request("/api/generate-metadata", cookie, { script: texts.join(" "), title: project.title }));
    expect(response.status).toBe(200);
    const { description } = (await response.json()) as { description: string };
    const duration = sceneBoundaries(texts.map(() => 7.2), VIDEO_FPS).at(-1)! / VIDEO_FPS;
    expect(duration).toBeCloseTo(300, -1);
    const chapters = chaptersInDescription(description);
    expect(chapters.length).toBeGreaterThanOrEqual(3);
    expect(chapters[0]).toEqual({ startSeconds: 0, title: "The sunlit zone" });
    expect(validateChapters(chapters, duration)).toEqual({ present: true, valid: true, reason: null });
    // the chapter lines are the description's last lines, after the written text
    expect(description.split("\n").slice(-chapters.length)).toEqual(chapters.map((c) => `${chapterTimestamp(c.startSeconds)} ${c.title}`));
    expect(description.indexOf("Chapters:")).toBeGreaterThan(50);
    expect(description.length).toBeLessThanOrEqual(4900);
  });

  it("needs the script and the title", async () => {
    const { cookie } = await signedIn();
    const response = await callRoute(generateMetadataAction, request("/api/generate-metadata", cookie, { script: "Some words." }));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ field: "title" });
  });
});
