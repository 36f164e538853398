// The video format: one home for everything that depends on it (the values a creator picks, how the database
// stores them, labels, duration rules, output sizes, the image aspect and whether captions are on by default).
// Read by the pages, the server, the providers, the workflows and the Remotion composition.
import type { Resolution } from "~/generated/prisma/enums";

export const RESOLUTIONS = ["16:9", "9:16", "9:16-tiktok"] as const;
/** A format as the spec and the browser name it. */
export type ResolutionValue = (typeof RESOLUTIONS)[number];
export type VideoFormat = ResolutionValue;

export const DURATION_RULES: Record<ResolutionValue, { label: string; default: number; min: number; max: number; step: number }> = {
  "16:9": { label: "16:9 (YouTube)", default: 300, min: 300, max: 3600, step: 60 },
  "9:16": { label: "9:16 (Shorts)", default: 30, min: 5, max: 180, step: 5 },
  "9:16-tiktok": { label: "9:16 (TikTok)", default: 60, min: 5, max: 3600, step: 60 },
};

/** How the database's Resolution enum names each format. */
const STORED_AS: Record<Resolution, ResolutionValue> = { landscape: "16:9", shorts: "9:16", tiktok: "9:16-tiktok" };

export const resolutionValue = (stored: Resolution): ResolutionValue => STORED_AS[stored];
export const resolutionEnum = (value: ResolutionValue): Resolution =>
  (Object.keys(STORED_AS) as Resolution[]).find((key) => STORED_AS[key] === value)!;

export type VideoSize = { width: number; height: number };

/** The render qualities, named by the short side of the picture: 720p (free), HD 1080p and 4K 2160p (premium). */
export const RENDER_HEIGHTS = [720, 1080, 2160] as const;
export type RenderHeight = (typeof RENDER_HEIGHTS)[number];

export const RENDER_HEIGHT_LABELS: Record<RenderHeight, string> = { 720: "720p", 1080: "HD 1080p", 2160: "4K 2160p" };

const LANDSCAPE_SIZES: Record<RenderHeight, VideoSize> = {
  720: { width: 1280, height: 720 },
  1080: { width: 1920, height: 1080 },
  2160: { width: 3840, height: 2160 },
};

/**
 * Output size for a format at a quality (or the tallest quality not above the given height): 16:9 is
 * 1280x720, 1920x1080 or 3840x2160; 9:16 is the same sizes upright (720x1280, 1080x1920, 2160x3840).
 */
export function videoSizeFor(format: VideoFormat, height: number): VideoSize {
  const quality = [...RENDER_HEIGHTS].reverse().find((h) => h <= height) ?? 720;
  const size = LANDSCAPE_SIZES[quality];
  return format === "16:9" ? size : { width: size.height, height: size.width };
}

/** The quality a render uses when none is chosen: HD when the plan allows it (4K is asked for: it is slow). */
export function defaultRenderHeight(maxHeight: number): RenderHeight {
  return maxHeight >= 1080 ? 1080 : 720;
}

/** The aspect ratio scene images are generated at. */
export function imageAspectFor(format: VideoFormat): "16:9" | "9:16" {
  return format === "16:9" ? "16:9" : "9:16";
}

/** Burned-in captions are on by default for vertical video, where viewers often watch muted. */
export function captionsByDefault(format: VideoFormat): boolean {
  return format !== "16:9";
}
