import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { renderSceneImage } from "~/providers/image/offline-scene.server";
import { drawEndCard, drawHook, reframeForShort, wrapWords } from "./short-frames.server";

describe("a Short's pictures", () => {
  it("reframes an offline 16:9 picture around the subject it drew, the subject inside the crop", async () => {
    const { image, art } = await renderSceneImage("An octopus on the sea floor", "16:9", "seed-1", "The octopus has three hearts.");
    expect(art.mainBox).toBeDefined();
    const out = await reframeForShort(image, art.mainBox!);
    expect(out.method).toBe("subject");
    const box = art.mainBox!;
    expect(box.left).toBeGreaterThanOrEqual(out.crop!.left);
    expect(box.left + box.size).toBeLessThanOrEqual(out.crop!.left + out.crop!.width);
    const meta = await sharp(out.image).metadata();
    expect([meta.width, meta.height]).toEqual([1080, 1920]);
  });

  it("keeps a subject wider than the 9:16 slice whole, over a soft fill", async () => {
    const source = await sharp({ create: { width: 1600, height: 900, channels: 3, background: "#123456" } }).png().toBuffer();
    const out = await reframeForShort(source, { left: 300, top: 100, size: 700 });
    expect(out.crop!.width).toBeGreaterThanOrEqual(700);
    // shown whole between the hook line and the bottom of the vertical safe zone
    expect(out.placed!.top).toBeGreaterThanOrEqual(Math.round(1920 * 0.3));
    expect(out.placed!.top + out.placed!.height).toBeLessThanOrEqual(Math.round(1920 * 0.74));
    expect(out.placed!.left + out.placed!.width).toBeLessThanOrEqual(1080);
  });

  it("crops other pictures by saliency: the bright subject at the right edge stays in the frame", async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="900"><rect width="1600" height="900" fill="#202020"/><circle cx="1400" cy="450" r="150" fill="#ff2a2a"/></svg>`;
    const out = await reframeForShort(await sharp(Buffer.from(svg)).png().toBuffer(), null);
    expect(out.method).toBe("saliency");
    const { data, info } = await sharp(out.image).raw().toBuffer({ resolveWithObject: true });
    let red = 0;
    for (let i = 0; i < data.length; i += info.channels) if (data[i]! > 200 && data[i + 1]! < 80) red++;
    expect(red).toBeGreaterThan(10_000);
  });

  it("draws the hook and the end card on 1080x1920 pictures", async () => {
    const plain = await sharp({ create: { width: 1080, height: 1920, channels: 3, background: "#000000" } }).png().toBuffer();
    const hooked = await sharp(await drawHook(plain, "Why do octopuses have three hearts?")).raw().toBuffer({ resolveWithObject: true });
    // the yellow box sits in the top of the safe zone, not over the captions at the bottom
    const at = (x: number, y: number) => hooked.data.subarray((y * 1080 + x) * hooked.info.channels, (y * 1080 + x) * hooked.info.channels + 3);
    expect([...at(140, 270)]).toEqual([255, 212, 0]);
    expect([...at(540, 1700)]).toEqual([0, 0, 0]);
    const card = await sharp(await drawEndCard(plain, "The octopus and its three hearts")).metadata();
    expect([card.width, card.height]).toEqual([1080, 1920]);
    expect(wrapWords("one two three four five six", 9, 2)).toEqual(["one two", "three…"]);
  });
});
