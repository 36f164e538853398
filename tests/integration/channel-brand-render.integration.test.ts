// A channel's brand kit in the video (issue 52, decision 249), as a viewer sees it, in BOTH renderers: a 1-second
// intro card in the brand colour with the logo, the logo as a faded watermark in the top-right corner while the
// scenes play, the captions in the kit's font and colour, a 1-second outro card; the plan the render reads says the
// voice and music mood the kit set. The frames are kept under .data/brand-frames for people to look at.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/core/db.server";
import { brandFromKit, ChannelKitSchema } from "~/lib/channel";
import { COMPOSITION_ID } from "../../app/lib/timeline/video-props";
import { watermarkBox, type Timeline } from "../../app/lib/timeline/timeline";
import { planProps, prepareRenderPlan, type PlanFileKind } from "../../workflows/activities/render";
import { prepareBrandPictures } from "../../workflows/engine/render-brand";
import { closeBrowser } from "../../workflows/engine/render-engine";
import type { RenderPlan } from "../../workflows/shared/render";
import { compareFrames, renderExact, renderFast, type ParityFixture } from "../fixtures/render-parity";
import { seedRenderableProject, toneWav } from "../fixtures/render-project";
import { probeVideo } from "../fixtures/video-probe";
import { createTestUser } from "../support/auth";

const run = promisify(execFile);
const W = 360;
const H = 640;
const BRAND = { r: 0x1e, g: 0x3a, b: 0x8a }; // #1E3A8A

const kit = ChannelKitSchema.parse({
  format: "9:16",
  voice: "espeak:fr",
  music: true,
  musicMood: "calm lo-fi",
  brandColor: "#1e3a8a",
  brandTextColor: "#FFFFFF",
  captionFont: "serif",
  captionColor: "#FF00FF",
  captionStyle: "outlined",
  introText: "Bee Channel",
  outroText: "Subscribe",
  cardSeconds: 1,
  logoFileId: "logo",
  watermark: true,
});

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-brand-"));
const framesDir = path.resolve(".data/brand-frames");
const fastFile = path.join(dir, "fast.mp4");
const exactFile = path.join(dir, "exact.mp4");
const sansFile = path.join(dir, "sans.mp4");
let timeline: Timeline;

/** A plan as prepareRenderPlan makes it (two grey 1.2 s scenes), with the kit's brand. */
function planWith(brand: RenderPlan["brand"]): Omit<RenderPlan, "renderer"> {
  return {
    renderId: "r",
    userId: "u",
    projectId: "p",
    width: W,
    height: H,
    fps: 30,
    captions: true,
    captionStyle: { preset: "outlined", position: "middle", size: "large" },
    music: null,
    scenes: [0, 1].map((i) => ({ imageFileId: `i${i}`, audioFileId: `a${i}`, audioDurationInSeconds: 1.2, text: i === 0 ? "Bees dance." : "Hives hum.", words: null })),
    ...(brand ? { brand } : {}),
  };
}

async function fixtureFor(brand: RenderPlan["brand"]): Promise<ParityFixture> {
  const files = new Map<string, string>();
  const names = (kind: PlanFileKind, i: number) => ({ image: `scene-${i}.png`, audio: `voice-${i}.wav`, music: "music.wav", clip: "clip.mp4", logo: "logo.png", watermark: "watermark.png" })[kind];
  for (const i of [0, 1]) {
    const image = path.join(dir, `scene-${i}.png`);
    await sharp({ create: { width: W, height: H, channels: 3, background: { r: 128, g: 128, b: 128 } } }).png().toFile(image);
    files.set(`scene-${i}.png`, image);
    const voice = path.join(dir, `voice-${i}.wav`);
    fs.writeFileSync(voice, toneWav(1.2, 300 + i * 80));
    files.set(`voice-${i}.wav`, voice);
  }
  // the logo: a red square with a yellow middle
  const rawLogo = path.join(dir, "raw-logo.png");
  await sharp({ create: { width: 300, height: 300, channels: 4, background: { r: 230, g: 20, b: 20, alpha: 1 } } })
    .composite([{ input: { create: { width: 100, height: 100, channels: 4, background: { r: 250, g: 220, b: 0, alpha: 1 } } }, left: 100, top: 100 }])
    .png()
    .toFile(rawLogo);
  const pictures = await prepareBrandPictures(rawLogo, dir, W, H, true);
  files.set("logo.png", pictures.logo);
  files.set("watermark.png", pictures.watermark!);
  return { files, props: (src) => planProps(planWith(brand), (kind, i) => src(names(kind, i))) };
}

