// Media storage: the ONLY module that touches media (decision 150). Every file has a MediaFile row naming its owner
// and is served only through /api/media/<id>. The bytes live in one of two backends, picked by STORAGE: a local
// folder (DATA_DIR/media, the default) or an S3-compatible bucket (the S3_* variables), under keys
// "<userId>/<kind>/<uuid>.<ext>". A program that needs a file (ffmpeg, sharp, the render's browser) asks for a local
// copy (withLocalMediaCopy / localMediaPath): the file itself with the local backend, a copy in this process's
// scratch folder with a bucket. Results come back through saveMedia / saveMediaFromPath.
import { randomUUID } from "node:crypto";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import type { MediaFile, MediaKind } from "~/generated/prisma/client";
import { MEDIA_VARIANT_WIDTHS, RESIZABLE_IMAGE_TYPES } from "~/lib/media-variants";
import { prisma } from "./db.server";
import { getEnv } from "./env.server";
import { StorageNotFoundError, type ByteRange, type StorageBackend } from "./storage/backend.server";
import { createLocalBackend } from "./storage/local.server";
import { createS3Backend } from "./storage/s3.server";
import { createScratchCache, type ScratchCache } from "./storage/scratch.server";

export { StorageNotFoundError } from "./storage/backend.server";

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

type StoredKey = Pick<MediaFile, "storageKey">;

/**
 * A MediaFile row as the app handles it: its size a number. The column is 64-bit (a long render passes 2 GiB,
 * decision 187) and Prisma reads it as a bigint, which JSON.stringify (a loader's JSON, Temporal's payloads) throws
 * on; a number is exact up to 2^53 bytes (8 PiB).
 */
export type StoredMediaFile = Omit<MediaFile, "bytes"> & { bytes: number };

/** The row (whole or selected) with its size as a number: call it where a MediaFile row is read (decision 187). */
export function withByteCount<T extends { bytes: bigint }>(row: T): Omit<T, "bytes"> & { bytes: number } {
  const bytes = Number(row.bytes);
  if (!Number.isSafeInteger(bytes)) throw new Error(`A media file of ${row.bytes} bytes is past what a number holds exactly`);
  return { ...row, bytes };
}

let selected: { backend: StorageBackend; scratch: ScratchCache | null } | undefined;

function storage() {
  if (selected) return selected;
  const env = getEnv();
  if (env.STORAGE === "s3") {
    const backend = createS3Backend({
      endpoint: env.S3_ENDPOINT,
      region: env.S3_REGION,
      bucket: env.S3_BUCKET!,
      accessKeyId: env.S3_ACCESS_KEY_ID!,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY!,
      forcePathStyle: env.S3_FORCE_PATH_STYLE ?? !!env.S3_ENDPOINT,
    });
    const baseDir = env.SCRATCH_DIR ?? path.join(os.tmpdir(), "reelsmith-scratch");
    selected = { backend, scratch: createScratchCache({ backend, baseDir, maxBytes: env.SCRATCH_MAX_BYTES }) };
  } else {
    selected = { backend: createLocalBackend(mediaRoot()), scratch: null };
  }
  return selected;
}

/** The backend media lives in (for the sweeper, the backup and tests). */
export function mediaBackend(): StorageBackend {
  return storage().backend;
}

/** This process's scratch cache, or null with the local backend (which needs none). */
export function mediaScratch(): ScratchCache | null {
  return storage().scratch;
}

/** The local backend's folder. With a bucket, nothing is stored here. */
export function mediaRoot(): string {
  return path.join(getEnv().DATA_DIR, "media");
}

function newStorageKey(input: SaveMediaInput): string {
  const extension = input.extension.replace(/^\./, "").toLowerCase();
  if (!/^[a-z0-9]{1,8}$/.test(extension)) throw new Error(`Unsupported media file extension "${input.extension}"`);
  // The owner and kind in the key keep the tree browsable; the random name keeps keys unguessable and unique.
  return `${input.userId}/${input.kind}/${randomUUID()}.${extension}`;
}

