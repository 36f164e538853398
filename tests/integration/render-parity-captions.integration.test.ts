// Caption parity per style: the fast renderer's caption stream (one picture stream, one overlay) against the exact
// renderer's frames, for each preset. On a flat grey picture the caption's box (every pixel not grey), its text
// (the white pixels) and, for the word highlight, the highlighted word (the yellow pixels) are measured on the
// frames: positions and sizes within 2 % of the frame. The pairs are saved side by side (fast | exact) as PNGs in
// $TMPDIR/reelsmith-caption-parity, to be looked at.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import type { CaptionStyle } from "../../app/lib/timeline/captions";
import { storyboardVideoSchema } from "../../app/lib/timeline/video-props";
import { buildTimeline } from "../../app/lib/timeline/timeline";
import { prescaleImage } from "../../workflows/engine/render-assets";
import { closeBrowser } from "../../workflows/engine/render-engine";
import { renderFast, renderExact, type ParityFixture } from "../fixtures/render-parity";
import { toneWav } from "../fixtures/render-project";

const run = promisify(execFile);
const WIDTH = 640;
const HEIGHT = 360;
const GREY = 128;
const TEXT = "Bees dance to tell their sisters where the sweetest flowers grow today.";
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-caption-styles-"));
const pairsDir = path.join(os.tmpdir(), "reelsmith-caption-parity");
fs.mkdirSync(pairsDir, { recursive: true });

afterAll(async () => {
  await closeBrowser();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function fixtureFor(style: CaptionStyle): Promise<ParityFixture> {
  const source = path.join(dir, "grey-source.png");
  if (!fs.existsSync(source)) {
    await run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", `color=c=0x808080:s=${WIDTH}x${HEIGHT}:d=1`, "-frames:v", "1", source]);
  }
  const image = path.join(dir, "grey.png");
  if (!fs.existsSync(image)) await prescaleImage(source, image, WIDTH, HEIGHT);
  const voice = path.join(dir, "voice.wav");
  fs.writeFileSync(voice, toneWav(2, 220));
  const files = new Map([
    ["grey.png", image],
    ["voice.wav", voice],
  ]);
  return {
    files,
    props: (src) =>
      storyboardVideoSchema.parse({
        width: WIDTH,
        height: HEIGHT,
        fps: 30,
        captions: true,
        captionStyle: style,
        scenes: [{ imageSrc: src("grey.png"), audioSrc: src("voice.wav"), audioDurationInSeconds: 2, text: TEXT }],
        music: null,
      }),
  };
}

async function frameRgb(file: string, frame: number): Promise<Buffer> {
  const { stdout } = await run("ffmpeg", ["-v", "error", "-i", file, "-vf", `select='eq(n,${frame})'`, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"], {
    encoding: "buffer",
    maxBuffer: WIDTH * HEIGHT * 3 + 1024,
  });
  expect(stdout.length, `frame ${frame} of ${path.basename(file)}`).toBe(WIDTH * HEIGHT * 3);
  return stdout;
}

type Box = { left: number; top: number; right: number; bottom: number; pixels: number };

/** The bounding box of the pixels `is` picks. */
function boxOf(rgb: Buffer, is: (r: number, g: number, b: number) => boolean): Box {
  const box = { left: WIDTH, top: HEIGHT, right: -1, bottom: -1, pixels: 0 };
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const i = (y * WIDTH + x) * 3;
      if (!is(rgb[i]!, rgb[i + 1]!, rgb[i + 2]!)) continue;
      box.pixels++;
      box.left = Math.min(box.left, x);
      box.right = Math.max(box.right, x);
      box.top = Math.min(box.top, y);
      box.bottom = Math.max(box.bottom, y);
    }
  }
  return box;
}

const notGrey = (r: number, g: number, b: number) => Math.abs(r - GREY) + Math.abs(g - GREY) + Math.abs(b - GREY) > 60;
const white = (r: number, g: number, b: number) => r > 215 && g > 215 && b > 215;
const yellow = (r: number, g: number, b: number) => r > 190 && g > 160 && b < 90;

/** Positions and sizes of two boxes, as fractions of the frame; each must differ by less than 2 %. */
function expectSameBox(what: string, fast: Box, exact: Box) {
  expect(fast.pixels, `${what}: found in the fast frame`).toBeGreaterThan(20);
  expect(exact.pixels, `${what}: found in the exact frame`).toBeGreaterThan(20);
  const gaps = {
    left: Math.abs(fast.left - exact.left) / WIDTH,
    top: Math.abs(fast.top - exact.top) / HEIGHT,
    width: Math.abs(fast.right - fast.left - (exact.right - exact.left)) / WIDTH,
    height: Math.abs(fast.bottom - fast.top - (exact.bottom - exact.top)) / HEIGHT,
  };
  for (const [side, gap] of Object.entries(gaps)) expect(gap, `${what} ${side}: fast ${JSON.stringify(fast)} against exact ${JSON.stringify(exact)}`).toBeLessThan(0.02);
  return gaps;
}

async function savePair(name: string, fast: Buffer, exact: Buffer) {
  const raw = { raw: { width: WIDTH, height: HEIGHT, channels: 3 as const } };
  await sharp({ create: { width: WIDTH * 2 + 8, height: HEIGHT, channels: 3, background: { r: 255, g: 0, b: 255 } } })
    .composite([
      { input: fast, ...raw, left: 0, top: 0 },
      { input: exact, ...raw, left: WIDTH + 8, top: 0 },
    ])
    .png()
    .toFile(path.join(pairsDir, `${name}.png`));
}

const STYLES: CaptionStyle[] = [
  { preset: "boxed", position: "bottom", size: "medium" },
  { preset: "outlined", position: "middle", size: "large" },
  { preset: "highlight", position: "top", size: "small" },
];

describe("captions in each style, fast renderer against exact renderer", () => {
  it.each(STYLES)("$preset at the $position, $size: box, text and highlighted word in the same place and size", async (style) => {
    const fixture = await fixtureFor(style);
    const fast = path.join(dir, `${style.preset}-fast.mp4`);
    const exact = path.join(dir, `${style.preset}-exact.mp4`);
    fs.mkdirSync(path.join(dir, style.preset), { recursive: true });
    await renderFast(fixture, path.join(dir, style.preset), fast);
    await renderExact(fixture, exact);
    const timeline = buildTimeline(fixture.props((name) => fixture.files.get(name)!));
    // the middle of the first caption, and with the highlight the middle of the third word's cue
    const cue = style.preset === "highlight" ? timeline.overlays.find((o) => o.highlightWord === 2)! : timeline.overlays[0]!;
    const frame = cue.fromFrame + Math.floor(cue.durationInFrames / 2);
    const [a, b] = await Promise.all([frameRgb(fast, frame), frameRgb(exact, frame)]);
    await savePair(`${style.preset}-${style.position}-${style.size}-frame-${frame}`, a, b);
    const box = expectSameBox("caption box", boxOf(a, notGrey), boxOf(b, notGrey));
    const text = expectSameBox("caption text", boxOf(a, white), boxOf(b, white));
    console.log(`${style.preset}: box off by ${JSON.stringify(box)}, text by ${JSON.stringify(text)} (fractions of the frame)`);
    if (style.preset === "highlight") {
      const word = expectSameBox("highlighted word", boxOf(a, yellow), boxOf(b, yellow));
      console.log(`${style.preset}: highlighted word off by ${JSON.stringify(word)}`);
    } else {
      expect(boxOf(a, yellow).pixels, "no word highlighted").toBeLessThan(5);
    }
  }, 300_000);
});
