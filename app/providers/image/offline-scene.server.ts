// Offline scene images: an SVG illustration (palette from the prompt's words, shapes from its hash) rendered by
// sharp, with the prompt's words set in a bundled DejaVu font through Pango, so no system font is needed.
import { createRequire } from "node:module";
import sharp from "sharp";
import { createRandom, hashString } from "../seed";
import type { AspectRatio, ImageModel, ImageProvider, ImageResult } from "../types";

export const OFFLINE_IMAGE_MODEL: ImageModel = {
  id: "offline-illustration",
  name: "Offline illustration",
  description: "Abstract scene art with the prompt's words, drawn on this server without a key.",
  group: "core_models",
};

export const IMAGE_SIZES: Record<AspectRatio, { width: number; height: number }> = {
  "16:9": { width: 1920, height: 1080 },
  "9:16": { width: 1080, height: 1920 },
};

const require = createRequire(import.meta.url);
const FONT_FILE = require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf");

type Palette = { name: string; hue: number; spread: number; saturation: number; light: number };

/** Words that set the mood of the palette; the first match in the prompt wins, otherwise the hash picks a hue. */
const PALETTES: { words: RegExp; palette: Palette }[] = [
  { words: /\b(ocean|sea|water|river|lake|rain|blue|wave|beach|ice|snow|winter|cold)\w*/i, palette: { name: "sea", hue: 205, spread: 30, saturation: 65, light: 40 } },
  { words: /\b(forest|tree|garden|plant|leaf|leaves|green|nature|grass|farm|crop|spring)\w*/i, palette: { name: "forest", hue: 120, spread: 35, saturation: 50, light: 35 } },
  { words: /\b(sun|sunset|sunrise|fire|desert|warm|summer|gold|autumn|orange|heat)\w*/i, palette: { name: "ember", hue: 28, spread: 30, saturation: 80, light: 45 } },
  { words: /\b(night|space|star|galaxy|dark|moon|dream|mystery|cosmic|universe)\w*/i, palette: { name: "night", hue: 255, spread: 40, saturation: 55, light: 22 } },
  { words: /\b(love|heart|rose|pink|romance|flower|blossom|candy)\w*/i, palette: { name: "blossom", hue: 335, spread: 30, saturation: 65, light: 50 } },
  { words: /\b(city|tech|robot|machine|digital|computer|future|neon|data|code)\w*/i, palette: { name: "neon", hue: 285, spread: 110, saturation: 80, light: 35 } },
  { words: /\b(history|ancient|old|war|stone|castle|empire|museum|book)\w*/i, palette: { name: "parchment", hue: 38, spread: 15, saturation: 35, light: 45 } },
];

export function paletteFor(prompt: string): Palette {
  // The mood word that comes first in the prompt decides.
  let best: { at: number; palette: Palette } | undefined;
  for (const { words, palette } of PALETTES) {
    const at = prompt.search(words);
    if (at >= 0 && (!best || at < best.at)) best = { at, palette };
  }
  if (best) return best.palette;
  return { name: "hash", hue: hashString(prompt) % 360, spread: 50, saturation: 60, light: 38 };
}

const escapeXml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);

const hsl = (h: number, s: number, l: number) => `hsl(${Math.round(((h % 360) + 360) % 360)},${Math.round(s)}%,${Math.round(Math.min(92, Math.max(6, l)))}%)`;

