// Offline scene images: the scene's subjects (read from its narration and prompt) drawn from the Fluent Emoji
// Flat set onto a background whose palette and layout follow the scene, rendered with sharp. No text is ever
// drawn; a scene with no word that has a picture gets a calm abstract composition instead.
import sharp from "sharp";
import { createRandom, hashString } from "../seed";
import type { AspectRatio, ImageModel, ImageProvider, ImageResult } from "../types";
import { iconKeywords, iconSvg, pickSceneSubjects, pickStoryboardSubjects, type SceneSubjects, type StoryboardSubjects } from "./scene-subjects.server";

export const OFFLINE_IMAGE_MODEL: ImageModel = {
  id: "offline-illustration",
  name: "Offline illustration",
  description: "Pictures of the scene's subjects (Fluent Emoji Flat, MIT), composed on this server without a key.",
  group: "core_models",
};

export const IMAGE_SIZES: Record<AspectRatio, { width: number; height: number }> = {
  "16:9": { width: 1920, height: 1080 },
  "9:16": { width: 1080, height: 1920 },
};


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


type Box = { cx: number; cy: number; size: number };
type Layout = { main: Box; related: Box[] };

/**
 * Where the main subject and the related ones go: centres in fractions of the width and height, sizes in
 * fractions of the short side. Three layouts per format, picked per scene, so consecutive scenes differ.
 */
const LAYOUTS: Record<AspectRatio, Layout[]> = {
  "16:9": [
    { main: { cx: 0.36, cy: 0.5, size: 0.62 }, related: [{ cx: 0.74, cy: 0.3, size: 0.26 }, { cx: 0.82, cy: 0.68, size: 0.22 }, { cx: 0.62, cy: 0.8, size: 0.15 }] },
    { main: { cx: 0.5, cy: 0.48, size: 0.6 }, related: [{ cx: 0.17, cy: 0.62, size: 0.24 }, { cx: 0.83, cy: 0.38, size: 0.24 }, { cx: 0.19, cy: 0.24, size: 0.15 }] },
    { main: { cx: 0.64, cy: 0.5, size: 0.64 }, related: [{ cx: 0.24, cy: 0.34, size: 0.25 }, { cx: 0.2, cy: 0.72, size: 0.2 }, { cx: 0.38, cy: 0.84, size: 0.14 }] },
  ],
  "9:16": [
    { main: { cx: 0.5, cy: 0.42, size: 0.7 }, related: [{ cx: 0.25, cy: 0.72, size: 0.3 }, { cx: 0.75, cy: 0.74, size: 0.28 }, { cx: 0.78, cy: 0.16, size: 0.18 }] },
    { main: { cx: 0.5, cy: 0.56, size: 0.72 }, related: [{ cx: 0.26, cy: 0.2, size: 0.28 }, { cx: 0.74, cy: 0.25, size: 0.24 }, { cx: 0.5, cy: 0.85, size: 0.18 }] },
    { main: { cx: 0.54, cy: 0.36, size: 0.66 }, related: [{ cx: 0.3, cy: 0.66, size: 0.32 }, { cx: 0.72, cy: 0.8, size: 0.24 }, { cx: 0.2, cy: 0.14, size: 0.16 }] },
  ],
};

export type SceneArt = {
  /** the subjects chosen from the scene's words; `main` is undefined for the abstract fallback */
  subjects: SceneSubjects & { motif?: string };
  layout: number;
  palette: string;
  /** every SVG document drawn into the picture, background first, each placed at left/top */
  layers: { svg: string; left: number; top: number }[];
  /** where the main subject is drawn, px (a square); absent for the abstract fallback. A Short's crop keeps it (issue 51). */
  mainBox?: { left: number; top: number; size: number };
};

