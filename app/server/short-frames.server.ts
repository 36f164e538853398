// The pictures of a Short (issue 51, decision 229): each scene's picture reframed for 9:16 around its subject, the
// opening hook line drawn into the first picture, and the end card that points to the full video. Pure image work
// with sharp; shorts.server.ts decides what to reframe and stores the results.
import sharp from "sharp";
import { SAFE_ZONES } from "~/lib/timeline/captions";

/** A Short's pictures: the 1080x1920 frame the renderers scale to the chosen quality. */
export const SHORT_FRAME = { width: 1080, height: 1920 } as const;

/** A rectangle in the source picture's pixels. */
export type Rect = { left: number; top: number; width: number; height: number };

export type Reframed = {
  image: Buffer;
  /** "subject": around the subject's known box; "saliency": sharp's attention strategy picked the crop */
  method: "subject" | "saliency";
  /** the part of the source picture the Short shows sharp (for "subject"); null when sharp chose it */
  crop: Rect | null;
  /** where that part lands in the 1080x1920 frame */
  placed: Rect | null;
};

/**
 * The Ken Burns moves zoom in to 1.12 and pan 2% (app/lib/timeline/timeline.ts): a subject this far inside the crop's edge
 * stays in view in every frame.
 */
const SUBJECT_MARGIN = 0.09;
/** Where a subject shown over a soft fill starts: below the hook line (hookBox: at most three lines). */
const BAND_TOP = 0.3;

/**
 * Reframes a picture to 9:16. With the subject's box (the offline pictures know it): the full-height 9:16 slice
 * centred on the subject when the subject fits in it with a margin; otherwise (a subject wider than the slice) the
 * band around the subject, kept whole at the frame's width over a blurred, darkened fill of the same picture.
 * Without a box: sharp's attention (saliency) crop.
 */
export async function reframeForShort(source: Buffer, subject: { left: number; top: number; size: number } | null): Promise<Reframed> {
  const { width: W, height: H } = SHORT_FRAME;
  const input = sharp(source).rotate();
  const meta = await input.metadata();
  const w = meta.width ?? 0;
  const h = meta.height ?? 0;
  if (!subject || !w || !h) {
    const image = await sharp(source).rotate().resize(W, H, { fit: "cover", position: sharp.strategy.attention }).removeAlpha().png({ compressionLevel: 6 }).toBuffer();
    return { image, method: "saliency", crop: null, placed: null };
  }
  const margin = Math.round(subject.size * SUBJECT_MARGIN);
  const cx = subject.left + subject.size / 2;
  const sliceWidth = Math.min(w, Math.round((h * W) / H));
  if (subject.size + 2 * margin <= sliceWidth) {
    const left = Math.round(Math.min(w - sliceWidth, Math.max(0, cx - sliceWidth / 2)));
    const crop = { left, top: 0, width: sliceWidth, height: h };
    const image = await sharp(source).rotate().extract(crop).resize(W, H, { fit: "fill" }).removeAlpha().png({ compressionLevel: 6 }).toBuffer();
    return { image, method: "subject", crop, placed: { left: 0, top: 0, width: W, height: H } };
  }
  // the subject is wider than a 9:16 slice: show the band holding it at full width, over a soft fill
  const bandWidth = Math.min(w, subject.size + 2 * margin);
  const bandLeft = Math.round(Math.min(w - bandWidth, Math.max(0, cx - bandWidth / 2)));
  const bandTop = Math.max(0, subject.top - margin);
  const bandHeight = Math.min(h - bandTop, subject.size + 2 * margin);
  const crop = { left: bandLeft, top: bandTop, width: bandWidth, height: bandHeight };
  // between the hook line (the top of the safe zone) and the bottom of the safe zone, as large as fits
  const region = { top: Math.round(H * BAND_TOP), bottom: Math.round(H * (1 - SAFE_ZONES.vertical.bottom)) };
  const scale = Math.min(W / bandWidth, (region.bottom - region.top) / bandHeight);
  const placed = { width: Math.round(bandWidth * scale), height: Math.round(bandHeight * scale), left: 0, top: 0 };
  placed.left = Math.round((W - placed.width) / 2);
  placed.top = region.top + Math.round((region.bottom - region.top - placed.height) / 2);
  const fill = await sharp(source).rotate().resize(W, H, { fit: "cover" }).blur(40).modulate({ brightness: 0.6 }).removeAlpha().toBuffer();
  const band = await sharp(source).rotate().extract(crop).resize(placed.width, placed.height, { fit: "fill" }).removeAlpha().toBuffer();
  const image = await sharp(fill).composite([{ input: band, left: placed.left, top: placed.top }]).png({ compressionLevel: 6 }).toBuffer();
  return { image, method: "subject", crop, placed };
}

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c]!);

