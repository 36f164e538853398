// Bounded storage (issue 20, decision 051): a project keeps only its latest rendered videos, and what crashed or
// cancelled renders leave behind (work folders in the temp dir, half-moved ".partial" media files, stored videos
// no render row points to) is removed once it is older than a grace period. Runs after every render and music
// mix (that project), and in the worker at start-up and every hour (everything).
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Prisma } from "~/generated/prisma/client";
import { prisma } from "../../app/core/db.server";
import { deleteMedia, mediaIdFromUrl, removeStalePartialMedia } from "../../app/core/storage.server";

/** Finished videos a project keeps: the latest and the one before it (to compare, or to upload the earlier cut). */
export const KEEP_RENDERED_VIDEOS = 2;

/** Leftovers younger than this may belong to work still under way; they are left alone. */
export const LEFTOVER_GRACE_MS = 60 * 60 * 1000;

/** How often the worker sweeps. */
export const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/** The temp-dir folders Reelsmith's work creates (render work folders, music mixes, clip checks, speech, stock downloads). */
export const TEMP_PREFIXES = ["reelsmith-render-", "reelsmith-music-mix-", "reelsmith-clip-", "reelsmith-flite-", "reelsmith-pexels-"];

/** An upload in any of these states is done with its video; any other state (pending, running, failed and resumable) uses it. */
const UPLOAD_DONE = ["completed", "cancelled"] as const;
const notUsedByAnUpload: Prisma.RenderedVideoWhereInput = { uploads: { none: { status: { notIn: [...UPLOAD_DONE] } } } };

/** Deletes a rendered video (row and file) unless an upload is using it; true when it was deleted. */
export async function deleteVideoUnlessInUse(video: { id: string; mediaFileId: string | null; videoUrl: string | null }): Promise<boolean> {
  // the row goes first, and only while no upload uses it: an upload that starts meanwhile cannot lose its file
  const { count } = await prisma.renderedVideo.deleteMany({ where: { id: video.id, ...notUsedByAnUpload } });
  if (count === 0) return false;
  const fileId = video.mediaFileId ?? mediaIdFromUrl(video.videoUrl);
  if (fileId) await deleteMedia(fileId);
  return true;
}

/**
 * Deletes the project's finished videos beyond the latest `keep` (files and rows), and failed or stopped render
 * rows older than its newest video. Kept whatever their age: a video an upload is using or about to use, the
 * render a kept music mix was made from, and renders in progress. Returns the ids deleted.
 */
export async function pruneProjectVideos(projectId: string, keep = KEEP_RENDERED_VIDEOS): Promise<string[]> {
  const videos = await prisma.renderedVideo.findMany({
    where: { projectId },
    orderBy: { createdAt: "desc" },
    select: { id: true, status: true, mediaFileId: true, videoUrl: true, baseVideoId: true },
  });
  const finished = videos.filter((v) => v.status === "completed");
  const kept = new Set(finished.slice(0, keep).map((v) => v.id));
  for (const v of finished.slice(0, keep)) if (v.baseVideoId) kept.add(v.baseVideoId);
  const newest = videos[0]?.id;
  const candidates = videos.filter(
    (v) => !kept.has(v.id) && (v.status === "completed" || ((v.status === "error" || v.status === "cancelled") && v.id !== newest)),
  );
  const deleted: string[] = [];
  for (const video of candidates) if (await deleteVideoUnlessInUse(video)) deleted.push(video.id);
  return deleted;
}

/** Every project with more finished videos than it keeps, pruned. */
export async function pruneAllProjectVideos(keep = KEEP_RENDERED_VIDEOS): Promise<number> {
  const crowded = await prisma.renderedVideo.groupBy({ by: ["projectId"], where: { status: { in: ["completed", "error", "cancelled"] } }, _count: { _all: true } });
  let deleted = 0;
  for (const row of crowded) if (row._count._all > keep) deleted += (await pruneProjectVideos(row.projectId, keep)).length;
  return deleted;
}

/** The newest modification time of a folder and what is directly in it (a render writing its output keeps it fresh). */
async function lastTouched(folder: string): Promise<number> {
  let newest = (await fsp.stat(folder)).mtimeMs;
  for (const entry of await fsp.readdir(folder).catch(() => [] as string[])) {
    const stat = await fsp.stat(path.join(folder, entry)).catch(() => null);
    if (stat) newest = Math.max(newest, stat.mtimeMs);
  }
  return newest;
}

/**
 * Work folders left in the temp dir by renders, mixes and checks that crashed or were cancelled: removed when
 * untouched for the grace period. A render's folder is kept while its render row still says it is processing.
 */