const svgDoc = (width: number, height: number, body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${body}</svg>`;

/** A soft glow behind the main subject and a shadow under each subject, so they stand in the scene. */
function stageSvg(width: number, height: number, layout: Layout, sideBoxes: Box[], hue: number): string {
  const short = Math.min(width, height);
  const m = layout.main;
  const shadow = (b: Box, opacity: number) =>
    `<ellipse cx="${(b.cx * width) | 0}" cy="${(b.cy * height + b.size * short * 0.45) | 0}" rx="${(b.size * short * 0.33) | 0}" ry="${(b.size * short * 0.055) | 0}" fill="black" opacity="${opacity}" filter="url(#soft)"/>`;
  return svgDoc(
    width,
    height,
    `<defs><filter id="soft" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="${(short / 90).toFixed(1)}"/></filter>` +
      `<radialGradient id="halo"><stop offset="0" stop-color="${hsl(hue + 180, 70, 90)}" stop-opacity="0.55"/><stop offset="1" stop-color="${hsl(hue + 180, 70, 90)}" stop-opacity="0"/></radialGradient></defs>` +
      `<circle cx="${(m.cx * width) | 0}" cy="${(m.cy * height) | 0}" r="${((m.size * short) / 1.4) | 0}" fill="url(#halo)"/>` +
      shadow(m, 0.25) +
      sideBoxes.map((b) => shadow(b, 0.18)).join(""),
  );
}

/** The fallback when no word of the scene has a picture: nested rings and floating discs in the palette. */
function abstractSvg(width: number, height: number, random: () => number, hue: number): string {
  const short = Math.min(width, height);
  const cx = width * (0.35 + random() * 0.3);
  const cy = height * (0.38 + random() * 0.2);
  const rings = Array.from(
    { length: 5 },
    (_, i) =>
      `<circle cx="${cx | 0}" cy="${cy | 0}" r="${(short * (0.12 + i * 0.07)) | 0}" fill="none" stroke="${hsl(hue + i * 12, 70, 80 - i * 6)}" stroke-width="${((short / 70) * (1 + (i % 2))) | 0}" opacity="${(0.55 - i * 0.08).toFixed(2)}"/>`,
  );
  const discs = Array.from(
    { length: 7 },
    (_, i) => `<circle cx="${(random() * width) | 0}" cy="${(random() * height) | 0}" r="${(short * (0.015 + random() * 0.04)) | 0}" fill="${hsl(hue + 150 + i * 9, 65, 75)}" opacity="0.7"/>`,
  );
  return svgDoc(width, height, `<circle cx="${cx | 0}" cy="${cy | 0}" r="${(short * 0.09) | 0}" fill="${hsl(hue + 180, 80, 86)}" opacity="0.85"/>${rings.join("")}${discs.join("")}`);
}

const GENERIC_TAGS = new Set(["animal", "nature", "creature", "object", "thing"]);

/** The slot of the layout the title's motif takes: a small one at the side, never the main subject's. */
const MOTIF_SLOT = 1;

/**
 * Plans a scene's picture (subjects, palette, layout, every layer as SVG) without rendering it. `subjects` are the
 * storyboard's choice for the scene (pickStoryboardSubjects), else they are read from the scene's words alone.
 */
export function planSceneArt(
  narration: string,
  prompt: string,
  aspectRatio: AspectRatio,
  seed = "",
  chosen?: SceneSubjects & { motif?: string },
  size: { width: number; height: number } = IMAGE_SIZES[aspectRatio],
): SceneArt {
  const { width, height } = size;
  const short = Math.min(width, height);
  const subjects: SceneSubjects & { motif?: string } = chosen ?? pickSceneSubjects(narration, prompt);
  // The palette follows the main subject's world (an octopus is a sea scene), else the scene's own words.
  // Tags every animal shares ("nature") say nothing of its world: a shark is a sea scene, not a forest.
  const moodOf = (name: string) => [name.replace(/-/g, " "), ...iconKeywords(name).filter((k) => !GENERIC_TAGS.has(k))].join(" ");
  const moodText = subjects.main ? `${moodOf(subjects.main)}${subjects.motif ? ` ${moodOf(subjects.motif)}` : ""}` : `${prompt} ${narration}`;
  const palette = paletteFor(moodText);
  const layers: SceneArt["layers"] = [{ svg: sceneBackgroundSvg(`${moodText} ${seed}`, width, height, `${seed}:${prompt}`), left: 0, top: 0 }];
  const layouts = LAYOUTS[aspectRatio];
  const layoutIndex = hashString(`${seed}:${prompt}:${narration}`) % layouts.length;
  const layout = layouts[layoutIndex]!;
  if (!subjects.main) {
    layers.push({ svg: abstractSvg(width, height, createRandom(`${seed}\u0000${prompt}`), palette.hue), left: 0, top: 0 });
  } else {
    // The title's motif sits small at the side; the scene's related subjects take the other slots.
    const slots = [...layout.related];
    const motifBox = subjects.motif ? slots.splice(MOTIF_SLOT, 1)[0] : undefined;
    const placed = subjects.related.slice(0, slots.length).map((name, i) => ({ name, box: slots[i]! }));
    if (subjects.motif && motifBox) placed.push({ name: subjects.motif, box: motifBox });
    layers.push({ svg: stageSvg(width, height, layout, placed.map((p) => p.box), palette.hue), left: 0, top: 0 });
    const place = (name: string, box: Box) => {
      const size = Math.round(box.size * short);
      const left = Math.round(Math.min(width - size, Math.max(0, box.cx * width - size / 2)));
      const top = Math.round(Math.min(height - size, Math.max(0, box.cy * height - size / 2)));
      layers.push({ svg: iconSvg(name, size), left, top });
      return { left, top, size };
    };
    for (const { name, box } of placed) place(name, box);
    const mainBox = place(subjects.main, layout.main);
    return { subjects, layout: layoutIndex, palette: palette.name, layers, mainBox };
  }
  return { subjects, layout: layoutIndex, palette: palette.name, layers };
}

/** Renders a scene's illustration. Each layer is rasterised alone (the set's gradient ids would clash in one SVG). */
export async function renderSceneImage(
  prompt: string,
  aspectRatio: AspectRatio,
  seed = "",
  narration = "",
  subjects?: StoryboardSubjects,
  size: { width: number; height: number } = IMAGE_SIZES[aspectRatio],
): Promise<ImageResult & { art: SceneArt }> {
  const { width, height } = size;
  const art = planSceneArt(narration, prompt, aspectRatio, seed, subjects, size);
  const [background, ...rest] = art.layers;
  const overlays = await Promise.all(rest.map(async (layer) => ({ input: await sharp(Buffer.from(layer.svg)).png().toBuffer(), left: layer.left, top: layer.top })));
  const image = await sharp(Buffer.from(background!.svg)).composite(overlays).png({ compressionLevel: 6 }).toBuffer();
  return { image, mimeType: "image/png", width, height, art };
}

export function createOfflineImageProvider(): ImageProvider {
  return {
    name: "Offline illustration",
    source: "offline",
    async listModels() {
      return [{ ...OFFLINE_IMAGE_MODEL }];
    },
    async generateImage({ prompt, aspectRatio, seed, narration, storyboard }) {
      // In a storyboard, the scene leads with its own subject, not its neighbour's nor the title's (decision 142).
      const subjects = storyboard ? pickStoryboardSubjects(storyboard.title, storyboard.scenes)[storyboard.index] : undefined;
      const { image, mimeType, width, height } = await renderSceneImage(prompt.trim() || "Untitled scene", aspectRatio, seed, narration ?? "", subjects);
      return { image, mimeType, width, height };
    },
  };
}
