import { describe, expect, it } from "vitest";
import {
  GenerateThumbnailSchema,
  THUMBNAIL_FONT_FACES,
  THUMBNAIL_FONTS,
  THUMBNAIL_FONT_SIZES,
  layoutTitle,
  thumbnailFontFor,
  thumbnailFontSizeFor,
  wrapWords,
} from "./thumbnail";

// every character 10 px wide per 20 px of size: easy to reason about
const measure = (text: string, size: number) => text.length * size * 0.5;

describe("thumbnail fonts and sizes", () => {
  it("offers the spec's nine fonts, Bebas Neue first and by default", () => {
    expect(THUMBNAIL_FONTS.map((f) => f.family)).toEqual([
      "Bebas Neue", "Anton", "Oswald", "Poppins", "Bangers", "Luckiest Guy", "Russo One", "Montserrat Extra Bold", "Lilita One",
    ]);
    expect(thumbnailFontFor(null).family).toBe("Bebas Neue");
    expect(thumbnailFontFor("Luckiest Guy").value).toBe("luckiest-guy");
    expect(thumbnailFontFor("comic sans").family).toBe("Bebas Neue");
  });

  it("gives every offered font one face, the same for the previews and the renderer", () => {
    expect(Object.keys(THUMBNAIL_FONT_FACES).sort()).toEqual(THUMBNAIL_FONTS.map((f) => f.value).sort());
    expect(THUMBNAIL_FONT_FACES["montserrat-extra-bold"]).toEqual({ pkg: "montserrat", cssFamily: "Montserrat", weight: 800 });
  });

  it("offers 40 to 160 px in steps of 4, with 72 by default and saved sizes snapped onto the scale", () => {
    expect(THUMBNAIL_FONT_SIZES[0]).toBe(40);
    expect(THUMBNAIL_FONT_SIZES.at(-1)).toBe(160);
    expect(THUMBNAIL_FONT_SIZES).toHaveLength(31);
    expect(thumbnailFontSizeFor(undefined)).toBe(72);
    expect(thumbnailFontSizeFor(73)).toBe(72);
    expect(thumbnailFontSizeFor(500)).toBe(160);
    expect(thumbnailFontSizeFor(2)).toBe(40);
  });

  it("refuses sizes off the scale and empty titles, naming the field", () => {
    const ok = { imageUrl: "/api/media/x", title: "Hello", fontSize: 72 };
    expect(GenerateThumbnailSchema.safeParse(ok).success).toBe(true);
    expect(GenerateThumbnailSchema.safeParse({ ...ok, fontSize: 74 }).error?.issues[0]?.path).toEqual(["fontSize"]);
    expect(GenerateThumbnailSchema.safeParse({ ...ok, fontSize: 164 }).success).toBe(false);
    expect(GenerateThumbnailSchema.safeParse({ ...ok, title: "   " }).error?.issues[0]?.path).toEqual(["title"]);
    expect(GenerateThumbnailSchema.safeParse({ ...ok, title: "x".repeat(201) }).success).toBe(false);
  });
});

describe("title layout", () => {
  it("wraps on words, and breaks a word longer than a line", () => {
    expect(wrapWords("one two three four", 20, 90, measure)).toEqual(["one two", "three", "four"]);
    expect(wrapWords("abcdefghijklmnop", 20, 50, measure)).toEqual(["abcde", "fghij", "klmno", "p"]);
  });

  it("keeps the requested size when the title fits, and shrinks until it does when not", () => {
    const box = { left: 0, top: 0, width: 400, height: 200 };
    const metrics = { lineHeightRatio: 1.2, ascentRatio: 0.8, descentRatio: 0.2 };
    const small = layoutTitle({ text: "Short", fontSize: 40, box, measure, ...metrics });
    expect(small).toMatchObject({ fontSize: 40, shrunk: false, lines: ["Short"] });
    expect(small.lineStarts[0]).toBe((400 - 100) / 2);

    const long = layoutTitle({ text: "A much longer title that cannot fit at this size", fontSize: 160, box, measure, ...metrics });
    expect(long.shrunk).toBe(true);
    for (const [i, line] of long.lines.entries()) {
      expect(long.lineStarts[i]!).toBeGreaterThanOrEqual(0);
      expect(long.lineStarts[i]! + measure(line, long.fontSize)).toBeLessThanOrEqual(400);
    }
    const bottom = long.baselines.at(-1)! + long.fontSize * 0.2;
    const top = long.baselines[0]! - long.fontSize * 0.8;
    expect(top).toBeGreaterThanOrEqual(0);
    expect(bottom).toBeLessThanOrEqual(200);
  });
});