/** The background: a gradient sky, a glow, and one of three compositions chosen by the prompt's hash. */
export function sceneBackgroundSvg(prompt: string, width: number, height: number, seed = ""): string {
  const random = createRandom(`${seed}\u0000${prompt}`);
  const p = paletteFor(prompt);
  const hue2 = p.hue + p.spread * (random() < 0.5 ? 1 : -1);
  const shapes: string[] = [];
  const composition = hashString(`${seed}:${prompt}`) % 3;
  const scale = Math.max(width, height) / 1920;
  for (let i = 0; i < 16; i++) {
    const x = random() * width, y = random() * height, r = (30 + random() * 240) * scale;
    shapes.push(`<circle cx="${x | 0}" cy="${y | 0}" r="${r | 0}" fill="${hsl(p.hue + i * 17, p.saturation, p.light + 20 + random() * 25)}" opacity="${(0.06 + random() * 0.22).toFixed(2)}"/>`);
  }
  if (composition === 0) {
    // rolling hills
    for (let layer = 0; layer < 3; layer++) {
      const base = height * (0.58 + layer * 0.12);
      const step = width / 8;
      let d = `M0 ${base | 0}`;
      for (let x = 0; x < width; x += step) d += ` Q ${(x + step / 2) | 0} ${(base - 70 * scale + random() * 140 * scale) | 0} ${(x + step) | 0} ${(base - 25 * scale + random() * 50 * scale) | 0}`;
      d += ` L ${width} ${height} L 0 ${height} Z`;
      shapes.push(`<path d="${d}" fill="${hsl(hue2, p.saturation - 10 + layer * 8, p.light - 8 - layer * 8)}" opacity="${(0.6 + layer * 0.15).toFixed(2)}"/>`);
    }
  } else if (composition === 1) {
    // waves
    for (let layer = 0; layer < 5; layer++) {
      const base = height * (0.5 + layer * 0.1);
      const amp = (20 + random() * 40) * scale;
      const phase = random() * Math.PI * 2;
      let d = `M0 ${base | 0}`;
      for (let x = 0; x <= width; x += width / 24) d += ` L ${x | 0} ${(base + Math.sin(x / (width / 6) + phase) * amp) | 0}`;
      d += ` L ${width} ${height} L 0 ${height} Z`;
      shapes.push(`<path d="${d}" fill="${hsl(hue2 + layer * 6, p.saturation, p.light + 10 - layer * 7)}" opacity="0.55"/>`);
    }
  } else {
    // geometric blocks, like a skyline or shelves
    const count = 10 + Math.floor(random() * 8);
    for (let i = 0; i < count; i++) {
      const w = (width / count) * (0.6 + random() * 0.8);
      const h = height * (0.2 + random() * 0.45);
      const x = (i * width) / count;
      shapes.push(`<rect x="${x | 0}" y="${(height - h) | 0}" width="${w | 0}" height="${h | 0}" rx="${(6 * scale) | 0}" fill="${hsl(hue2 + i * 4, p.saturation - 15, p.light - 12 + random() * 10)}" opacity="0.8"/>`);
    }
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
<defs>
<linearGradient id="sky" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${hsl(p.hue, p.saturation, p.light - 14)}"/><stop offset="1" stop-color="${hsl(hue2, p.saturation + 5, p.light + 12)}"/></linearGradient>
<radialGradient id="glow" cx="${(0.2 + random() * 0.6).toFixed(2)}" cy="${(0.15 + random() * 0.2).toFixed(2)}" r="0.4"><stop offset="0" stop-color="${hsl(p.hue + 180, 90, 85)}" stop-opacity="0.85"/><stop offset="1" stop-color="${hsl(p.hue + 180, 90, 70)}" stop-opacity="0"/></radialGradient>
</defs>
<rect width="100%" height="100%" fill="url(#sky)"/><rect width="100%" height="100%" fill="url(#glow)"/>
${shapes.join("\n")}
</svg>`;
}

/** The prompt's words (the first 30), wrapped and set in the bundled font, on a translucent panel. */
async function captionLayer(prompt: string, width: number, height: number) {
  // Pictographs (emoji) are not in the bundled font: leave them out rather than draw empty boxes.
  const words = prompt.replace(/[\p{Extended_Pictographic}\u{FE0F}\u{200D}]/gu, "").replace(/\s+/g, " ").trim().split(" ");
  const text = words.slice(0, 30).join(" ") + (words.length > 30 ? "…" : "");
  const fontSize = Math.round(Math.min(width, height) / 18);
  const textWidth = Math.round(width * 0.8);
  const rendered = await sharp({
    text: {
      text: `<span foreground="white">${escapeXml(text)}</span>`,
      font: `DejaVu Sans Bold ${fontSize}`,
      fontfile: FONT_FILE,
      width: textWidth,
      wrap: "word",
      align: "centre",
      rgba: true,
      dpi: 72,
    },
  })
    .png()
    .toBuffer({ resolveWithObject: true });
  const pad = Math.round(fontSize * 0.8);
  const panelW = Math.min(width, rendered.info.width + pad * 2);
  const panelH = Math.min(height, rendered.info.height + pad * 2);
  const panel = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${panelW}" height="${panelH}"><rect width="100%" height="100%" rx="${pad}" fill="black" opacity="0.4"/></svg>`,
  );
  const left = Math.round((width - panelW) / 2);
  const top = Math.round(height * 0.42 - panelH / 2);
  return [
    { input: panel, left, top },
    { input: rendered.data, left: left + Math.round((panelW - rendered.info.width) / 2), top: top + Math.round((panelH - rendered.info.height) / 2) },
  ];
}

export async function renderSceneImage(prompt: string, aspectRatio: AspectRatio, seed = ""): Promise<ImageResult> {
  const { width, height } = IMAGE_SIZES[aspectRatio];
  const background = Buffer.from(sceneBackgroundSvg(prompt, width, height, seed));
  const image = await sharp(background)
    .composite(await captionLayer(prompt, width, height))
    .png({ compressionLevel: 6 })
    .toBuffer();
  return { image, mimeType: "image/png", width, height };
}

export function createOfflineImageProvider(): ImageProvider {
  return {
    name: "Offline illustration",
    source: "offline",
    async listModels() {
      return [{ ...OFFLINE_IMAGE_MODEL }];
    },
    async generateImage({ prompt, aspectRatio, seed }) {
      return renderSceneImage(prompt.trim() || "Untitled scene", aspectRatio, seed);
    },
  };
}
