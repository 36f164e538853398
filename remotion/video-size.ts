// Output sizes per format and plan: 16:9 is 1920x1080 (premium) or 1280x720 (free); 9:16 is 1080x1920
// (premium) or 720x1280 (free). 4K plans get 1080p too: the scene images are generated at HD sizes.
export type VideoFormat = "16:9" | "9:16" | "9:16-tiktok";
export type VideoSize = { width: number; height: number };

export function videoSizeFor(format: VideoFormat, maxRenderHeight: number): VideoSize {
  const hd = maxRenderHeight >= 1080;
  if (format === "16:9") return hd ? { width: 1920, height: 1080 } : { width: 1280, height: 720 };
  return hd ? { width: 1080, height: 1920 } : { width: 720, height: 1280 };
}

/** Burned-in captions are on by default for vertical video, where viewers often watch muted. */
export function captionsByDefault(format: VideoFormat): boolean {
  return format !== "16:9";
}
