// Bounded storage: a project keeps its latest rendered videos only (never one an upload uses), and what crashed or
// cancelled renders leave behind (temp work folders, ".partial" media, stored videos no render row records) is
// removed once older than the grace period, by the worker at start-up and every hour (decision 051).
import { spawn } from "node:child_process";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { prisma } from "~/core/db.server";
import {
  KEEP_RENDERED_VIDEOS,
  LEFTOVER_GRACE_MS,
  pruneProjectVideos,
  removePartialMedia,
  removeTempLeftovers,
  removeUnrecordedVideos,
} from "../../workflows/engine/render-cleanup";
import { mediaFilePath, mediaRoot, saveMedia } from "~/core/storage.server";
import { seedUser } from "./seed";

afterAll(async () => {
  await prisma.$disconnect();
});

const HOURS = 60 * 60 * 1000;
const exists = (file: string) => fs.existsSync(file);

/** Sets a file's or folder's times (and those of what is directly in it) to `ago` ms before now. */
async function age(target: string, ago: number) {
  const when = new Date(Date.now() - ago);
  if ((await fsp.stat(target)).isDirectory()) for (const entry of await fsp.readdir(target)) await fsp.utimes(path.join(target, entry), when, when);
  await fsp.utimes(target, when, when);
}

async function video(userId: string, projectId: string, label: string, minutesAgo: number, status: "completed" | "error" | "processing" = "completed") {
  const file = status === "completed" ? await saveMedia({ userId, projectId, kind: "video", data: Buffer.from(`video ${label}`), mimeType: "video/mp4", extension: "mp4" }) : null;
  const row = await prisma.renderedVideo.create({
    data: {
      projectId,
      status,
      mediaFileId: file?.id ?? null,
      videoUrl: file ? `/api/media/${file.id}` : null,
      createdAt: new Date(Date.now() - minutesAgo * 60_000),
      completedAt: file ? new Date() : null,
    },
  });
  return { row, path: file ? mediaFilePath(file) : null };
}

describe("older renders", () => {
  it(`a project keeps its latest ${KEEP_RENDERED_VIDEOS} videos; an older one an upload is using stays, one whose upload is done goes`, async () => {
    const u = await seedUser("Prune");
    await prisma.renderedVideo.update({ where: { id: u.renderId }, data: { createdAt: new Date(Date.now() - 100 * 60_000) } });
    const seededPath = mediaFilePath(await prisma.mediaFile.findUniqueOrThrow({ where: { id: u.mediaIds.at(-1)! } }));
    const uploading = await video(u.user.id, u.projectId, "uploading", 90);
    const uploaded = await video(u.user.id, u.projectId, "uploaded", 80);
    const failed = await video(u.user.id, u.projectId, "failed", 70, "error");
    const previous = await video(u.user.id, u.projectId, "previous", 20);
    const latest = await video(u.user.id, u.projectId, "latest", 10);
    const inFlight = await video(u.user.id, u.projectId, "in flight", 1, "processing");
    const upload = { projectId: u.projectId, title: "T", categoryId: "22" };
    await prisma.youtubeUpload.create({ data: { ...upload, videoId: uploading.row.id, status: "processing" } });
    await prisma.youtubeUpload.create({ data: { ...upload, videoId: uploaded.row.id, status: "completed" } });

    const deleted = await pruneProjectVideos(u.projectId);

    expect(deleted.sort()).toEqual([u.renderId, uploaded.row.id, failed.row.id].sort());
    const left = await prisma.renderedVideo.findMany({ where: { projectId: u.projectId }, select: { id: true } });
    expect(left.map((v) => v.id).sort()).toEqual([uploading.row.id, previous.row.id, latest.row.id, inFlight.row.id].sort());
    // the files on disk follow the rows
    expect(exists(seededPath)).toBe(false);
    expect(exists(uploaded.path!)).toBe(false);
    expect(exists(uploading.path!)).toBe(true);
    expect(exists(previous.path!)).toBe(true);
    expect(exists(latest.path!)).toBe(true);
    // once its upload is done, the older video goes too
    await prisma.youtubeUpload.updateMany({ where: { videoId: uploading.row.id }, data: { status: "completed" } });
    expect(await pruneProjectVideos(u.projectId)).toEqual([uploading.row.id]);
    expect(exists(uploading.path!)).toBe(false);
  });

  it("the render a kept music mix was made from is kept", async () => {
    const u = await seedUser("PruneMix");
    await prisma.renderedVideo.update({ where: { id: u.renderId }, data: { createdAt: new Date(Date.now() - 100 * 60_000) } });
    const base = await video(u.user.id, u.projectId, "base", 30);
    await video(u.user.id, u.projectId, "newer render", 20);
    const mix = await video(u.user.id, u.projectId, "mix", 10);
    await prisma.renderedVideo.update({ where: { id: mix.row.id }, data: { baseVideoId: base.row.id, withMusic: true } });
    const deleted = await pruneProjectVideos(u.projectId);
    expect(deleted).toEqual([u.renderId]);
    expect(exists(base.path!)).toBe(true);
  });
});