/** The frame's RGB pixels. */
async function frameRgb(file: string, frame: number): Promise<Buffer> {
  const { stdout } = await run("ffmpeg", ["-v", "error", "-i", file, "-vf", `select='eq(n,${frame})'`, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"], { encoding: "buffer", maxBuffer: 1 << 24 });
  return stdout as unknown as Buffer;
}
const pixel = (rgb: Buffer, x: number, y: number) => ({ r: rgb[(y * W + x) * 3]!, g: rgb[(y * W + x) * 3 + 1]!, b: rgb[(y * W + x) * 3 + 2]! });
const near = (a: { r: number; g: number; b: number }, b: { r: number; g: number; b: number }, tolerance = 24) =>
  Math.abs(a.r - b.r) <= tolerance && Math.abs(a.g - b.g) <= tolerance && Math.abs(a.b - b.b) <= tolerance;
/** How many pixels of the box are near the colour. */
function countNear(rgb: Buffer, colour: { r: number; g: number; b: number }, box: { x: number; y: number; w: number; h: number }, tolerance = 40) {
  let n = 0;
  for (let y = box.y; y < box.y + box.h; y++) for (let x = box.x; x < box.x + box.w; x++) if (near(pixel(rgb, x, y), colour, tolerance)) n++;
  return n;
}

/** The caption's magenta, as 4:2:0 chroma leaves it on thin strokes next to their black outline. */
const magentaish = (p: { r: number; g: number; b: number }) => p.r > 140 && p.b > 140 && p.g < 90;
function countWhere(rgb: Buffer, test: (p: { r: number; g: number; b: number }) => boolean, box: { x: number; y: number; w: number; h: number }) {
  let n = 0;
  for (let y = box.y; y < box.y + box.h; y++) for (let x = box.x; x < box.x + box.w; x++) if (test(pixel(rgb, x, y))) n++;
  return n;
}

async function keepFrame(file: string, frame: number, name: string) {
  fs.mkdirSync(framesDir, { recursive: true });
  await run("ffmpeg", ["-v", "error", "-y", "-i", file, "-vf", `select='eq(n,${frame})'`, "-frames:v", "1", path.join(framesDir, name)]);
}

beforeAll(async () => {
  const brand = { ...brandFromKit(kit), logoFileId: "logo" };
  const fixture = await fixtureFor(brand);
  timeline = await renderFast(fixture, dir, fastFile);
  await renderExact(fixture, exactFile);
  // the same video with the default caption font, to tell the fonts apart
  const sans = await fixtureFor({ ...brand, captionFont: "sans" });
  await renderFast(sans, dir, sansFile);
}, 600_000);
afterAll(async () => {
  await closeBrowser();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("a channel's brand kit in the video", () => {
  it("is in the timeline: an intro card, the scenes, an outro card; the watermark between them; captions in the kit's font and colour", () => {
    expect(COMPOSITION_ID).toBe("StoryboardVideo");
    expect(timeline.scenes.map((s) => s.layer.kind)).toEqual(["card", "image", "image", "card"]);
    expect(timeline.scenes.map((s) => s.fromFrame)).toEqual([0, 30, 75, 120]);
    expect(timeline.durationInFrames).toBe(150);
    expect(timeline.watermark).toMatchObject({ fromFrame: 30, durationInFrames: 90 });
    expect(timeline.overlays.length).toBeGreaterThan(0);
    expect(timeline.overlays.every((o) => o.style.font === "serif" && o.style.color === "#FF00FF" && o.fromFrame >= 30 && o.fromFrame < 120)).toBe(true);
    // the voiceovers start after the intro
    expect(timeline.audio.filter((a) => a.kind === "voiceover").map((a) => a.fromFrame)).toEqual([30, 75]);
  });

  it("both renderers make a video of the cards' and the scenes' length", async () => {
    for (const file of [fastFile, exactFile]) expect((await probeVideo(file)).video.frames).toBe(150);
  });

  it("shows the intro card (brand colour, the logo, no watermark), the watermark over the scenes and the outro card, in both renderers", async () => {
    const box = watermarkBox(W, H);
    for (const [name, file] of [["fast", fastFile], ["exact", exactFile]] as const) {
      await keepFrame(file, 15, `${name}-intro.png`);
      await keepFrame(file, 48, `${name}-scene.png`);
      await keepFrame(file, 135, `${name}-outro.png`);
      const intro = await frameRgb(file, 15);
      // the card's background is the brand colour, corners and all, with no watermark on it
      expect(near(pixel(intro, 8, 8), BRAND), `${name}: intro top-left`).toBe(true);
      expect(near(pixel(intro, W - 8, H - 8), BRAND), `${name}: intro bottom-right`).toBe(true);
      expect(near(pixel(intro, box.x + box.size / 2, box.y + box.size / 2), BRAND), `${name}: no watermark on the intro`).toBe(true);
      // the logo (red with a yellow middle) in the card's middle, above the text
      expect(countNear(intro, { r: 230, g: 20, b: 20 }, { x: 0, y: 0, w: W, h: H })).toBeGreaterThan(5000);
      expect(countNear(intro, { r: 250, g: 220, b: 0 }, { x: 0, y: 0, w: W, h: H })).toBeGreaterThan(800);
      // the card's text in white
      expect(countNear(intro, { r: 255, g: 255, b: 255 }, { x: 0, y: H / 2, w: W, h: H / 2 }, 30)).toBeGreaterThan(300);

      const scene = await frameRgb(file, 48);
      // the watermark: the logo at 80% over the grey picture, in its square; grey elsewhere
      const faded = { r: Math.round(0.8 * 230 + 0.2 * 128), g: Math.round(0.8 * 20 + 0.2 * 128), b: Math.round(0.8 * 20 + 0.2 * 128) };
      expect(near(pixel(scene, box.x + 4, box.y + 4), faded, 20), `${name}: watermark corner ${JSON.stringify(pixel(scene, box.x + 4, box.y + 4))}`).toBe(true);
      expect(near(pixel(scene, box.x + box.size / 2, box.y + box.size / 2), { r: 226, g: 202, b: 26 }, 24), `${name}: watermark middle`).toBe(true);
      expect(near(pixel(scene, box.x - 6, box.y + box.size / 2), { r: 128, g: 128, b: 128 }, 10), `${name}: left of the watermark`).toBe(true);
      expect(near(pixel(scene, 8, H - 8), { r: 128, g: 128, b: 128 }, 10), `${name}: the scene's own picture`).toBe(true);
      // the captions in the kit's colour (magenta) in the middle band
      expect(countWhere(scene, magentaish, { x: 0, y: 213, w: W, h: 213 }), `${name}: magenta caption`).toBeGreaterThan(150);
      expect(countNear(scene, { r: 255, g: 255, b: 255 }, { x: 0, y: 213, w: W, h: 213 }, 30), `${name}: no white caption`).toBeLessThan(50);

      const outro = await frameRgb(file, 135);
      expect(near(pixel(outro, 8, 8), BRAND), `${name}: outro`).toBe(true);
      expect(countWhere(outro, magentaish, { x: 0, y: 0, w: W, h: H })).toBe(0);
    }
  });

  it("draws the captions in the kit's font: the serif captions are not the sans ones, and both renderers draw them alike", async () => {
    await keepFrame(sansFile, 48, "fast-sans-scene.png");
    // the caption's lines, around the middle of the safe area (y 64 to 474)
    const band = `${W}:64:0:237`;
    const [serifVsSans] = await compareFrames(fastFile, sansFile, [48], band);
    expect(serifVsSans!.psnr).toBeLessThan(30);
    // outside the captions the two are the same picture
    const [rest] = await compareFrames(fastFile, sansFile, [48], `${W}:${Math.round(H / 4)}:0:${H - Math.round(H / 4)}`);
    expect(rest!.psnr).toBeGreaterThan(45);
    const alike = await compareFrames(fastFile, exactFile, [15, 48, 135], band);
    for (const c of alike) expect(c.psnr >= 30 || c.ssim >= 0.95, `frame ${c.frame}: ${c.psnr} dB`).toBe(true);
  });

  it("the render's plan says the kit's voice and music mood, and its brand (read from the channel's project)", async () => {
    const user = await createTestUser();
    const { projectId } = await seedRenderableProject({ userId: user.id, sceneSeconds: [0.6], resolution: "shorts" });
    await prisma.project.update({ where: { id: projectId }, data: { brand: brandFromKit(kit) } });
    const plan = await prepareRenderPlan({ renderId: "none", userId: user.id, projectId, width: W, height: H, captions: true });
    expect(plan.brand).toMatchObject({ voice: "espeak:fr", musicMood: "calm lo-fi", color: "#1E3A8A", captionFont: "serif", captionColor: "#FF00FF", intro: "Bee Channel", outro: "Subscribe", cardSeconds: 1, watermark: true });
    // a project of no channel has no brand
    const plain = await seedRenderableProject({ userId: user.id, sceneSeconds: [0.6] });
    expect((await prepareRenderPlan({ renderId: "none", userId: user.id, projectId: plain.projectId, width: W, height: H, captions: true })).brand).toBeUndefined();
  });
});
