// Pexels stock photos and video clips, searched from a scene's image prompt with the creator's free Pexels key.
// The documented API (https://www.pexels.com/api/documentation/): GET /v1/search and GET /videos/search with
// "Authorization: <key>" and the params query, orientation (landscape | portrait | square), size
// (large | medium | small: the least size wanted), per_page and page. Photos answer
// { photos: [{ id, width, height, url, photographer, photographer_url, alt, src: { original, large2x, large,
// medium, small, portrait, landscape, tiny } }] }; videos answer { videos: [{ id, width, height, url, duration,
// user: { name, url }, video_files: [{ id, quality, file_type, width, height, link }] }] }. Pexels asks that
// the photographer and Pexels be credited: every result carries its credit.
import { z } from "zod";
import { ProviderError } from "../errors";
import { createHttpClient, joinUrl, type CloudAdapterOptions } from "../http.server";
import type { AspectRatio } from "../types";
import { isNoiseWord } from "./scene-subjects.server";

const PROVIDER = "Pexels";
export const PEXELS_PER_PAGE = 15;
/** Stock clips longer than this are not chosen (a scene rarely lasts longer; the clip is cut to the scene). */
export const PEXELS_MAX_CLIP_SECONDS = 60;

/** Who made a stock photo or clip, and where it lives: credited in the video's description. */
export type MediaCredit = { provider: "Pexels"; kind: "photo" | "video"; id: number; author: string; authorUrl: string; pageUrl: string };

export type StockPhoto = { id: number; downloadUrl: string; width: number; height: number; alt: string; credit: MediaCredit; query: string };
export type StockClip = { id: number; downloadUrl: string; width: number; height: number; durationSeconds: number; credit: MediaCredit; query: string };

export type StockSearch = {
  /** The scene's image prompt; its subject words make the query. */
  prompt: string;
  /** The scene's narration: the query's words when the prompt has none worth searching. */
  narration?: string;
  aspectRatio: AspectRatio;
  /** The pixel size the scene is shown at: the chosen file covers it when one does. */
  size: { width: number; height: number };
  /** Photos/videos already used by other scenes of the project: chosen only when nothing else matches. */
  exclude?: readonly number[];
};

export interface StockMediaProvider {
  readonly name: string;
  searchPhoto(search: StockSearch): Promise<StockPhoto>;
  searchClip(search: StockSearch): Promise<StockClip>;
  /** Downloads a file a search pointed to. */
  download(url: string): Promise<{ data: Buffer; contentType: string }>;
}

// ── Queries ──────────────────────────────────────────────────────────────────────────────────────────

