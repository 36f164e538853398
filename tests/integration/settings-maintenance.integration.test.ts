// Project Maintenance and the error log through their routes.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.OWNER_EMAIL = "owner@settings-maintenance.test";
});

import { prisma } from "~/core/db.server";
import { action as cleanupMedia } from "~/routes/settings/api.projects.$id.cleanup-media";
import * as errorLogs from "~/routes/settings/api.error-logs";
import { ORPHAN_GRACE_MS } from "~/server/cleanup.server";
import { logPipelineError } from "~/core/error-log.server";
import { mediaSize, mediaUrl, saveMedia } from "~/core/storage.server";
import { createTestUser, sessionCookieFor } from "../support/auth";
import { callRoute as call } from "../support/routes";

const base = "http://localhost:3000";


const cleanup = (cookie: string, id: string) =>
  call(cleanupMedia, new Request(`${base}/api/projects/${id}/cleanup-media`, { method: "POST", headers: { Cookie: cookie, "Content-Type": "application/json" } }), { id });

async function creatorWithProject() {
  const user = await createTestUser();
  const project = await prisma.project.create({ data: { userId: user.id, title: "Volcanoes", topic: "How volcanoes form", resolution: "landscape", durationSeconds: 300 } });
  await prisma.user.update({ where: { id: user.id }, data: { currentProjectId: project.id } });
  return { user, project, cookie: await sessionCookieFor(user.id) };
}

const past = new Date(Date.now() - ORPHAN_GRACE_MS - 60_000);
async function file(userId: string, projectId: string, kind: "image" | "voiceover", old = true) {
  const row = await saveMedia({ userId, projectId, kind, data: Buffer.from(`${kind}-${Math.random()}`), mimeType: kind === "image" ? "image/png" : "audio/wav", extension: kind === "image" ? "png" : "wav" });
  return old ? prisma.mediaFile.update({ where: { id: row.id }, data: { createdAt: past } }) : row;
}

afterAll(async () => {
  await prisma.$disconnect();
});

describe("POST /api/projects/{id}/cleanup-media", () => {
  let creator: Awaited<ReturnType<typeof creatorWithProject>>;
  const kept: string[] = [];
  const orphans: string[] = [];

  beforeAll(async () => {
    creator = await creatorWithProject();
    const { user, project } = creator;
    const usedImage = await file(user.id, project.id, "image");
    const usedAudio = await file(user.id, project.id, "voiceover");
    const usedByUrlOnly = await file(user.id, project.id, "image");
    const fresh = await file(user.id, project.id, "voiceover", false);
    const music = await saveMedia({ userId: user.id, projectId: project.id, kind: "music", data: Buffer.from("mp3"), mimeType: "audio/mpeg", extension: "mp3" });
    kept.push(usedImage.id, usedAudio.id, usedByUrlOnly.id, fresh.id, music.id);
    for (const kind of ["image", "image", "voiceover"] as const) orphans.push((await file(user.id, project.id, kind)).id);
    await prisma.storyboard.create({
      data: {
        projectId: project.id,
        title: "Volcanoes",
        status: "completed",
        cells: {
          create: [
            { cellIndex: 0, imagePrompt: "a volcano", voiceoverText: "Magma rises.", estimatedDuration: 5, imageFileId: usedImage.id, imageUrl: mediaUrl(usedImage), audioFileId: usedAudio.id, audioUrl: mediaUrl(usedAudio) },
            { cellIndex: 1, imagePrompt: "ash cloud", voiceoverText: "Ash falls.", estimatedDuration: 5, imageUrl: mediaUrl(usedByUrlOnly) },
          ],
        },
      },
    });
  });

  it("deletes the project's voiceovers and images no scene uses, and counts them", async () => {
    const response = await cleanup(creator.cookie, creator.project.id);
    expect(response.status).toBe(200);
    expect((await response.json()).result).toEqual({ voiceoverFiles: { deleted: 1, orphaned: 1 }, imageFiles: { deleted: 2, orphaned: 2 } });
    expect(await prisma.mediaFile.count({ where: { id: { in: orphans } } })).toBe(0);
    expect((await prisma.mediaFile.findMany({ where: { id: { in: kept } } })).map((f) => f.id).sort()).toEqual([...kept].sort());
    for (const id of kept) expect(await mediaSize(await prisma.mediaFile.findUniqueOrThrow({ where: { id } }))).not.toBeNull();
  });

  it("finds nothing the second time", async () => {
    const response = await cleanup(creator.cookie, creator.project.id);
    expect((await response.json()).result).toEqual({ voiceoverFiles: { deleted: 0, orphaned: 0 }, imageFiles: { deleted: 0, orphaned: 0 } });
  });

  it("reads the spec's fixed id 2 as the caller's current project", async () => {
    const orphan = await file(creator.user.id, creator.project.id, "voiceover");
    const response = await cleanup(creator.cookie, "2");
    expect(await response.json()).toMatchObject({ projectId: creator.project.id, result: { voiceoverFiles: { deleted: 1, orphaned: 1 } } });
    expect(await prisma.mediaFile.findUnique({ where: { id: orphan.id } })).toBeNull();
  });

  it("refuses another creator's project with 404 and deletes nothing there", async () => {
    const other = await creatorWithProject();
    const theirs = await file(other.user.id, other.project.id, "image");
    const response = await cleanup(creator.cookie, other.project.id);
    expect(response.status).toBe(404);
    expect(await prisma.mediaFile.findUnique({ where: { id: theirs.id } })).not.toBeNull();
  });

  it("answers 401 when signed out", async () => {
    const response = await call(cleanupMedia, new Request(`${base}/api/projects/2/cleanup-media`, { method: "POST" }), { id: "2" });
    expect(response.status).toBe(401);
  });
});