export async function removeTempLeftovers(options: { tmpDir?: string; now?: number; graceMs?: number } = {}): Promise<string[]> {
  const tmpDir = options.tmpDir ?? os.tmpdir();
  const cutoff = (options.now ?? Date.now()) - (options.graceMs ?? LEFTOVER_GRACE_MS);
  const removed: string[] = [];
  for (const name of await fsp.readdir(tmpDir).catch(() => [] as string[])) {
    if (!TEMP_PREFIXES.some((p) => name.startsWith(p))) continue;
    const folder = path.join(tmpDir, name);
    const touched = await lastTouched(folder).catch(() => null);
    if (touched === null || touched > cutoff) continue;
    if (name.startsWith("reelsmith-render-")) {
      const render = await prisma.renderedVideo.findUnique({ where: { id: name.slice("reelsmith-render-".length) }, select: { status: true } });
      if (render?.status === "processing") continue;
    }
    await fsp.rm(folder, { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

/**
 * What interrupted writes left in media storage (".partial" files in the folder, unfinished multipart uploads in a
 * bucket) older than the grace period; returns their relative paths or keys.
 */
export async function removePartialMedia(options: { now?: number; graceMs?: number } = {}): Promise<string[]> {
  return removeStalePartialMedia(new Date((options.now ?? Date.now()) - (options.graceMs ?? LEFTOVER_GRACE_MS)));
}

/**
 * Stored videos no rendered-video row points to (a render stored its file, then died before recording it; the
 * retry rendered again; a chunked render's parts left by a render that died; not the chunks a project keeps for its
 * next render, decision 260), older than the grace period:
 * deleted with their rows. A project's files are left alone while one of its renders is processing (a long
 * chunked render's finished parts wait there for the join, decision 156).
 */
export async function removeUnrecordedVideos(options: { now?: number; graceMs?: number } = {}): Promise<string[]> {
  const cutoff = new Date((options.now ?? Date.now()) - (options.graceMs ?? LEFTOVER_GRACE_MS));
  const files = await prisma.mediaFile.findMany({
    // a render chunk kept for the project's next render (decision 260) is recorded there, not on a video row
    where: { kind: "video", createdAt: { lt: cutoff }, renderChunkPart: { is: null }, OR: [{ projectId: null }, { project: { videos: { none: { status: "processing" } } } }] },
    select: { id: true },
  });
  if (files.length === 0) return [];
  const rows = await prisma.renderedVideo.findMany({ select: { mediaFileId: true, videoUrl: true } });
  const referenced = new Set(rows.flatMap((r) => [r.mediaFileId, mediaIdFromUrl(r.videoUrl)]).filter(Boolean));
  const removed: string[] = [];
  for (const file of files) {
    if (referenced.has(file.id)) continue;
    await deleteMedia(file.id);
    removed.push(file.id);
  }
  return removed;
}

export type SweepResult = { videos: number; tempFolders: number; partialFiles: number; unrecordedVideos: number };

/** One full sweep: older videos of every project, temp leftovers, partial and unrecorded media. */
export async function sweepRenderLeftovers(options: { tmpDir?: string; now?: number; graceMs?: number } = {}): Promise<SweepResult> {
  const videos = await pruneAllProjectVideos();
  const tempFolders = (await removeTempLeftovers(options)).length;
  const partialFiles = (await removePartialMedia(options)).length;
  const unrecordedVideos = (await removeUnrecordedVideos(options)).length;
  return { videos, tempFolders, partialFiles, unrecordedVideos };
}

/**
 * Sweeps now and then every `intervalMs` (the worker calls this at start-up). A failed sweep is logged and the
 * next one tries again. Returns a function that stops the timer.
 */
export function startLeftoverSweeps(options: { intervalMs?: number; log?: (line: string) => void } = {}): () => void {
  const log = options.log ?? ((line: string) => console.log(line));
  let running = false;
  const sweep = async () => {
    if (running) return;
    running = true;
    try {
      const r = await sweepRenderLeftovers();
      if (r.videos + r.tempFolders + r.partialFiles + r.unrecordedVideos > 0) {
        log(`cleanup: removed ${r.videos} older video(s), ${r.tempFolders} temp folder(s), ${r.partialFiles} partial file(s), ${r.unrecordedVideos} unrecorded video file(s)`);
      }
    } catch (e) {
      log(`cleanup: the sweep failed (the next one tries again): ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      running = false;
    }
  };
  void sweep();
  const timer = setInterval(() => void sweep(), options.intervalMs ?? SWEEP_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