async function recordFile(input: SaveMediaInput, storageKey: string, bytes: number): Promise<StoredMediaFile> {
  let row: MediaFile;
  try {
    row = await prisma.mediaFile.create({
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
    // no row, no file: the error that matters is the database's, not a failed clean-up
    await mediaBackend()
      .delete(storageKey)
      .catch(() => {});
    throw e;
  }
  return withByteCount(row);
}

/** Writes the bytes (atomically: a reader never sees half a file) and records the file. */
export async function saveMedia(input: SaveMediaInput & { data: Buffer }): Promise<StoredMediaFile> {
  const storageKey = newStorageKey(input);
  const stored = await mediaBackend().put(storageKey, input.data, { contentType: input.mimeType });
  return recordFile(input, storageKey, stored.bytes);
}

/**
 * Writes a stream (an upload as it arrives: decision 199) and records the file. The bytes are never all in memory;
 * a stream that fails part-way leaves no file and no row, and its error is thrown.
 */
export async function saveMediaFromStream(input: SaveMediaInput & { stream: Readable }): Promise<StoredMediaFile> {
  const storageKey = newStorageKey(input);
  const stored = await mediaBackend().put(storageKey, input.stream, { contentType: input.mimeType });
  return recordFile(input, storageKey, stored.bytes);
}

/** Moves a finished file (e.g. a render's output in a temp dir) into storage, streamed, never read into memory. */
export async function saveMediaFromPath(input: SaveMediaInput & { sourcePath: string }): Promise<StoredMediaFile> {
  const storageKey = newStorageKey(input);
  const stored = await mediaBackend().moveIn(storageKey, input.sourcePath, { contentType: input.mimeType });
  return recordFile(input, storageKey, stored.bytes);
}

export function mediaUrl(file: Pick<MediaFile, "id"> | string): string {
  return `/api/media/${typeof file === "string" ? file : file.id}`;
}

/** The id in a "/api/media/<id>" URL, or null when the URL is not one of ours. */
export function mediaIdFromUrl(url: string | null | undefined): string | null {
  const match = url?.match(/^\/api\/media\/([A-Za-z0-9_-]+)(?:[?#].*)?$/);
  return match ? match[1]! : null;
}

/** The whole file in memory: small files only (images, logos). */
export function readMedia(file: StoredKey): Promise<Buffer> {
  return mediaBackend().read(file.storageKey);
}

/** The stored size, or null when the file is missing. */
export async function mediaSize(file: StoredKey): Promise<number | null> {
  return (await mediaBackend().stat(file.storageKey))?.bytes ?? null;
}

/** A stream of the file, or of the inclusive byte range [start, end]; rejects with StorageNotFoundError when it is missing. */
export function openMediaStream(file: StoredKey, range?: ByteRange): Promise<Readable> {
  return mediaBackend().openRead(file.storageKey, range);
}

/** The inclusive byte range [start, end] in memory (an upload's chunk). */
export async function readMediaRange(file: StoredKey, range: ByteRange): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await openMediaStream(file, range)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export type LocalMediaFile = {
  /** A path ffmpeg, sharp or the browser's asset server can read; its name ends like the stored file's. */
  path: string;
  /** Done with the file: a scratch copy may now be evicted. Safe to call more than once. */
  release: () => void;
};

/**
 * A local file with the media's bytes, for programs that need a path: the stored file itself with the local
 * backend, a copy in this process's scratch folder with a bucket. Release it when done (or use withLocalMediaCopy).
 */
export async function localMediaPath(file: StoredKey): Promise<LocalMediaFile> {
  const { backend, scratch } = storage();
  if (!scratch) {
    const own = backend.localPath(file.storageKey)!;
    if (!(await backend.stat(file.storageKey))) throw new StorageNotFoundError(file.storageKey);
    return { path: own, release: () => {} };
  }
  return scratch.acquire(file.storageKey);
}

/** Runs `fn` with a local path of the media (see localMediaPath), released afterwards whatever happens. */
export async function withLocalMediaCopy<T>(file: StoredKey, fn: (localPath: string) => Promise<T>): Promise<T> {
  const local = await localMediaPath(file);
  try {
    return await fn(local.path);
  } finally {
    local.release();
  }
}

/** Local paths for several files, all released together: `const media = localMediaSet(); await media.path(file)`. */
export function localMediaSet() {
  const held: LocalMediaFile[] = [];
  return {
    async path(file: StoredKey): Promise<string> {
      const local = await localMediaPath(file);
      held.push(local);
      return local.path;
    },
    release() {
      for (const local of held.splice(0)) local.release();
    },
  };
}

/**
 * The stored file's own path: with the local backend only (tests that look at the files, and tools on the same
 * machine). The app and the workers use localMediaPath, which also works with a bucket.
 */
export function mediaFilePath(file: StoredKey): string {
  const own = mediaBackend().localPath(file.storageKey);
  if (!own) throw new Error("mediaFilePath needs the local media folder (STORAGE=local); use localMediaPath with a bucket");
  return own;
}

/** Removes what interrupted writes left in storage before `before` (see StorageBackend.removeStalePartials). */
export function removeStalePartialMedia(before: Date): Promise<string[]> {
  return mediaBackend().removeStalePartials(before);
}

/** Where the file's variant of this width is kept: beside it, in the same backend ("<key stem>.w<width>.webp"). */
export function mediaVariantKey(file: StoredKey, width: number): string {
  return `${file.storageKey.replace(/\.[a-z0-9]+$/, "")}.w${width}.webp`;
}

/** Removes the file, its sized variants and its row. Missing files are fine: the goal is that neither remains. */
export async function deleteMedia(fileOrId: Pick<MediaFile, "id"> | string): Promise<void> {
  const id = typeof fileOrId === "string" ? fileOrId : fileOrId.id;
  const row = await prisma.mediaFile.findUnique({ where: { id } });
  if (!row) return;
  await prisma.mediaFile.deleteMany({ where: { id } });
  await mediaBackend().delete(row.storageKey);
  if (RESIZABLE_IMAGE_TYPES.has(row.mimeType.toLowerCase())) {
    await Promise.all(MEDIA_VARIANT_WIDTHS.map((width) => mediaBackend().delete(mediaVariantKey(row, width))));
  }
}

export async function findMediaForUser(userId: string, id: string): Promise<StoredMediaFile | null> {
  const row = await prisma.mediaFile.findFirst({ where: { id, userId } });
  return row && withByteCount(row);
}
