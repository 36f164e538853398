// A scene's uploaded image or clip received as it arrives (decision 199). The first bytes say what it is (file-type,
// the same check as before: sniffSceneUpload); an image (at most 10 MB) is collected for sharp, a clip goes straight
// to media storage as a stream, its size limit (CLIP_UPLOAD_MAX_MB) counted on the way. Neither is held whole in
// memory twice, and a clip is never held whole at all: the web process's memory does not grow with the clip.
import { Readable } from "node:stream";
import type { Project } from "~/generated/prisma/client";
import type { StreamedFilePart } from "~/lib/request-body.server";
import { getEnv } from "~/core/env.server";
import { SCENE_MEDIA_LIMITS, SceneMediaRejection, sniffSceneUpload } from "~/core/scene-media-files.server";
import { deleteMedia, saveMediaFromStream, type StoredMediaFile } from "~/core/storage.server";

/** Bytes read before the type is decided: far more than file-type needs for any image or clip format we take. */
const SNIFF_BYTES = 64 * 1024;

const MB = 1024 * 1024;
/** The parser's chunk as a Buffer over the same memory (Buffer.from(uint8Array) would copy every chunk). */
const asBuffer = (chunk: Uint8Array) => Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
const megabytes = (bytes: number) => `${(bytes / MB).toFixed(1).replace(/\.0$/, "")} MB`;

/** The largest clip a creator may upload (CLIP_UPLOAD_MAX_MB). */
export function clipUploadMaxBytes(): number {
  return getEnv().CLIP_UPLOAD_MAX_MB * MB;
}

/** What the scene upload route answers for a file past its limits. */
export function sceneUploadTooLargeMessage(): string {
  return `File too large: a scene image must be ${megabytes(SCENE_MEDIA_LIMITS.imageBytes)} or smaller, a clip ${megabytes(clipUploadMaxBytes())}.`;
}

/** An uploaded scene file once received: an image's bytes (sharp prepares them), or the raw clip already stored. */
export type ReceivedSceneUpload = { kind: "image"; data: Buffer } | { kind: "clip"; type: string; file: StoredMediaFile };

/**
 * Receives the uploaded file of a scene upload as it arrives: typed by its first bytes (415 for anything but our
 * images and clips), an image collected up to its 10 MB, a clip streamed into storage for the worker up to the clip
 * limit (413 past either, and nothing is left stored).
 */
export async function receiveSceneUpload(userId: string, project: Pick<Project, "id">, file: StreamedFilePart): Promise<ReceivedSceneUpload> {
  const source = file.data[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let headBytes = 0;
  let ended = false;
  while (headBytes < SNIFF_BYTES) {
    const next = await source.next();
    if (next.done) {
      ended = true;
      break;
    }
    head.push(asBuffer(next.value));
    headBytes += next.value.byteLength;
  }
  const first = Buffer.concat(head);
  const kind = await sniffSceneUpload(first, file.fileName);
  const limit = kind.kind === "image" ? SCENE_MEDIA_LIMITS.imageBytes : clipUploadMaxBytes();
  const tooLarge = new SceneMediaRejection(413, `File too large: a scene ${kind.kind} must be ${megabytes(limit)} or smaller.`);
  let overLimit = false;

  /** The whole file, from its first bytes, failing as soon as it passes the limit. */
  async function* whole(): AsyncGenerator<Buffer> {
    let total = first.length;
    if (total > limit) {
      overLimit = true;
      throw tooLarge;
    }
    yield first;
    if (ended) return;
    for (;;) {
      const next = await source.next();
      if (next.done) return;
      total += next.value.byteLength;
      if (total > limit) {
        overLimit = true;
        throw tooLarge;
      }
      yield asBuffer(next.value);
    }
  }

  if (kind.kind === "image") {
    const chunks: Buffer[] = [];
    for await (const chunk of whole()) chunks.push(chunk);
    return { kind: "image", data: Buffer.concat(chunks) };
  }
  try {
    const stored = await saveMediaFromStream({
      userId,
      projectId: project.id,
      kind: "clip",
      mimeType: `video/${kind.type === "mov" ? "quicktime" : kind.type}`,
      extension: kind.type,
      stream: Readable.from(whole(), { objectMode: false }),
    });
    return { kind: "clip", type: kind.type, file: stored };
  } catch (e) {
    // the storage client may wrap the stream's error: the limit is what stopped it
    if (overLimit) throw tooLarge;
    throw e;
  }
}

/** Removes what receiveSceneUpload stored (the upload was refused after it arrived). */
export async function discardSceneUpload(received: ReceivedSceneUpload | null): Promise<void> {
  if (received?.kind === "clip") await deleteMedia(received.file.id);
}