const wordsOf = (text: string) => {
  const out: string[] = [];
  for (const raw of text.match(/[A-Za-z][A-Za-z'’-]*/g) ?? []) {
    const word = raw.replace(/[’']s$/i, "").toLowerCase();
    if (isNoiseWord(word) || out.includes(word)) continue;
    out.push(word);
  }
  return out;
};

/**
 * The searches to try for a scene, most specific first: up to four subject words of the prompt (the part
 * before " — " in offline prompts; style words like "cinematic photograph" dropped), then its first two, then
 * its first word. With no words worth searching in the prompt, the narration's.
 */
export function pexelsQueries(prompt: string, narration = ""): string[] {
  const subjectPart = prompt.split(/\s[—–-]\s/)[0] ?? prompt;
  let words = wordsOf(subjectPart);
  if (!words.length) words = wordsOf(narration);
  if (!words.length) return [];
  const queries = [words.slice(0, 4).join(" "), words.slice(0, 2).join(" "), words[0]!];
  return [...new Set(queries)];
}

/** Pexels' orientation for a format: portrait for 9:16, landscape for 16:9. */
export const pexelsOrientation = (aspect: AspectRatio): "portrait" | "landscape" => (aspect === "9:16" ? "portrait" : "landscape");

// ── Choosing a file ──────────────────────────────────────────────────────────────────────────────────

const PhotoSchema = z.object({
  id: z.number(),
  width: z.number().positive(),
  height: z.number().positive(),
  url: z.string(),
  photographer: z.string().default("Unknown photographer"),
  photographer_url: z.string().default("https://www.pexels.com"),
  alt: z.string().nullish(),
  src: z.object({ original: z.string().url(), large2x: z.string().url().optional(), large: z.string().url().optional(), medium: z.string().url().optional() }),
});
const PhotoPageSchema = z.object({ photos: z.array(PhotoSchema) });
export type PexelsPhoto = z.infer<typeof PhotoSchema>;

const VideoFileSchema = z.object({
  id: z.number().optional(),
  quality: z.string().nullish(),
  file_type: z.string().nullish(),
  width: z.number().nullish(),
  height: z.number().nullish(),
  link: z.string().url(),
});
const VideoSchema = z.object({
  id: z.number(),
  width: z.number().positive(),
  height: z.number().positive(),
  url: z.string(),
  duration: z.number().nonnegative(),
  user: z.object({ name: z.string().default("Unknown videographer"), url: z.string().default("https://www.pexels.com") }),
  video_files: z.array(VideoFileSchema),
});
const VideoPageSchema = z.object({ videos: z.array(VideoSchema) });
export type PexelsVideo = z.infer<typeof VideoSchema>;
export type PexelsVideoFile = z.infer<typeof VideoFileSchema>;

/** Pixels an image may have before it is too large to open safely (the own-media limit, decision 071). */
const MAX_PHOTO_PIXELS = 40_000_000;

/**
 * The size of each `src` rendition of a photo, as Pexels documents them: `large2x` fits 1880x1300 (940x650 at
 * twice the density), `large` 940x650, `medium` is 350 high; `original` is the photo itself.
 */
function photoRenditions(photo: PexelsPhoto): { url: string; width: number; height: number }[] {
  const fit = (maxW: number, maxH: number) => Math.min(1, maxW / photo.width, maxH / photo.height);
  const scaled = (url: string | undefined, s: number) => (url ? [{ url, width: Math.round(photo.width * s), height: Math.round(photo.height * s) }] : []);
  return [
    ...scaled(photo.src.medium, Math.min(1, 350 / photo.height)),
    ...scaled(photo.src.large, fit(940, 650)),
    ...scaled(photo.src.large2x, fit(1880, 1300)),
    { url: photo.src.original, width: photo.width, height: photo.height },
  ];
}

/**
 * The rendition to download for a scene of `size`: the smallest that covers it (no upscaling after the crop);
 * when none does, the largest one that is still safe to open.
 */
export function choosePhotoFile(photo: PexelsPhoto, size: { width: number; height: number }): { url: string; width: number; height: number } {
  const renditions = photoRenditions(photo);
  const covering = renditions.filter((r) => r.width >= size.width && r.height >= size.height && r.width * r.height <= MAX_PHOTO_PIXELS);
  if (covering.length) return covering.reduce((a, b) => (b.width * b.height < a.width * a.height ? b : a));
  const safe = renditions.filter((r) => r.width * r.height <= MAX_PHOTO_PIXELS);
  return (safe.length ? safe : renditions).reduce((a, b) => (b.width * b.height > a.width * a.height ? b : a));
}

const isPortrait = (w: number, h: number) => h > w;

/**
 * The MP4 file to download for a scene of `size`: of the files in the scene's orientation, the smallest that
 * covers the size (an HD file for an HD scene, never the 4K one when Full HD covers it); when none does, the
 * largest. Files of unknown size or another type are skipped; undefined when none is usable.
 */
export function chooseVideoFile(video: PexelsVideo, size: { width: number; height: number }): (PexelsVideoFile & { width: number; height: number }) | undefined {
  const files = video.video_files
    .filter((f): f is PexelsVideoFile & { width: number; height: number } => !!f.width && !!f.height && (f.file_type ?? "video/mp4") === "video/mp4")
    .filter((f) => isPortrait(f.width, f.height) === isPortrait(size.width, size.height) || f.width === f.height);
  if (!files.length) return undefined;
  const covering = files.filter((f) => f.width >= size.width && f.height >= size.height);
  if (covering.length) return covering.reduce((a, b) => (b.width * b.height < a.width * a.height ? b : a));
  return files.reduce((a, b) => (b.width * b.height > a.width * a.height ? b : a));
}

/** The first result not used by another scene (else the first), in the scene's orientation. */
function pickFresh<T extends { id: number }>(items: T[], exclude: readonly number[] = []): T | undefined {
  return items.find((item) => !exclude.includes(item.id)) ?? items[0];
}

// ── The provider ─────────────────────────────────────────────────────────────────────────────────────

export function createPexelsProvider(options: CloudAdapterOptions): StockMediaProvider {
  const http = createHttpClient({ provider: PROVIDER, policy: options.policy, call: options.call });
  const headers = { authorization: options.apiKey, accept: "application/json" };

  function searchUrl(path: string, query: string, search: StockSearch, size: "small" | "medium") {
    const params = new URLSearchParams({ query, orientation: pexelsOrientation(search.aspectRatio), size, per_page: String(PEXELS_PER_PAGE), page: "1" });
    return `${joinUrl(options.baseUrl, path)}?${params}`;
  }

  function queriesFor(search: StockSearch): string[] {
    const queries = pexelsQueries(search.prompt, search.narration);
    if (!queries.length) {
      throw new ProviderError(PROVIDER, "rejected", "This scene's image prompt has no words to search Pexels for. Write what the scene shows in its image prompt.");
    }
    return queries;
  }

  const noResult = (what: string, queries: string[]) =>
    new ProviderError(
      PROVIDER,
      "rejected",
      `Pexels found no ${what} for "${queries[0]}"${queries.length > 1 ? ` (nor for ${queries.slice(1).map((q) => `"${q}"`).join(", ")})` : ""}. Reword this scene's image prompt, or choose another image source on the storyboard.`,
    );

  return {
    name: PROVIDER,

    async searchPhoto(search) {
      const queries = queriesFor(search);
      for (const query of queries) {
        // "small" is Pexels' 4-megapixel minimum: enough to cover an HD scene in either orientation.
        const page = await http.getJson(searchUrl("/v1/search", query, search, "small"), { headers }, PhotoPageSchema, "the photo search results");
        const photos = page.photos.filter((p) => isPortrait(p.width, p.height) === isPortrait(search.size.width, search.size.height));
        const photo = pickFresh(photos, search.exclude);
        if (!photo) continue;
        const file = choosePhotoFile(photo, search.size);
        return {
          id: photo.id,
          downloadUrl: file.url,
          width: file.width,
          height: file.height,
          alt: photo.alt ?? "",
          query,
          credit: { provider: "Pexels", kind: "photo", id: photo.id, author: photo.photographer, authorUrl: photo.photographer_url, pageUrl: photo.url },
        };
      }
      throw noResult("photo", queries);
    },

    async searchClip(search) {
      const queries = queriesFor(search);
      for (const query of queries) {
        // "medium" is Full HD: the least that covers an HD scene without upscaling.
        const page = await http.getJson(searchUrl("/videos/search", query, search, "medium"), { headers }, VideoPageSchema, "the video search results");
        const usable = page.videos
          .filter((v) => v.duration > 0 && v.duration <= PEXELS_MAX_CLIP_SECONDS)
          .map((video) => ({ video, file: chooseVideoFile(video, search.size) }))
          .filter((c): c is { video: PexelsVideo; file: NonNullable<ReturnType<typeof chooseVideoFile>> } => !!c.file)
          .map((c) => ({ ...c, id: c.video.id }));
        const chosen = pickFresh(usable, search.exclude);
        if (!chosen) continue;
        const { video, file } = chosen;
        return {
          id: video.id,
          downloadUrl: file.link,
          width: file.width,
          height: file.height,
          durationSeconds: video.duration,
          query,
          credit: { provider: "Pexels", kind: "video", id: video.id, author: video.user.name, authorUrl: video.user.url, pageUrl: video.url },
        };
      }
      throw noResult("video clip", queries);
    },

    download(url) {
      // Pexels serves its files from its CDN without the key.
      return http.download(url);
    },
  };
}

/** The credit lines for a video's description: each author once, then Pexels. Empty when nothing is stock media. */
export function mediaCreditLines(credits: readonly MediaCredit[]): string[] {
  if (!credits.length) return [];
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const credit of credits) {
    const key = `${credit.kind}:${credit.author}`;
    if (seen.has(key)) continue;
    seen.add(key);
    lines.push(`${credit.kind === "photo" ? "Photo" : "Video"} by ${credit.author} on Pexels: ${credit.pageUrl}`);
  }
  return ["Stock media from Pexels (https://www.pexels.com):", ...lines];
}