describe("leftovers of crashed or cancelled renders", () => {
  it("temp work folders older than the grace period are removed; fresh ones, a processing render's, and others' are kept", async () => {
    const u = await seedUser("TempSweep");
    const processing = await video(u.user.id, u.projectId, "processing", 1, "processing");
    const crashed = await video(u.user.id, u.projectId, "crashed", 5, "error");
    const tmp = await fsp.mkdtemp(path.join(os.tmpdir(), "cleanup-test-"));
    const make = async (name: string, ago: number) => {
      const dir = path.join(tmp, name);
      await fsp.mkdir(dir);
      await fsp.writeFile(path.join(dir, "scene-1.png"), "x");
      await fsp.writeFile(path.join(dir, "video.mp4"), "partial video");
      await age(dir, ago);
      return dir;
    };
    const crashedDir = await make(`reelsmith-render-${crashed.row.id}`, 2 * HOURS);
    const unknownRenderDir = await make("reelsmith-render-gone", 2 * HOURS);
    const processingDir = await make(`reelsmith-render-${processing.row.id}`, 2 * HOURS);
    const oldMix = await make("reelsmith-music-mix-abc123", 3 * HOURS);
    const freshMix = await make("reelsmith-music-mix-def456", 10 * 60_000);
    const oldClip = await make("reelsmith-clip-xyz", 2 * HOURS);
    const notOurs = await make("someone-elses-dir", 5 * HOURS);
    // a folder whose own time is old but whose output is still being written is in use
    const writing = await make("reelsmith-music-mix-writing", 2 * HOURS);
    await fsp.utimes(writing, new Date(Date.now() - 2 * HOURS), new Date(Date.now() - 2 * HOURS));
    await fsp.appendFile(path.join(writing, "video.mp4"), "more");

    const removed = await removeTempLeftovers({ tmpDir: tmp });

    expect(removed.sort()).toEqual([path.basename(crashedDir), path.basename(unknownRenderDir), path.basename(oldMix), path.basename(oldClip)].sort());
    for (const gone of [crashedDir, unknownRenderDir, oldMix, oldClip]) expect(exists(gone), gone).toBe(false);
    for (const kept of [processingDir, freshMix, notOurs, writing]) expect(exists(kept), kept).toBe(true);
    await fsp.rm(tmp, { recursive: true, force: true });
  });

  it("half-moved .partial media files and stored videos no render row records are removed after the grace period", async () => {
    const u = await seedUser("MediaSweep");
    const dir = path.join(mediaRoot(), u.user.id, "video");
    await fsp.mkdir(dir, { recursive: true });
    const oldPartial = path.join(dir, "crashed.mp4.partial");
    const freshPartial = path.join(dir, "moving.mp4.partial");
    await fsp.writeFile(oldPartial, "half a video");
    await fsp.writeFile(freshPartial, "being moved now");
    await age(oldPartial, LEFTOVER_GRACE_MS + 60_000);

    const unrecorded = await saveMedia({ userId: u.user.id, projectId: u.projectId, kind: "video", data: Buffer.from("stored, never recorded"), mimeType: "video/mp4", extension: "mp4" });
    const justStored = await saveMedia({ userId: u.user.id, projectId: u.projectId, kind: "video", data: Buffer.from("stored a moment ago"), mimeType: "video/mp4", extension: "mp4" });
    await prisma.mediaFile.update({ where: { id: unrecorded.id }, data: { createdAt: new Date(Date.now() - 2 * HOURS) } });
    const recorded = await prisma.mediaFile.findUniqueOrThrow({ where: { id: u.mediaIds.at(-1)! } });
    await prisma.mediaFile.update({ where: { id: recorded.id }, data: { createdAt: new Date(Date.now() - 2 * HOURS) } });

    const partials = await removePartialMedia();
    expect(partials).toContain(path.relative(mediaRoot(), oldPartial));
    expect(exists(oldPartial)).toBe(false);
    expect(exists(freshPartial)).toBe(true);

    const videos = await removeUnrecordedVideos();
    expect(videos).toContain(unrecorded.id);
    expect(videos).not.toContain(justStored.id);
    expect(videos).not.toContain(recorded.id);
    expect(exists(mediaFilePath(unrecorded))).toBe(false);
    expect(await prisma.mediaFile.findUnique({ where: { id: unrecorded.id } })).toBeNull();
    expect(exists(mediaFilePath(recorded))).toBe(true);
    expect(exists(mediaFilePath(justStored))).toBe(true);
    await fsp.rm(freshPartial, { force: true });
  });

  it("the worker sweeps at start-up: a crashed render's folder is gone moments after `workflows/worker.ts` starts", async () => {
    const leftover = await fsp.mkdtemp(path.join(os.tmpdir(), "reelsmith-music-mix-startup-"));
    await fsp.writeFile(path.join(leftover, "video.mp4"), "left by a killed worker");
    await age(leftover, LEFTOVER_GRACE_MS + 60_000);
    const worker = spawn(process.execPath, ["--import", "tsx", "workflows/worker.ts"], {
      env: { ...process.env, TEMPORAL_TASK_QUEUE: `cleanup-startup-${process.pid}` },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let output = "";
    worker.stdout.on("data", (d: Buffer) => (output += d.toString()));
    worker.stderr.on("data", (d: Buffer) => (output += d.toString()));
    try {
      const deadline = Date.now() + 90_000;
      while (exists(leftover) && Date.now() < deadline && worker.exitCode === null) await new Promise((r) => setTimeout(r, 250));
      expect(exists(leftover), output).toBe(false);
      await expect.poll(() => output, { timeout: 60_000, interval: 250 }).toMatch(/cleanup: removed .* temp folder/);
    } finally {
      try {
        process.kill(-worker.pid!, "SIGKILL");
      } catch {
        // already gone
      }
      await fsp.rm(leftover, { recursive: true, force: true });
    }
  }, 200_000);
});
