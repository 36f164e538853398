// Image uploads for settings: the owner's logo and favicon (global branding, shown to every visitor) and each
// user's thumbnail watermark. The type is decided by the file's bytes (file-type), never by its name; a name
// or declared type that disagrees with the bytes is refused; SVGs are cleaned before they are stored.
import { fileTypeFromBuffer } from "file-type";
import sharp from "sharp";
import type { MediaFile } from "~/generated/prisma/client";
import { FILE_LIMITS } from "~/lib/constants";
import { getGlobalBranding, setGlobalBranding, type GlobalBranding } from "./branding.server";
import { prisma } from "~/core/db.server";
import { setWatermarkUrl } from "~/core/settings.server";
import { deleteMedia, mediaIdFromUrl, mediaUrl, saveMedia, withByteCount, type StoredMediaFile } from "~/core/storage.server";
import { looksLikeSvg, sanitizeSvg } from "./svg-sanitize.server";

export type ImageType = "svg" | "png" | "jpg" | "webp" | "gif" | "avif" | "tif" | "ico";
export type UploadKind = "logo" | "favicon" | "watermark";

type UploadRule = { label: string; maxBytes: number; types: ImageType[] };

export const UPLOAD_RULES: Record<UploadKind, UploadRule> = {
  logo: { label: "logo", maxBytes: FILE_LIMITS.logoBytes, types: ["svg", "png", "jpg", "webp"] },
  favicon: { label: "favicon", maxBytes: FILE_LIMITS.logoBytes, types: ["ico", "png", "svg", "jpg"] },
  // The spec limits the watermark only on the older page (5 MB); the same limit keeps the newer one bounded.
  // "Any image type" on the newer page: every format the thumbnail renderer (sharp) can composite.
  watermark: { label: "watermark", maxBytes: FILE_LIMITS.legacyWatermarkBytes, types: ["png", "jpg", "webp", "gif", "avif", "tif", "svg"] },
};

const TYPE_INFO: Record<ImageType, { name: string; mime: string }> = {
  svg: { name: "SVG", mime: "image/svg+xml" },
  png: { name: "PNG", mime: "image/png" },
  jpg: { name: "JPEG", mime: "image/jpeg" },
  webp: { name: "WebP", mime: "image/webp" },
  gif: { name: "GIF", mime: "image/gif" },
  avif: { name: "AVIF", mime: "image/avif" },
  tif: { name: "TIFF", mime: "image/tiff" },
  ico: { name: "ICO", mime: "image/x-icon" },
};

const EXTENSION_TYPES: Record<string, ImageType> = {
  svg: "svg",
  png: "png",
  jpg: "jpg",
  jpeg: "jpg",
  webp: "webp",
  gif: "gif",
  avif: "avif",
  tif: "tif",
  tiff: "tif",
  ico: "ico",
};
const MIME_TYPES: Record<string, ImageType> = {
  "image/svg+xml": "svg",
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/jpg": "jpg",
  "image/webp": "webp",
  "image/gif": "gif",
  "image/avif": "avif",
  "image/tiff": "tif",
  "image/x-icon": "ico",
  "image/vnd.microsoft.icon": "ico",
};

/** A refused upload: the HTTP status and a reason a person can act on. */
export class UploadRejection extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "UploadRejection";
  }
}

