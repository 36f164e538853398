// Each platform's own rules for a video and its caption (decision 216 lists every one with its source page), checked
// before anything is sent: a rule that the platform would refuse blocks the post for that platform only, with its
// reason; a rule the platform would only handle badly (a landscape video in a vertical feed) is a warning. The same
// functions run on the page (the list beside each platform) and on the server (a refused post is never started).

export type Platform = "tiktok" | "instagram";
export const PLATFORMS: readonly Platform[] = ["tiktok", "instagram"];
export const PLATFORM_NAMES: Record<Platform | "youtube", string> = { youtube: "YouTube", tiktok: "TikTok", instagram: "Instagram Reels" };

const MB = 1024 * 1024;

export const TIKTOK_RULES = {
  /** post_info.title, counted in UTF-16 code units */
  captionChars: 2200,
  maxBytes: 4 * 1024 * MB,
  /** used when creator info has not been read (TikTok lets every account post 10 minutes) */
  defaultMaxSeconds: 600,
  minFps: 23,
  maxFps: 60,
  minSide: 360,
  maxSide: 4096,
  // the media transfer guide's chunk rules
  minChunk: 5 * MB,
  maxChunk: 64 * MB,
  maxLastChunk: 128 * MB,
  maxChunks: 1000,
  /** the chunk size we choose (the guide's own example) */
  preferredChunk: 10_000_000,
} as const;

export const INSTAGRAM_RULES = {
  captionChars: 2200,
  hashtags: 30,
  mentions: 20,
  maxBytes: 300 * MB,
  minSeconds: 3,
  maxSeconds: 15 * 60,
  minFps: 23,
  maxFps: 60,
  maxWidth: 1920,
  minAspect: 0.01,
  maxAspect: 10,
} as const;

export type TikTokPrivacyLevel = "PUBLIC_TO_EVERYONE" | "MUTUAL_FOLLOW_FRIENDS" | "FOLLOWER_OF_CREATOR" | "SELF_ONLY";
export const TIKTOK_PRIVACY_LABELS: Record<TikTokPrivacyLevel, string> = {
  PUBLIC_TO_EVERYONE: "Everyone",
  MUTUAL_FOLLOW_FRIENDS: "Friends",
  FOLLOWER_OF_CREATOR: "Followers",
  SELF_ONLY: "Only me",
};

export type PlatformVideoFacts = {
  durationSeconds: number | null;
  width: number | null;
  height: number | null;
  fps: number | null;
  sizeBytes: number | null;
};

/** ffprobe's frame rate ("30000/1001" -> 29.97, "25" -> 25), or null when it cannot tell ("0/0"). */
export function parseFrameRate(text: string): number | null {
  const [num, den] = text.trim().split("/").map(Number);
  const fps = den === undefined ? num : num! / den;
  return fps !== undefined && Number.isFinite(fps) && fps > 0 ? Math.round(fps * 100) / 100 : null;
}

export type PlatformRuleResult = { rule: string; ok: boolean; blocking: boolean; message: string };