describe("/api/error-logs", () => {
  const request = (cookie: string, method = "GET", body?: unknown) =>
    new Request(`${base}/api/error-logs`, {
      method,
      headers: { Cookie: cookie, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const list = async (cookie: string) => (await call(errorLogs.loader, request(cookie))).json() as Promise<{ type: string; message: string; timestamp: string }[]>;

  it("records entries, lists them newest first, and keeps creators to their own while the owner sees all", async () => {
    const owner = await createTestUser(process.env.OWNER_EMAIL, "Owner");
    const ownerCookie = await sessionCookieFor(owner.id);
    const a = await creatorWithProject();
    const b = await creatorWithProject();

    const created = await call(errorLogs.action, request(a.cookie, "POST", { type: "image_generation", message: "Leonardo refused the prompt" }));
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ id: expect.any(String), type: "image_generation", message: "Leonardo refused the prompt", timestamp: expect.any(String) });
    await new Promise((r) => setTimeout(r, 5));
    await logPipelineError({ userId: a.user.id, projectId: a.project.id, type: "storyboard_generation", message: "No script available to generate storyboard from" });
    await logPipelineError({ userId: b.user.id, type: "render", message: "Render failed: out of memory" });

    const own = await list(a.cookie);
    expect(own.map((e) => e.type)).toEqual(["storyboard_generation", "image_generation"]);
    const all = await list(ownerCookie);
    expect(all.map((e) => e.type)).toEqual(["render", "storyboard_generation", "image_generation"]);

    const bad = await call(errorLogs.action, request(a.cookie, "POST", { type: "x" }));
    expect(bad.status).toBe(400);
    expect((await bad.json()).field).toBe("message");

    // a creator clears only their own entries; the owner clears everything
    await call(errorLogs.action, request(a.cookie, "DELETE"));
    expect(await list(a.cookie)).toEqual([]);
    expect((await list(ownerCookie)).map((e) => e.type)).toEqual(["render"]);
    const cleared = await call(errorLogs.action, request(ownerCookie, "DELETE"));
    expect(await cleared.json()).toEqual({ success: true, deleted: 1 });
    expect(await list(ownerCookie)).toEqual([]);
  });
});
