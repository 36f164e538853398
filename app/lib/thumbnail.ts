// Thumbnail rules shared by the browser and the server: the nine fonts, the size
// scale, the frame geometry, and the title layout (word wrapping that keeps every line inside the frame).
// The layout is pure: it takes a measuring function, so the server measures with the real font's metrics
// and tests can measure with anything.
import { z } from "zod";
import { THUMBNAIL } from "./constants";

export type ThumbnailFontOption = { family: string; value: string };

/** The spec's fonts in its order; `value` is the stable id the API carries as fontValue. */
export const THUMBNAIL_FONTS: readonly ThumbnailFontOption[] = THUMBNAIL.fonts.map((family) => ({
  family,
  value: family.toLowerCase().replace(/[^a-z0-9]+/g, "-"),
}));

/**
 * Each font's @fontsource face: the package, the CSS family its stylesheet declares and the weight (Montserrat
 * Extra Bold is Montserrat at 800). The page's previews and the server's renderer read the same face, so a preview
 * shows the weight the thumbnail is drawn with.
 */
export const THUMBNAIL_FONT_FACES: Readonly<Record<string, { pkg: string; cssFamily: string; weight: number }>> = {
  "bebas-neue": { pkg: "bebas-neue", cssFamily: "Bebas Neue", weight: 400 },
  anton: { pkg: "anton", cssFamily: "Anton", weight: 400 },
  oswald: { pkg: "oswald", cssFamily: "Oswald", weight: 700 },
  poppins: { pkg: "poppins", cssFamily: "Poppins", weight: 800 },
  bangers: { pkg: "bangers", cssFamily: "Bangers", weight: 400 },
  "luckiest-guy": { pkg: "luckiest-guy", cssFamily: "Luckiest Guy", weight: 400 },
  "russo-one": { pkg: "russo-one", cssFamily: "Russo One", weight: 400 },
  "montserrat-extra-bold": { pkg: "montserrat", cssFamily: "Montserrat", weight: 800 },
  "lilita-one": { pkg: "lilita-one", cssFamily: "Lilita One", weight: 400 },
};

export const DEFAULT_THUMBNAIL_FONT = THUMBNAIL_FONTS.find((f) => f.family === THUMBNAIL.defaultFont)!;

/** The font for a saved preference (family name or value); the default for anything else. */
export function thumbnailFontFor(preference: string | null | undefined): ThumbnailFontOption {
  const wanted = (preference ?? "").trim().toLowerCase();
  return THUMBNAIL_FONTS.find((f) => f.value === wanted || f.family.toLowerCase() === wanted) ?? DEFAULT_THUMBNAIL_FONT;
}

/** 40, 44, ... 160: the sizes the slider offers. */
export const THUMBNAIL_FONT_SIZES: readonly number[] = Array.from(
  { length: (THUMBNAIL.maxFontSize - THUMBNAIL.minFontSize) / THUMBNAIL.fontSizeStep + 1 },
  (_, i) => THUMBNAIL.minFontSize + i * THUMBNAIL.fontSizeStep,
);

/** A saved preference as a size on the scale (nearest step, within 40-160); 72 when there is none. */
export function thumbnailFontSizeFor(preference: number | null | undefined): number {
  if (typeof preference !== "number" || !Number.isFinite(preference)) return THUMBNAIL.defaultFontSize;
  const clamped = Math.min(THUMBNAIL.maxFontSize, Math.max(THUMBNAIL.minFontSize, preference));
  return THUMBNAIL.minFontSize + Math.round((clamped - THUMBNAIL.minFontSize) / THUMBNAIL.fontSizeStep) * THUMBNAIL.fontSizeStep;
}

/** At most this many characters of title text (the video title's own limit). */
export const THUMBNAIL_TITLE_MAX_CHARS = 200;

/** The body of POST /api/generate-thumbnail, as the spec lists it (plus the optional project it is for). */
export const GenerateThumbnailSchema = z.object({
  imageUrl: z.string({ message: "imageUrl: pick a scene image" }).min(1, "pick a scene image").max(500),
  title: z
    .string({ message: "title: enter the thumbnail's title text" })
    .trim()
    .min(1, "enter the thumbnail's title text")
    .max(THUMBNAIL_TITLE_MAX_CHARS, `at most ${THUMBNAIL_TITLE_MAX_CHARS} characters`),
  cellIndex: z.number().int().min(0).max(10_000).nullable().optional(),
  fontFamily: z.string().max(100).optional(),
  fontValue: z.string().max(100).optional(),
  fontSize: z
    .number({ message: "fontSize must be a number" })
    .int()
    .min(THUMBNAIL.minFontSize, `at least ${THUMBNAIL.minFontSize} px`)
    .max(THUMBNAIL.maxFontSize, `at most ${THUMBNAIL.maxFontSize} px`)
    .refine((n) => (n - THUMBNAIL.minFontSize) % THUMBNAIL.fontSizeStep === 0, `must be a step of ${THUMBNAIL.fontSizeStep} px`)
    .optional(),
  projectId: z.string().max(100).optional(),
});
export type GenerateThumbnailRequest = z.infer<typeof GenerateThumbnailSchema>;

// ── What the Thumbnail Generator reads (GET /api/thumbnails) ──────────────────────────────────────
export type ThumbnailView = { id: string; thumbnailUrl: string; title: string; fontFamily: string; fontSize: number; approved: boolean; createdAt: string };

export type ThumbnailWorkspace = {
  projectId: string | null;
  projectTitle: string | null;
  images: { cellIndex: number; imageUrl: string }[];
  thumbnails: ThumbnailView[];
  defaultFont: string;
  defaultFontSize: number;
  hasWatermark: boolean;
};

