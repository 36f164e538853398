// The thumbnail renderer's output, as a creator would check it: the size, the black border, the watermark in
// the bottom-right corner, and the title inside the frame even for the longest title at the largest size.
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { THUMBNAIL } from "~/lib/constants";
import { PICTURE_BOX, THUMBNAIL_FONTS, THUMBNAIL_TITLE_MAX_CHARS, titleBox } from "~/lib/thumbnail";
import { renderThumbnail } from "./thumbnail-render";

const GRAY = 128;
const plainImage = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: GRAY, g: GRAY, b: GRAY } } }).png().toBuffer();
const redWatermark = () => sharp({ create: { width: 400, height: 160, channels: 4, background: { r: 255, g: 0, b: 0, alpha: 1 } } }).png().toBuffer();

async function pixelsOf(png: Buffer) {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => {
    const i = (y * info.width + x) * 3;
    return [data[i]!, data[i + 1]!, data[i + 2]!] as const;
  };
  return { info, at };
}

/** The longest title a creator can enter, in the widest capitals: every word as wide as it gets. */
const LONGEST_TITLE = Array.from({ length: 40 }, () => "WWWWW").join(" ").slice(0, THUMBNAIL_TITLE_MAX_CHARS);

describe("renderThumbnail", () => {
  it("makes a 1280x720 PNG with a 30 px black border and the watermark bottom-right", async () => {
    const { png, watermarkBox } = await renderThumbnail({
      image: await plainImage(640, 1138), // a vertical scene image is cover-cropped into the landscape frame
      title: "10 Secrets of the Deep Ocean",
      font: THUMBNAIL_FONTS[0]!,
      fontSize: 72,
      watermark: await redWatermark(),
    });
    const meta = await sharp(png).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["png", 1280, 720]);

    const { at } = await pixelsOf(png);
    for (let x = 0; x < THUMBNAIL.width; x++) {
      for (const y of [0, 15, 29, 690, 705, 719]) expect(at(x, y)).toEqual([0, 0, 0]);
    }
    for (let y = 0; y < THUMBNAIL.height; y++) {
      for (const x of [0, 29, 1250, 1279]) expect(at(x, y)).toEqual([0, 0, 0]);
    }
    // the picture starts right inside the border
    expect(at(30, 30)).toEqual([GRAY, GRAY, GRAY]);

    // the watermark (400x160, fitted into 200x110 -> 200x80) sits in the bottom-right corner of the picture
    expect(watermarkBox).toEqual({ left: 1030, top: 590, width: 200, height: 80 });
    expect(at(1030 + 100, 590 + 40)).toEqual([255, 0, 0]);
    expect(at(1229, 669)).toEqual([255, 0, 0]);
    expect(at(1231, 671)).toEqual([GRAY, GRAY, GRAY]);
  });

  it.each(THUMBNAIL_FONTS.map((f) => [f.family, f] as const))(
    "keeps the longest title at 160 px inside the frame in %s",
    async (_family, font) => {
      const watermark = await redWatermark();
      const { png, layout, watermarkBox } = await renderThumbnail({ image: await plainImage(1280, 720), title: LONGEST_TITLE, font, fontSize: 160, watermark });
      expect(layout.shrunk).toBe(true);
      expect(layout.lines.join(" ").replace(/\s+/g, "")).toBe(LONGEST_TITLE.replace(/\s+/g, ""));
      const box = titleBox(watermarkBox);
      const { at } = await pixelsOf(png);
      let white = 0;
      const outside: string[] = [];
      for (let y = PICTURE_BOX.top; y < PICTURE_BOX.top + PICTURE_BOX.height; y++) {
        for (let x = PICTURE_BOX.left; x < PICTURE_BOX.left + PICTURE_BOX.width; x++) {
          const [r, g, b] = at(x, y);
          const inWatermark = x >= watermarkBox!.left && y >= watermarkBox!.top;
          if (inWatermark) continue;
          if (r > 240 && g > 240 && b > 240) white++;
          const changed = Math.abs(r - GRAY) > 24 || Math.abs(g - GRAY) > 24 || Math.abs(b - GRAY) > 24;
          const inside = x >= box.left && x < box.left + box.width && y >= box.top && y < box.top + box.height;
          if (changed && !inside && outside.length < 5) outside.push(`${x},${y}`);
        }
      }
      expect(outside).toEqual([]);
      expect(white).toBeGreaterThan(5000); // the title is really drawn, in white
      // the watermark is not covered by the title
      expect(at(watermarkBox!.left + 100, watermarkBox!.top + 40)).toEqual([255, 0, 0]);
    },
    60_000,
  );

  it("sets a short title at the requested size, and without a watermark uses the whole picture", async () => {
    const { layout, watermarkBox } = await renderThumbnail({ image: await plainImage(800, 450), title: "Deep Ocean", font: THUMBNAIL_FONTS[1]!, fontSize: 120, watermark: null });
    expect(watermarkBox).toBeNull();
    expect(layout).toMatchObject({ fontSize: 120, shrunk: false, lines: ["Deep Ocean"] });
  });

  it("draws characters beyond Latin from the fallback face instead of empty boxes", async () => {
    const image = await plainImage(1280, 720);
    const { png } = await renderThumbnail({ image, title: "Łódź Привет", font: THUMBNAIL_FONTS[8]!, fontSize: 100, watermark: null });
    const { at } = await pixelsOf(png);
    let white = 0;
    for (let y = 30; y < 690; y++) for (let x = 640; x < 1250; x++) if (at(x, y)[0] > 240 && at(x, y)[1] > 240) white++;
    expect(white).toBeGreaterThan(1000); // "Привет" (right half) is drawn
  });
});
