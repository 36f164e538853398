// Sized WebP variants of a creator's images (issue 36, app/lib/media-variants.ts): made with sharp the first time a
// width is asked for, kept in the media storage beside the original (the folder or the bucket, so every web
// process and every restart finds them), and answered like the media route: owner only, anyone else the same 404
// as a missing id. A variant never changes (media files are immutable), so the browser may keep it for a year.
import sharp from "sharp";
import { RESIZABLE_IMAGE_TYPES, type MediaVariantWidth } from "~/lib/media-variants";
import { MEDIA_NOT_FOUND, serveMedia } from "./media-response.server";
import { findMediaForUser, mediaBackend, mediaVariantKey, readMedia, StorageNotFoundError, type StoredMediaFile } from "~/core/storage.server";
import { refusal } from "~/core/refusal.server";

/** The most pixels a variant is made from (the scene upload's own limit); a larger original is answered as itself. */
const MAX_SOURCE_PIXELS = 40_000_000;
const WEBP_QUALITY = 75;

// One making per variant at a time: a page asking for six scenes at once, twice, makes each variant once.
const making = new Map<string, Promise<Buffer | null>>();

/** The variant's bytes: stored, or made now and stored. Null when the original cannot be decoded. */
async function variantBytes(file: StoredMediaFile, width: MediaVariantWidth): Promise<Buffer | null> {
  const key = mediaVariantKey(file, width);
  try {
    return await mediaBackend().read(key);
  } catch (e) {
    if (!(e instanceof StorageNotFoundError)) throw e;
  }
  let pending = making.get(key);
  if (!pending) {
    pending = makeVariant(file, key, width).finally(() => making.delete(key));
    making.set(key, pending);
  }
  return pending;
}

async function makeVariant(file: StoredMediaFile, key: string, width: MediaVariantWidth): Promise<Buffer | null> {
  const original = await readMedia(file);
  let data: Buffer;
  try {
    data = await sharp(original, { limitInputPixels: MAX_SOURCE_PIXELS, animated: false })
      .rotate()
      .resize({ width, withoutEnlargement: true })
      .webp({ quality: WEBP_QUALITY })
      .toBuffer();
  } catch {
    return null;
  }
  await mediaBackend().put(key, data, { contentType: "image/webp" });
  return data;
}

/** GET/HEAD /api/media/:id?w=<width>: the image at that width as WebP; a file no variant is made of, as itself. */
export async function serveMediaVariant(request: Request, userId: string, mediaId: string, width: MediaVariantWidth): Promise<Response> {
  const file = await findMediaForUser(userId, mediaId);
  if (!file || !RESIZABLE_IMAGE_TYPES.has(file.mimeType.toLowerCase())) return serveMedia(request, userId, mediaId);
  const data = await variantBytes(file, width).catch((e: unknown) => {
    throw e instanceof StorageNotFoundError ? refusal(404, MEDIA_NOT_FOUND) : e;
  });
  if (!data) return serveMedia(request, userId, mediaId);
  const headers = new Headers({
    "Content-Type": "image/webp",
    "Content-Length": String(data.length),
    "Cache-Control": "private, max-age=31536000, immutable",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "sandbox; default-src 'none'",
  });
  return new Response(request.method === "HEAD" ? null : new Uint8Array(data), { status: 200, headers });
}