export type CheckedImage = { data: Buffer; type: ImageType; mimeType: string; width: number | null; height: number | null };

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, "")} MB`;
const listTypes = (types: ImageType[]) => types.map((t) => TYPE_INFO[t].name).join(", ");

/** What the bytes are: one of our image types, another detected format (e.g. "pdf"), or null when unknown. */
async function sniff(data: Buffer): Promise<{ type: ImageType | null; detected: string | null }> {
  const found = await fileTypeFromBuffer(data);
  // file-type calls any document opening with "<?xml" XML; an SVG is one of those.
  if (found && found.ext !== "xml") {
    const type = (found.ext === "cur" ? null : EXTENSION_TYPES[found.ext]) ?? null;
    return { type, detected: found.ext };
  }
  if (looksLikeSvg(data)) return { type: "svg", detected: "svg" };
  return { type: null, detected: null };
}

/**
 * Checks an uploaded image against the rule for its kind and returns the bytes to store (an SVG comes back
 * cleaned). Throws UploadRejection with the reason: too large, not an image, a type this kind does not take,
 * a name or declared type that disagrees with the contents, or an SVG with active content.
 */
export async function checkImageUpload(
  kind: UploadKind,
  input: { data: Buffer; fileName?: string | null; declaredMimeType?: string | null },
): Promise<CheckedImage> {
  const rule = UPLOAD_RULES[kind];
  if (input.data.length === 0) throw new UploadRejection(400, `The ${rule.label} file is empty. Choose an image file.`);
  if (input.data.length > rule.maxBytes) {
    throw new UploadRejection(
      413,
      `File too large: the ${rule.label} must be ${megabytes(rule.maxBytes)} or smaller, and this file is ${megabytes(input.data.length)}.`,
    );
  }

  const { type, detected } = await sniff(input.data);
  if (!type) {
    const what = detected ? `${detected.toUpperCase()} data` : "not an image we recognise";
    throw new UploadRejection(415, `Invalid file type: this file is ${what}. The ${rule.label} must be an image (${listTypes(rule.types)}).`);
  }
  const actual = TYPE_INFO[type].name;

  const extension = input.fileName?.match(/\.([A-Za-z0-9]+)$/)?.[1]?.toLowerCase();
  if (extension && EXTENSION_TYPES[extension] !== type) {
    throw new UploadRejection(415, `Invalid file type: the file is named .${extension} but its contents are a ${actual} image.`);
  }
  const declared = input.declaredMimeType?.split(";")[0]?.trim().toLowerCase();
  if (declared && declared !== "application/octet-stream" && MIME_TYPES[declared] !== type) {
    throw new UploadRejection(415, `Invalid file type: the file says it is ${declared} but its contents are a ${actual} image.`);
  }
  if (!rule.types.includes(type)) {
    throw new UploadRejection(415, `Invalid file type: a ${actual} image cannot be used as the ${rule.label}. Use ${listTypes(rule.types)}.`);
  }

  let data = input.data;
  if (type === "svg") {
    const checked = sanitizeSvg(input.data.toString("utf8"));
    if (!checked.ok) throw new UploadRejection(422, `This SVG was refused because ${checked.reason}. Remove that and upload it again.`);
    data = Buffer.from(checked.svg, "utf8");
  }

  // ICO is not decoded by sharp; its signature was checked above. Every other image must decode.
  if (type === "ico") return { data, type, mimeType: TYPE_INFO.ico.mime, width: null, height: null };
  try {
    const meta = await sharp(data).metadata();
    return { data, type, mimeType: TYPE_INFO[type].mime, width: meta.width ?? null, height: meta.height ?? null };
  } catch {
    throw new UploadRejection(415, `Invalid file type: this ${actual} image could not be read; it may be damaged. Save it again and retry.`);
  }
}

/** Parses "data:<mime>;base64,<data>" (the older page's uploads). */
export function decodeDataUrl(dataUrl: string): { mimeType: string | null; data: Buffer } {
  const match = dataUrl.match(/^data:([^;,]*)((?:;[^;,]*)*?);base64,([A-Za-z0-9+/=\s]*)$/);
  if (!match) throw new UploadRejection(400, "imageData must be an image as a base64 data URL (data:image/png;base64,...).");
  return { mimeType: match[1] || null, data: Buffer.from(match[3]!.replace(/\s/g, ""), "base64") };
}

/** Bytes a base64 text of this length decodes to, at most: used to refuse a huge body before decoding it. */
export function decodedSizeOf(base64Length: number): number {
  return Math.floor((base64Length * 3) / 4);
}

// ── Branding: files of kind "branding", served to every visitor by /api/branding/<id> ─────────────

export function brandingUrl(file: Pick<MediaFile, "id">): string {
  return `/api/branding/${file.id}`;
}

export function brandingIdFromUrl(url: string | null | undefined): string | null {
  const match = url?.match(/^\/api\/branding\/([A-Za-z0-9_-]+)$/);
  return match ? match[1]! : null;
}

/** A branding file by id; other kinds of media are never served by the branding route. */
export async function findBrandingFile(id: string): Promise<StoredMediaFile | null> {
  const row = await prisma.mediaFile.findFirst({ where: { id, kind: "branding" } });
  return row && withByteCount(row);
}

const BRANDING_FIELD = { logo: "customLogoUrl", favicon: "customFaviconUrl" } as const;

/** Stores the owner's new logo or favicon, points global branding at it and removes the one it replaces. */
export async function saveBrandingImage(ownerId: string, kind: "logo" | "favicon", image: CheckedImage): Promise<GlobalBranding> {
  const file = await saveMedia({
    userId: ownerId,
    kind: "branding",
    data: image.data,
    mimeType: image.mimeType,
    extension: image.type,
    width: image.width,
    height: image.height,
  });
  const field = BRANDING_FIELD[kind];
  const previous = (await getGlobalBranding())[field];
  const branding = await setGlobalBranding({ [field]: brandingUrl(file) });
  await removeBrandingFile(previous);
  return branding;
}

export async function removeBrandingImage(kind: "logo" | "favicon"): Promise<GlobalBranding> {
  const field = BRANDING_FIELD[kind];
  const previous = (await getGlobalBranding())[field];
  const branding = await setGlobalBranding({ [field]: null });
  await removeBrandingFile(previous);
  return branding;
}

async function removeBrandingFile(url: string | null) {
  const id = brandingIdFromUrl(url);
  if (id && (await findBrandingFile(id))) await deleteMedia(id);
}

// ── Watermark: per user, private, served by the owner-only media route ───────────────────────────

export async function saveWatermarkImage(userId: string, image: CheckedImage): Promise<string> {
  const file = await saveMedia({
    userId,
    kind: "watermark",
    data: image.data,
    mimeType: image.mimeType,
    extension: image.type,
    width: image.width,
    height: image.height,
  });
  const url = mediaUrl(file);
  const previous = await setWatermarkUrl(userId, url);
  const previousId = mediaIdFromUrl(previous);
  if (previousId) {
    const old = await prisma.mediaFile.findFirst({ where: { id: previousId, userId, kind: "watermark" } });
    if (old) await deleteMedia(old);
  }
  return url;
}
