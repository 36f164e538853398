// Media storage: the ONLY module that touches media files. Files live under DATA_DIR/media, keyed by owner and
// kind; every file has a MediaFile row naming its owner, and is served only through /api/media/<id>.
// Keep all file access behind these functions so the root can later move to an S3-compatible bucket.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import type { MediaFile, MediaKind } from "~/generated/prisma/client";
import { prisma } from "./db.server";
import { getEnv } from "./env.server";

export type SaveMediaInput = {
  userId: string;
  projectId?: string | null;
  kind: MediaKind;
  mimeType: string;
  /** Without the dot: "png", "wav", "mp4". */
  extension: string;
  durationSeconds?: number | null;
  width?: number | null;
  height?: number | null;
};

export function mediaRoot(): string {
  return path.join(getEnv().DATA_DIR, "media");
}

function newStorageKey(input: SaveMediaInput): string {
  const extension = input.extension.replace(/^\./, "").toLowerCase();
  if (!/^[a-z0-9]{1,8}$/.test(extension)) throw new Error(`Unsupported media file extension "${input.extension}"`);
  // The owner and kind in the key keep the tree browsable; the random name keeps keys unguessable and unique.
  return `${input.userId}/${input.kind}/${randomUUID()}.${extension}`;
}

function pathForKey(storageKey: string): string {
  const root = mediaRoot();
  const absolute = path.resolve(root, storageKey);
  if (!absolute.startsWith(root + path.sep)) throw new Error(`Storage key escapes the media root: ${storageKey}`);
  return absolute;
}

async function recordFile(input: SaveMediaInput, storageKey: string, bytes: number): Promise<MediaFile> {
  try {
    return await prisma.mediaFile.create({
      data: {
        userId: input.userId,
        projectId: input.projectId ?? null,
        kind: input.kind,
        storageKey,
        mimeType: input.mimeType,
        bytes,
        durationSeconds: input.durationSeconds ?? null,
        width: input.width ?? null,
        height: input.height ?? null,
      },
    });
  } catch (e) {
    await fsp.rm(pathForKey(storageKey), { force: true });
    throw e;
  }
}

/** Writes the bytes (atomically: a reader never sees half a file) and records the file. */
export async function saveMedia(input: SaveMediaInput & { data: Buffer }): Promise<MediaFile> {
  const storageKey = newStorageKey(input);
  const target = pathForKey(storageKey);
  await fsp.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
  const partial = `${target}.partial`;
  // Private to the server's user: 0600 files in 0700 folders.
  await fsp.writeFile(partial, input.data, { mode: 0o600 });
  await fsp.rename(partial, target);
  return recordFile(input, storageKey, input.data.length);
}

/** Moves a finished file (e.g. a render's output in a temp dir) into storage without reading it into memory. */
export async function saveMediaFromPath(input: SaveMediaInput & { sourcePath: string }): Promise<MediaFile> {
  const storageKey = newStorageKey(input);
  const target = pathForKey(storageKey);
  await fsp.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
  const partial = `${target}.partial`;
  try {
    await fsp.rename(input.sourcePath, partial);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EXDEV") throw e;
    // a temp dir on another file system: copy, then remove the source
    await fsp.copyFile(input.sourcePath, partial);
    await fsp.rm(input.sourcePath, { force: true });
  }
  await fsp.chmod(partial, 0o600);
  await fsp.rename(partial, target);
  const { size } = await fsp.stat(target);
  return recordFile(input, storageKey, size);
}

export function mediaUrl(file: Pick<MediaFile, "id"> | string): string {
  return `/api/media/${typeof file === "string" ? file : file.id}`;
}

/** The id in a "/api/media/<id>" URL, or null when the URL is not one of ours. */
export function mediaIdFromUrl(url: string | null | undefined): string | null {
  const match = url?.match(/^\/api\/media\/([A-Za-z0-9_-]+)(?:[?#].*)?$/);
  return match ? match[1]! : null;
}

export function readMedia(file: Pick<MediaFile, "storageKey">): Promise<Buffer> {
  return fsp.readFile(pathForKey(file.storageKey));
}

/** The absolute path, for the renderer and ffprobe only; everything else goes through the functions above. */
export function mediaFilePath(file: Pick<MediaFile, "storageKey">): string {
  return pathForKey(file.storageKey);
}

/** The size on disk, or null when the file is missing. */
export async function mediaSize(file: Pick<MediaFile, "storageKey">): Promise<number | null> {
  try {
    return (await fsp.stat(pathForKey(file.storageKey))).size;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
}

/** A stream of the file, or of the inclusive byte range [start, end]. */
export function openMediaStream(file: Pick<MediaFile, "storageKey">, range?: { start: number; end: number }): Readable {
  return fs.createReadStream(pathForKey(file.storageKey), range);
}

/** Removes the file and its row. Missing files are fine: the goal is that neither remains. */
export async function deleteMedia(fileOrId: Pick<MediaFile, "id"> | string): Promise<void> {
  const id = typeof fileOrId === "string" ? fileOrId : fileOrId.id;
  const row = await prisma.mediaFile.findUnique({ where: { id } });
  if (!row) return;
  await prisma.mediaFile.deleteMany({ where: { id } });
  await fsp.rm(pathForKey(row.storageKey), { force: true });
}

export function findMediaForUser(userId: string, id: string): Promise<MediaFile | null> {
  return prisma.mediaFile.findFirst({ where: { id, userId } });
}
