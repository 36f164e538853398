// Captions in the offered languages whose letters DejaVu Sans lacks (Japanese, Chinese, Korean, Hindi) are drawn
// with real glyphs by the renderers' Chromium, not as the missing-glyph box. Two different letters of one script
// drawn as boxes are the same picture; drawn with a font that has them, they differ. The fonts come with
// `npm start` and `npm test` (scripts/lib/system-packages.mjs).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { storyboardVideoSchema } from "../../app/lib/timeline/video-props";
import { buildTimeline } from "../../app/lib/timeline/timeline";
import { closeBrowser } from "../../workflows/engine/render-engine";
import { rasteriseCaptions } from "../../workflows/engine/render-fast";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-caption-scripts-"));

/** Each text's caption picture, drawn by the fast renderer's caption step (Remotion's renderStill in Chromium). */
async function captionPictures(texts: string[]): Promise<{ width: number; height: number; pixels: Buffer }[]> {
  const timeline = buildTimeline(
    storyboardVideoSchema.parse({
      width: 640,
      height: 360,
      fps: 30,
      captions: true,
      captionStyle: { preset: "boxed", position: "middle", size: "large" },
      scenes: texts.map((text, i) => ({ imageSrc: `scene-${i}.png`, audioSrc: `voice-${i}.wav`, audioDurationInSeconds: 1, text })),
      music: null,
    }),
  );
  const workDir = fs.mkdtempSync(path.join(dir, "captions-"));
  const images = await rasteriseCaptions(timeline, workDir);
  expect(images).toHaveLength(texts.length);
  return Promise.all(
    images.map(async (image) => {
      const { data, info } = await sharp(image.png).raw().toBuffer({ resolveWithObject: true });
      return { width: info.width, height: info.height, pixels: data };
    }),
  );
}

afterAll(async () => {
  await closeBrowser();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("captions in scripts DejaVu Sans lacks", () => {
  const pairs = [
    { language: "Japanese", letters: ["の", "す"] },
    { language: "Chinese", letters: ["中", "文"] },
    { language: "Korean", letters: ["한", "국"] },
    { language: "Hindi", letters: ["क", "ह"] },
  ];

  it.each(pairs)("draws $language letters as themselves, not as the missing-glyph box", async ({ letters }) => {
    const [a, b] = await captionPictures(letters);
    // a box around a glyph: the caption is drawn at all
    expect(a!.width).toBeGreaterThan(20);
    expect(a!.pixels.equals(b!.pixels), `${letters.join(" and ")} were drawn as the same picture (no font has them)`).toBe(false);
  });

  it("the check tells boxes apart from letters: two code points no font has are the same picture", async () => {
    const [a, b] = await captionPictures(["\u0378", "\u0379"]);
    expect(a!.width).toBeGreaterThan(20);
    expect(a!.pixels.equals(b!.pixels)).toBe(true);
  });
});
