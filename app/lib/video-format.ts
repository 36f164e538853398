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

/**
 * Output size for a format under a plan's height limit: 16:9 is 1920x1080 (HD plans) or 1280x720 (free);
 * 9:16 is 1080x1920 or 720x1280. Larger plans get 1080p too: scene images are generated at HD sizes.
 */
export function videoSizeFor(format: VideoFormat, maxRenderHeight: number): VideoSize {
  const hd = maxRenderHeight >= 1080;
  if (format === "16:9") return hd ? { width: 1920, height: 1080 } : { width: 1280, height: 720 };
  return hd ? { width: 1080, height: 1920 } : { width: 720, height: 1280 };
}

/** The aspect ratio scene images are generated at. */
export function imageAspectFor(format: VideoFormat): "16:9" | "9:16" {
  return format === "16:9" ? "16:9" : "9:16";
}

/** Burned-in captions are on by default for vertical video, where viewers often watch muted. */
export function captionsByDefault(format: VideoFormat): boolean {
  return format !== "16:9";
}
