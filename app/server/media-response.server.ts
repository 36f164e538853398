// One of a creator's media files as an HTTP answer: owner only (anyone else gets the same 404 as a missing id),
// Range for seeking, a sandbox policy, types served as themselves only from an allow-list. Used by /api/media/:id
// and by /api/v1's video and thumbnail downloads (issue 32).
import type { Readable } from "node:stream";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { findMediaForUser, mediaSize, openMediaStream, StorageNotFoundError } from "~/core/storage.server";
import { refusal } from "~/core/refusal.server";

/** The 404 for a missing file and for another user's alike. */
export const MEDIA_NOT_FOUND = "Media file not found. It may have been deleted; generate it again.";

/** Types served as themselves; anything else (say, HTML a provider returned) is sent as a download. */
export const SERVED_MEDIA_TYPES = new Set([
  "image/png",
  "image/jpeg",
  "image/webp",
  "image/gif",
  "image/avif",
  // SVGs are cleaned on upload (svg-sanitize.server) and the sandbox policy below stops any script in them.
  "image/svg+xml",
  "audio/mpeg",
  "audio/wav",
  "audio/x-wav",
  "audio/wave",
  "audio/ogg",
  "audio/mp4",
  "audio/aac",
  "audio/flac",
  "video/mp4",
  "video/webm",
]);

/** The inclusive byte range a Range header asks for; null for none, "invalid" when it cannot be satisfied. */
export function parseRange(header: string | null, size: number): { start: number; end: number } | null | "invalid" {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // several ranges, or another unit: answer with the whole file, as RFC 9110 allows
  if (!match || (!match[1] && !match[2])) return null;
  const start = match[1] ? Number(match[1]) : Math.max(0, size - Number(match[2]));
  const end = match[1] && match[2] ? Math.min(Number(match[2]), size - 1) : size - 1;
  if (start >= size || start > end) return "invalid";
  return { start, end };
}

/**
 * The answer to a GET or HEAD of a stored file of `size` bytes, `headers` already set: 416 for a Range it cannot
 * satisfy, the headers alone for HEAD, else the bytes asked for (a Range's, or all) as `open` reads them. Media files
 * and voice samples answer alike.
 */
export async function rangedAnswer(request: Request, headers: Headers, size: number, open: (range?: { start: number; end: number }) => Promise<Readable>): Promise<Response> {
  const range = parseRange(request.headers.get("Range"), size);
  if (range === "invalid") {
    headers.set("Content-Range", `bytes */${size}`);
    return new Response(null, { status: 416, headers });
  }
  const status = range ? 206 : 200;
  if (range) headers.set("Content-Range", `bytes ${range.start}-${range.end}/${size}`);
  headers.set("Content-Length", String(range ? range.end - range.start + 1 : size));
  if (request.method === "HEAD") return new Response(null, { status, headers });
  return new Response(createReadableStreamFromReadable(await open(range ?? undefined)), { status, headers });
}

/** The answer for one of `userId`'s media files (also /api/v1's video and thumbnail downloads, issue 32). */
export async function serveMedia(request: Request, userId: string, mediaId: string): Promise<Response> {
  const file = await findMediaForUser(userId, mediaId);
  const size = file ? await mediaSize(file) : null;
  if (!file || size === null) throw refusal(404, MEDIA_NOT_FOUND);

  const url = new URL(request.url);
  const servable = SERVED_MEDIA_TYPES.has(file.mimeType.toLowerCase());
  const headers = new Headers({
    "Content-Type": servable ? file.mimeType : "application/octet-stream",
    "Accept-Ranges": "bytes",
    "Cache-Control": "private, max-age=3600",
    "X-Content-Type-Options": "nosniff",
    // Opened directly, a file cannot run script or reach this origin's cookies.
    "Content-Security-Policy": "sandbox; default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'",
  });
  if (url.searchParams.has("download") || !servable) {
    const name = (url.searchParams.get("filename") || `${file.kind}-${file.id}`).replace(/[^\w.-]+/g, "_");
    const extension = file.storageKey.split(".").pop();
    headers.set("Content-Disposition", `attachment; filename="${name.endsWith(`.${extension}`) ? name : `${name}.${extension}`}"`);
  }

  return rangedAnswer(request, headers, size, (range) =>
    openMediaStream(file, range).catch((e: unknown) => {
      // deleted between the size check and the read
      throw e instanceof StorageNotFoundError ? refusal(404, MEDIA_NOT_FOUND) : e;
    }),
  );
}