// ── Frame geometry ──────────────────────────────────────────────────────────────────────────────────
export type Box = { left: number; top: number; width: number; height: number };

/** The picture inside the black border. */
export const PICTURE_BOX: Box = {
  left: THUMBNAIL.borderPx,
  top: THUMBNAIL.borderPx,
  width: THUMBNAIL.width - 2 * THUMBNAIL.borderPx,
  height: THUMBNAIL.height - 2 * THUMBNAIL.borderPx,
};

/** The watermark fits inside this box, whose bottom-right corner sits this far inside the picture's. */
export const WATERMARK = { maxWidth: 200, maxHeight: 110, marginPx: 20 };

/** Space between the picture's edge and the title's ink (the stroke and shadow live inside it). */
export const TITLE_PADDING_PX = 48;

/** Where the title may be drawn: the picture less its padding, and less the watermark's corner band. */
export function titleBox(watermark: { width: number; height: number } | null): Box {
  const box = {
    left: PICTURE_BOX.left + TITLE_PADDING_PX,
    top: PICTURE_BOX.top + TITLE_PADDING_PX,
    width: PICTURE_BOX.width - 2 * TITLE_PADDING_PX,
    height: PICTURE_BOX.height - 2 * TITLE_PADDING_PX,
  };
  if (watermark) {
    // keep the bottom band beside the watermark free, so the title never covers it
    const band = watermark.height + WATERMARK.marginPx - TITLE_PADDING_PX + 12;
    if (band > 0) box.height -= band;
  }
  return box;
}

/** The watermark's top-left corner for an image of this size (already fitted within WATERMARK's box). */
export function watermarkPosition(size: { width: number; height: number }): { left: number; top: number } {
  return {
    left: PICTURE_BOX.left + PICTURE_BOX.width - WATERMARK.marginPx - size.width,
    top: PICTURE_BOX.top + PICTURE_BOX.height - WATERMARK.marginPx - size.height,
  };
}

// ── Title layout ────────────────────────────────────────────────────────────────────────────────────
/** The width in pixels of `text` set at `fontSize`. */
export type MeasureText = (text: string, fontSize: number) => number;

export type TitleLayout = {
  lines: string[];
  /** The size actually used: the requested one, or smaller when the title would not fit at it. */
  fontSize: number;
  lineHeight: number;
  /** Baseline y of each line, and the x where each (centred) line starts, in frame coordinates. */
  baselines: number[];
  lineStarts: number[];
  shrunk: boolean;
};

/** Splits a word too wide for a line into pieces that each fit (a hyphen-free hard break). */
function breakWord(word: string, fontSize: number, maxWidth: number, measure: MeasureText): string[] {
  const pieces: string[] = [];
  let piece = "";
  for (const char of Array.from(word)) {
    if (piece && measure(piece + char, fontSize) > maxWidth) {
      pieces.push(piece);
      piece = char;
    } else piece += char;
  }
  if (piece) pieces.push(piece);
  return pieces;
}

/** Greedy word wrap: as many words per line as fit in maxWidth; a word wider than a line is broken. */
export function wrapWords(text: string, fontSize: number, maxWidth: number, measure: MeasureText): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = "";
  for (const word of words) {
    const candidate = line ? `${line} ${word}` : word;
    if (measure(candidate, fontSize) <= maxWidth) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    if (measure(word, fontSize) <= maxWidth) line = word;
    else {
      const pieces = breakWord(word, fontSize, maxWidth, measure);
      lines.push(...pieces.slice(0, -1));
      line = pieces.at(-1) ?? "";
    }
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * Lays the title out in `box`: wrapped at the requested size when it fits, otherwise at the largest smaller
 * size (in 1 px steps) whose lines all fit, centred horizontally and vertically. `lineHeightRatio` is the
 * font's line height per pixel of size; `ascentRatio` its ascent per pixel (where the first baseline sits).
 */
export function layoutTitle(input: {
  text: string;
  fontSize: number;
  box: Box;
  measure: MeasureText;
  lineHeightRatio: number;
  ascentRatio: number;
  descentRatio: number;
  /** Room the stroke and shadow need around the ink, per pixel of size. */
  outlineRatio?: number;
}): TitleLayout {
  const outlineRatio = input.outlineRatio ?? 0;
  const fits = (size: number) => {
    const pad = Math.ceil(size * outlineRatio);
    const maxWidth = input.box.width - 2 * pad;
    const lines = wrapWords(input.text, size, maxWidth, input.measure);
    const lineHeight = size * input.lineHeightRatio;
    const height = (lines.length - 1) * lineHeight + size * (input.ascentRatio + input.descentRatio) + 2 * pad;
    const widest = Math.max(0, ...lines.map((l) => input.measure(l, size)));
    return { lines, lineHeight, ok: height <= input.box.height && widest <= maxWidth };
  };
  let size = input.fontSize;
  let attempt = fits(size);
  while (!attempt.ok && size > 8) {
    size -= 1;
    attempt = fits(size);
  }
  const { lines, lineHeight } = attempt;
  const inkHeight = (lines.length - 1) * lineHeight + size * (input.ascentRatio + input.descentRatio);
  const firstBaseline = input.box.top + (input.box.height - inkHeight) / 2 + size * input.ascentRatio;
  return {
    lines,
    fontSize: size,
    lineHeight,
    baselines: lines.map((_, i) => firstBaseline + i * lineHeight),
    lineStarts: lines.map((l) => input.box.left + (input.box.width - input.measure(l, size)) / 2),
    shrunk: size < input.fontSize,
  };
}