/** Splits text into lines of at most `maxChars` characters, at spaces (a longer word takes a line of its own). */
export function wrapWords(text: string, maxChars: number, maxLines: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 1 + word.length <= maxChars) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  kept[maxLines - 1] = `${kept[maxLines - 1]!.replace(/[.,;:!?…]*$/, "")}…`;
  return kept;
}

/** DejaVu Sans Bold's average advance, in em, for sizing lines by characters. */
const AVERAGE_ADVANCE_EM = 0.64;

/** The hook's box in the 1080x1920 frame: in the vertical safe zone's top, above the captions (decision 229). */
export function hookBox(lineCount: number, fontSize: number) {
  const { width: W, height: H } = SHORT_FRAME;
  const zone = SAFE_ZONES.vertical;
  // inside the safe zone even when the Ken Burns move zooms in (up to 1.12, a 2% pan)
  const left = Math.round(W * (zone.left + 0.04));
  const right = Math.round(W * (1 - zone.right - 0.02));
  const top = Math.round(H * (zone.top + 0.03));
  const padY = Math.round(fontSize * 0.45);
  return { left, top, width: right - left, height: Math.round(lineCount * fontSize * 1.2 + 2 * padY), padY };
}

/** Draws the opening hook line into the first picture of a Short (already 1080x1920). */
export async function drawHook(picture: Buffer, hook: string): Promise<Buffer> {
  const fontSize = 68;
  const probe = hookBox(1, fontSize);
  const maxChars = Math.floor((probe.width - fontSize) / (fontSize * AVERAGE_ADVANCE_EM));
  const lines = wrapWords(hook, maxChars, 3);
  const box = hookBox(lines.length, fontSize);
  const { width: W, height: H } = SHORT_FRAME;
  const text = lines
    .map((line, i) => `<text x="${box.left + box.width / 2}" y="${box.top + box.padY + fontSize * (0.95 + i * 1.2)}" text-anchor="middle">${escapeXml(line)}</text>`)
    .join("");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">
<rect x="${box.left}" y="${box.top}" width="${box.width}" height="${box.height}" rx="${fontSize * 0.35}" fill="#FFD400"/>
<g font-family="DejaVu Sans, sans-serif" font-weight="bold" font-size="${fontSize}" fill="#111111">${text}</g></svg>`;
  return sharp(picture).composite([{ input: Buffer.from(svg), left: 0, top: 0 }]).png({ compressionLevel: 6 }).toBuffer();
}

/** The end card: the source's last picture blurred behind "Watch the full video" and the full video's title. */
export async function drawEndCard(lastPicture: Buffer, fullTitle: string): Promise<Buffer> {
  const { width: W, height: H } = SHORT_FRAME;
  const fill = await sharp(lastPicture).rotate().resize(W, H, { fit: "cover" }).blur(30).modulate({ brightness: 0.45 }).removeAlpha().toBuffer();
  const titleSize = 76;
  const left = Math.round(W * (SAFE_ZONES.vertical.left + 0.04));
  const right = Math.round(W * (1 - SAFE_ZONES.vertical.right - 0.02));
  const maxChars = Math.floor((right - left) / (titleSize * AVERAGE_ADVANCE_EM));
  const titleLines = wrapWords(fullTitle, maxChars, 4);
  const cx = (left + right) / 2;
  const top = Math.round(H * 0.3);
  const title = titleLines.map((line, i) => `<text x="${cx}" y="${top + 150 + i * titleSize * 1.2}" text-anchor="middle">${escapeXml(line)}</text>`).join("");
  const arrowTop = top + 150 + titleLines.length * titleSize * 1.2 + 40;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">
<g font-family="DejaVu Sans, sans-serif" font-weight="bold" fill="#FFFFFF" text-anchor="middle">
<text x="${cx}" y="${top}" font-size="58" fill="#FFD400">Watch the full video</text>
<g font-size="${titleSize}">${title}</g>
</g>
<circle cx="${cx}" cy="${arrowTop + 90}" r="90" fill="#FF0033"/>
<path d="M ${cx - 30} ${arrowTop + 45} L ${cx + 50} ${arrowTop + 90} L ${cx - 30} ${arrowTop + 135} Z" fill="#FFFFFF"/>
<text x="${cx}" y="${arrowTop + 250}" font-family="DejaVu Sans, sans-serif" font-size="44" fill="#FFFFFF" text-anchor="middle">On the channel now</text>
</svg>`;
  return sharp(fill).composite([{ input: Buffer.from(svg), left: 0, top: 0 }]).png({ compressionLevel: 6 }).toBuffer();
}