const minutes = (s: number) => (s % 60 === 0 ? `${s / 60} minutes` : `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`);
const hashtagsOf = (text: string) => text.match(/(^|\s)#[\p{L}\p{N}_]+/gu)?.length ?? 0;
const mentionsOf = (text: string) => text.match(/(^|\s)@[\w.]+/gu)?.length ?? 0;

function fpsRule(fps: number | null, min: number, max: number, platform: string): PlatformRuleResult {
  const ok = fps === null || (fps >= min - 0.01 && fps <= max + 0.01);
  return { rule: "frame-rate", ok, blocking: true, message: ok ? `Frame rate within ${min}-${max} fps` : `${platform} takes ${min} to ${max} frames per second; this video has ${fps}.` };
}

/** TikTok's rules; `maxSeconds` is the creator's own limit from creator info when it has been read. */
export function tiktokChecks(video: PlatformVideoFacts, caption: string, maxSeconds: number | null = null): PlatformRuleResult[] {
  const limit = maxSeconds ?? TIKTOK_RULES.defaultMaxSeconds;
  const results: PlatformRuleResult[] = [];
  const d = video.durationSeconds;
  results.push(
    d !== null && d > limit
      ? { rule: "duration", ok: false, blocking: true, message: `TikTok lets this account post videos of at most ${minutes(limit)}; this one is ${minutes(Math.round(d))}.` }
      : { rule: "duration", ok: true, blocking: true, message: `At most ${minutes(limit)} long` },
  );
  const size = video.sizeBytes;
  results.push(
    size !== null && size > TIKTOK_RULES.maxBytes
      ? { rule: "size", ok: false, blocking: true, message: "TikTok takes files of at most 4 GB." }
      : { rule: "size", ok: true, blocking: true, message: "At most 4 GB" },
  );
  const { width, height } = video;
  const sidesOk = width === null || height === null || [width, height].every((s) => s >= TIKTOK_RULES.minSide && s <= TIKTOK_RULES.maxSide);
  results.push({
    rule: "resolution",
    ok: sidesOk,
    blocking: true,
    message: sidesOk ? "Each side 360 to 4,096 px" : `TikTok takes each side from 360 to 4,096 px; this video is ${width}x${height}.`,
  });
  results.push(fpsRule(video.fps, TIKTOK_RULES.minFps, TIKTOK_RULES.maxFps, "TikTok"));
  const vertical = width === null || height === null || height > width;
  results.push({
    rule: "aspect",
    ok: vertical,
    blocking: false,
    message: vertical ? "Vertical video" : "TikTok shows a landscape video letter-boxed in its vertical feed.",
  });
  results.push(
    caption.length > TIKTOK_RULES.captionChars
      ? { rule: "caption", ok: false, blocking: true, message: `TikTok captions are at most 2,200 characters; this one has ${caption.length.toLocaleString("en-US")}.` }
      : { rule: "caption", ok: true, blocking: true, message: "Caption within 2,200 characters" },
  );
  return results;
}

export function instagramChecks(video: PlatformVideoFacts, caption: string): PlatformRuleResult[] {
  const results: PlatformRuleResult[] = [];
  const d = video.durationSeconds;
  if (d !== null && d > INSTAGRAM_RULES.maxSeconds) {
    results.push({ rule: "duration", ok: false, blocking: true, message: `Instagram Reels are at most 15 minutes; this video is ${minutes(Math.round(d))}.` });
  } else if (d !== null && d < INSTAGRAM_RULES.minSeconds) {
    results.push({ rule: "duration", ok: false, blocking: true, message: `Instagram Reels are at least 3 seconds; this video is ${d.toFixed(1)} s.` });
  } else results.push({ rule: "duration", ok: true, blocking: true, message: "3 seconds to 15 minutes long" });
  const size = video.sizeBytes;
  results.push(
    size !== null && size > INSTAGRAM_RULES.maxBytes
      ? { rule: "size", ok: false, blocking: true, message: `Instagram takes Reels of at most 300 MB; this file is ${Math.ceil(size / MB)} MB.` }
      : { rule: "size", ok: true, blocking: true, message: "At most 300 MB" },
  );
  const { width, height } = video;
  const widthOk = width === null || width <= INSTAGRAM_RULES.maxWidth;
  results.push({ rule: "resolution", ok: widthOk, blocking: true, message: widthOk ? "At most 1,920 px wide" : `Instagram takes Reels at most 1,920 px wide; this video is ${width} px.` });
  results.push(fpsRule(video.fps, INSTAGRAM_RULES.minFps, INSTAGRAM_RULES.maxFps, "Instagram"));
  const aspect = width && height ? width / height : null;
  const aspectInRange = aspect === null || (aspect >= INSTAGRAM_RULES.minAspect && aspect <= INSTAGRAM_RULES.maxAspect);
  if (!aspectInRange) results.push({ rule: "aspect", ok: false, blocking: true, message: "Instagram takes an aspect between 0.01:1 and 10:1." });
  else {
    const vertical = aspect === null || Math.abs(aspect - 9 / 16) < 0.02;
    results.push({ rule: "aspect", ok: vertical, blocking: false, message: vertical ? "9:16, as Reels recommends" : "Reels are shown 9:16: the Reels tab crops this video." });
  }
  const tags = hashtagsOf(caption);
  const mentions = mentionsOf(caption);
  results.push(
    [...caption].length > INSTAGRAM_RULES.captionChars
      ? { rule: "caption", ok: false, blocking: true, message: `Instagram captions are at most 2,200 characters; this one has ${[...caption].length.toLocaleString("en-US")}.` }
      : { rule: "caption", ok: true, blocking: true, message: "Caption within 2,200 characters" },
  );
  results.push(
    tags > INSTAGRAM_RULES.hashtags
      ? { rule: "hashtags", ok: false, blocking: true, message: `Instagram takes at most 30 hashtags; this caption has ${tags}.` }
      : { rule: "hashtags", ok: true, blocking: true, message: "At most 30 hashtags" },
  );
  results.push(
    mentions > INSTAGRAM_RULES.mentions
      ? { rule: "mentions", ok: false, blocking: true, message: `Instagram takes at most 20 @ mentions; this caption has ${mentions}.` }
      : { rule: "mentions", ok: true, blocking: true, message: "At most 20 @ mentions" },
  );
  return results;
}

export const platformChecks = (platform: Platform, video: PlatformVideoFacts, caption: string, tiktokMaxSeconds: number | null = null) =>
  platform === "tiktok" ? tiktokChecks(video, caption, tiktokMaxSeconds) : instagramChecks(video, caption);

/** The reasons a platform would refuse this post (empty: it may be posted). */
export const blockingReasons = (results: PlatformRuleResult[]) => results.filter((r) => !r.ok && r.blocking).map((r) => r.message);

export type TikTokChunkPlan = { chunkSize: number; totalChunkCount: number; chunks: { start: number; end: number }[] };

/**
 * The media transfer guide's chunks: under 5 MB the file goes whole; otherwise `chunkSize` bytes each (5 to 64 MB),
 * floor(size / chunkSize) of them, the last one taking the trailing bytes (at most 128 MB), at most 1,000 chunks.
 * `end` is exclusive.
 */
export function tiktokChunkPlan(size: number, preferred: number = TIKTOK_RULES.preferredChunk): TikTokChunkPlan {
  if (!Number.isInteger(size) || size <= 0) throw new Error("The video is empty.");
  if (size > TIKTOK_RULES.maxBytes) throw new Error("TikTok takes files of at most 4 GB.");
  let chunkSize = size < TIKTOK_RULES.minChunk ? size : Math.min(Math.max(preferred, TIKTOK_RULES.minChunk), TIKTOK_RULES.maxChunk, size);
  if (size >= TIKTOK_RULES.minChunk && Math.floor(size / chunkSize) > TIKTOK_RULES.maxChunks) chunkSize = Math.ceil(size / TIKTOK_RULES.maxChunks);
  const totalChunkCount = Math.max(1, Math.floor(size / chunkSize));
  const chunks = Array.from({ length: totalChunkCount }, (_, i) => ({ start: i * chunkSize, end: i === totalChunkCount - 1 ? size : (i + 1) * chunkSize }));
  return { chunkSize, totalChunkCount, chunks };
}

/** A caption written from the video's metadata within the platform's limit: the text, then the hashtags that fit. */
export function captionFor(platform: Platform, text: string, hashtags: readonly string[]): string {
  const limit = platform === "tiktok" ? TIKTOK_RULES.captionChars : INSTAGRAM_RULES.captionChars;
  const maxTags = platform === "instagram" ? INSTAGRAM_RULES.hashtags : Infinity;
  const tags = hashtags
    .map((t) => t.trim().replace(/^#*/, "").replace(/[^\p{L}\p{N}_]/gu, ""))
    .filter(Boolean)
    .slice(0, maxTags)
    .map((t) => `#${t}`);
  let caption = text.trim();
  for (const tag of tags) {
    const next = `${caption}${caption ? (caption.includes("#") ? " " : "\n\n") : ""}${tag}`;
    if (next.length > limit) break;
    caption = next;
  }
  return caption.slice(0, limit);
}
