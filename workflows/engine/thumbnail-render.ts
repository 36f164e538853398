// The thumbnail renderer: a scene image under the title text, 1280x720 with a 30 px
// black border and the creator's watermark bottom-right. The nine fonts ship with the app in @fontsource
// packages; the title is turned into outlines with opentype.js (so sharp/librsvg needs no installed font and the
// measured layout is exactly what is drawn), with a black stroke and a soft shadow that keep it readable on any
// picture (docs/decisions/020). Pure of the database: the thumbnail activity feeds it bytes.
import { createRequire } from "node:module";
import fs from "node:fs";
import opentype from "opentype.js";
import sharp from "sharp";
import { THUMBNAIL } from "~/lib/constants";
import {
  PICTURE_BOX,
  THUMBNAIL_FONT_FACES,
  THUMBNAIL_FONTS,
  WATERMARK,
  layoutTitle,
  thumbnailFontSizeFor,
  titleBox,
  watermarkPosition,
  type ThumbnailFontOption,
  type TitleLayout,
} from "~/lib/thumbnail";

// ── Fonts ───────────────────────────────────────────────────────────────────────────────────────────
/** Unicode subsets tried in order for each character (a family ships only some of them). */
const SUBSETS = ["latin", "latin-ext", "cyrillic", "cyrillic-ext", "greek", "vietnamese"] as const;
/** Characters none of the chosen font's subsets has are set in this font (a box would show otherwise). */
const FALLBACK_FONT = "montserrat-extra-bold";

const require = createRequire(import.meta.url);
const loadedFonts = new Map<string, opentype.Font[]>();

/** The font's faces (one per subset the package ships, then the fallback's), parsed once per process. */
export function loadThumbnailFont(font: ThumbnailFontOption): opentype.Font[] {
  const cached = loadedFonts.get(font.value);
  if (cached) return cached;
  const faces = [...facesOf(font)];
  if (font.value !== FALLBACK_FONT) faces.push(...facesOf(THUMBNAIL_FONTS.find((f) => f.value === FALLBACK_FONT)!));
  loadedFonts.set(font.value, faces);
  return faces;
}

function facesOf(font: ThumbnailFontOption): opentype.Font[] {
  const file = THUMBNAIL_FONT_FACES[font.value];
  if (!file) throw new Error(`No font file is known for ${font.family}`);
  const faces: opentype.Font[] = [];
  for (const subset of SUBSETS) {
    let path: string;
    try {
      path = require.resolve(`@fontsource/${file.pkg}/files/${file.pkg}-${subset}-${file.weight}-normal.woff`);
    } catch {
      continue; // this family has no such subset
    }
    const bytes = fs.readFileSync(path);
    faces.push(opentype.parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)));
  }
  if (!faces.length) throw new Error(`The font files of ${font.family} are missing: reinstall @fontsource/${file.pkg}`);
  return faces;
}

/** Splits text into runs each set in the first face that has all its characters (the first face otherwise). */
function runsOf(text: string, faces: opentype.Font[]): { face: opentype.Font; text: string }[] {
  const runs: { face: opentype.Font; text: string }[] = [];
  for (const char of Array.from(text)) {
    const face = faces.find((f) => f.charToGlyphIndex(char) > 0) ?? faces[0]!;
    const last = runs.at(-1);
    if (last && last.face === face) last.text += char;
    else runs.push({ face, text: char });
  }
  return runs;
}

export function measureWith(faces: opentype.Font[]) {
  return (text: string, fontSize: number) =>
    runsOf(text, faces).reduce((width, run) => width + run.face.getAdvanceWidth(run.text, fontSize, { kerning: true }), 0);
}

/** Vertical metrics per pixel of size, from the Latin face's OS/2 (hhea as fallback) table. */
function metricsOf(face: opentype.Font) {
  const os2 = face.tables.os2 as { sTypoAscender?: number; sTypoDescender?: number; usWinAscent?: number; usWinDescent?: number } | undefined;
  const ascent = (os2?.usWinAscent ?? face.ascender) / face.unitsPerEm;
  const descent = Math.abs(os2?.usWinDescent ?? face.descender) / face.unitsPerEm;
  // capitals sit between the baseline and the cap height: lines closer than the full ascent+descent look better
  return { ascentRatio: ascent, descentRatio: descent, lineHeightRatio: Math.max(1.0, (ascent + descent) * 0.92) };
}

// ── Rendering ───────────────────────────────────────────────────────────────────────────────────────
/** The stroke is this share of the size (at least 3 px); the shadow sits below and right of the text. */
const STROKE_RATIO = 0.09;
const SHADOW_OFFSET_RATIO = 0.05;
const SHADOW_BLUR_RATIO = 0.035;
/** Room kept around the ink for the stroke and shadow, per pixel of size. */
const OUTLINE_RATIO = STROKE_RATIO / 2 + SHADOW_OFFSET_RATIO + 2 * SHADOW_BLUR_RATIO;

export type ThumbnailInput = {
  /** The base picture (any format sharp reads). */
  image: Buffer;
  title: string;
  font: ThumbnailFontOption;
  fontSize: number;
  /** The creator's watermark, or null for none. */
  watermark: Buffer | null;
};

export type ThumbnailOutput = { png: Buffer; layout: TitleLayout; watermarkBox: { left: number; top: number; width: number; height: number } | null };

/** The title as SVG outlines over a frame-sized transparent canvas. */
function titleSvg(layout: TitleLayout, faces: opentype.Font[]): string {
  const size = layout.fontSize;
  const paths: string[] = [];
  layout.lines.forEach((line, i) => {
    let x = layout.lineStarts[i]!;
    for (const run of runsOf(line, faces)) {
      paths.push(run.face.getPath(run.text, x, layout.baselines[i]!, size, { kerning: true }).toPathData(2));
      x += run.face.getAdvanceWidth(run.text, size, { kerning: true });
    }
  });
  const d = paths.join(" ");
  const stroke = Math.max(3, size * STROKE_RATIO).toFixed(1);
  const offset = (size * SHADOW_OFFSET_RATIO).toFixed(1);
  const blur = (size * SHADOW_BLUR_RATIO).toFixed(1);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${THUMBNAIL.width}" height="${THUMBNAIL.height}" viewBox="0 0 ${THUMBNAIL.width} ${THUMBNAIL.height}">`,
    `<defs><filter id="shadow" x="-10%" y="-10%" width="120%" height="120%"><feGaussianBlur stdDeviation="${blur}"/></filter></defs>`,
    `<path d="${d}" transform="translate(${offset} ${offset})" fill="#000" fill-opacity="0.7" stroke="#000" stroke-opacity="0.7" stroke-width="${stroke}" stroke-linejoin="round" filter="url(#shadow)"/>`,
    `<path d="${d}" fill="#fff" stroke="#000" stroke-width="${stroke}" stroke-linejoin="round" paint-order="stroke"/>`,
    `</svg>`,
  ].join("");
}

/** Renders the thumbnail: a PNG of exactly 1280x720. */
export async function renderThumbnail(input: ThumbnailInput): Promise<ThumbnailOutput> {
  const faces = loadThumbnailFont(input.font);
  const { width: pw, height: ph, left: px, top: py } = PICTURE_BOX;

  let watermark: { png: Buffer; width: number; height: number } | null = null;
  if (input.watermark) {
    const { data, info } = await sharp(input.watermark)
      .resize(WATERMARK.maxWidth, WATERMARK.maxHeight, { fit: "inside" })
      .png()
      .toBuffer({ resolveWithObject: true });
    watermark = { png: data, width: info.width, height: info.height };
  }

  const layout = layoutTitle({
    text: input.title.trim(),
    fontSize: thumbnailFontSizeFor(input.fontSize),
    box: titleBox(watermark),
    measure: measureWith(faces),
    outlineRatio: OUTLINE_RATIO,
    ...metricsOf(faces[0]!),
  });

  // The picture, cover-cropped and framed by the border; then the title, drawn in frame coordinates and cut to
  // the picture (so nothing can ever cover the border), and the watermark. Two pipelines: sharp composites last.
  const framed = await sharp(input.image)
    .rotate()
    .resize(pw, ph, { fit: "cover", position: "attention" })
    .removeAlpha()
    .extend({ top: py, bottom: THUMBNAIL.height - py - ph, left: px, right: THUMBNAIL.width - px - pw, background: { r: 0, g: 0, b: 0 } })
    .png()
    .toBuffer();
  const text = await sharp(Buffer.from(titleSvg(layout, faces)))
    .extract({ left: px, top: py, width: pw, height: ph })
    .png()
    .toBuffer();
  const layers: sharp.OverlayOptions[] = [{ input: text, left: px, top: py }];
  let watermarkBox: ThumbnailOutput["watermarkBox"] = null;
  if (watermark) {
    const at = watermarkPosition(watermark);
    layers.push({ input: watermark.png, left: at.left, top: at.top });
    watermarkBox = { ...at, width: watermark.width, height: watermark.height };
  }
  const png = await sharp(framed).composite(layers).png().toBuffer();
  return { png, layout, watermarkBox };
}

