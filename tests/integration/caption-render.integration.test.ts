// Caption styles through the real fast renderer (Remotion's renderStill for each caption picture, one ffmpeg run):
// the word-highlight preset highlights different words in frames 0.5 s apart within one sentence; a 40-word
// sentence in the large size stays inside the frame (and, upright, out of the Shorts app's overlay zones) in 9:16
// and 16:9; and the exact renderer draws the highlight like the fast one. Tiny videos: 360x640 / 640x360, a few
// seconds, on a flat grey picture so every caption pixel stands out.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CaptionStyle } from "../../app/lib/timeline/captions";
import { SAFE_ZONES } from "../../app/lib/timeline/captions";
import {
  storyboardVideoSchema,
  type StoryboardVideoProps,
} from "../../app/lib/timeline/video-props";
import { buildTimeline, type Timeline } from "../../app/lib/timeline/timeline";
import { prescaleImage } from "../../workflows/engine/render-assets";
import { closeBrowser } from "../../workflows/engine/render-engine";
import { renderTimelineFast } from "../../workflows/engine/render-fast";
import { compareFrames, renderExact } from "../fixtures/render-parity";
import { toneWav } from "../fixtures/render-project";
import { probeVideo } from "../fixtures/video-probe";

const run = promisify(execFile);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-captions-"));
const GREY = 128;

const FORTY_WORDS =
  "Honeybees communicate the location of distant flowers through an intricate waggle dance, whose angle relative to the comb encodes the direction of the sun, while its duration tells sisters precisely how far away the promising patch of blossoms really is.";
const HIGHLIGHT_TEXT =
  "Bees dance to tell their sisters where the sweetest flowers grow today.";

type Rendered = {
  file: string;
  timeline: Timeline;
  width: number;
  height: number;
};

async function greyImage(width: number, height: number): Promise<string> {
  const source = path.join(dir, `grey-${width}x${height}-source.png`);
  await run("ffmpeg", [
    "-v",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    `color=c=0x808080:s=${width}x${height}:d=1`,
    "-frames:v",
    "1",
    source,
  ]);
  const image = path.join(dir, `grey-${width}x${height}.png`);
  await prescaleImage(source, image, width, height);
  return image;
}

function props(
  size: { width: number; height: number },
  text: string,
  seconds: number,
  style: CaptionStyle
): (src: (name: string) => string) => StoryboardVideoProps {
  return (src) =>
    storyboardVideoSchema.parse({
      ...size,
      fps: 30,
      captions: true,
      captionStyle: style,
      scenes: [
        {
          imageSrc: src(`grey-${size.width}x${size.height}.png`),
          audioSrc: src("voice.wav"),
          audioDurationInSeconds: seconds,
          text,
        },
      ],
      music: null,
    });
}

async function renderFastWith(
  name: string,
  size: { width: number; height: number },
  text: string,
  seconds: number,
  style: CaptionStyle
): Promise<Rendered & { files: Map<string, string> }> {
  const files = new Map<string, string>([
    [
      `grey-${size.width}x${size.height}.png`,
      await greyImage(size.width, size.height),
    ],
    ["voice.wav", path.join(dir, "voice.wav")],
  ]);
  fs.writeFileSync(files.get("voice.wav")!, toneWav(seconds, 220));
  const timeline = buildTimeline(
    props(size, text, seconds, style)((n) => files.get(n)!)
  );
  const file = path.join(dir, `${name}.mp4`);
  const workDir = path.join(dir, name);
  fs.mkdirSync(workDir, { recursive: true });
  await renderTimelineFast({ timeline, workDir, output: file });
  return { file, timeline, files, ...size };
}

/** One frame as RGB bytes. */
async function frameRgb(
  file: string,
  frame: number,
  width: number,
  height: number
): Promise<Buffer> {
  const { stdout } = await run(
    "ffmpeg",
    [
      "-v",
      "error",
      "-i",
      file,
      "-vf",
      `select='eq(n,${frame})'`,
      "-frames:v",
      "1",
      "-f",
      "rawvideo",
      "-pix_fmt",
      "rgb24",
      "-",
    ],
    {
      encoding: "buffer",
      maxBuffer: width * height * 3 + 1024,
    }
  );
  expect(stdout.length, `frame ${frame} of ${path.basename(file)}`).toBe(
    width * height * 3
  );
  return stdout;
}

/** Pixels that differ from the grey picture: the caption's. */
function captionPixels(
  rgb: Buffer,
  width: number,
  height: number,
  where: (x: number, y: number) => boolean
): number {
  let n = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!where(x, y)) continue;
      const i = (y * width + x) * 3;
      if (
        Math.abs(rgb[i]! - GREY) +
          Math.abs(rgb[i + 1]! - GREY) +
          Math.abs(rgb[i + 2]! - GREY) >
        60
      )
        n++;
    }
  }
  return n;
}

/** The centre and count of the yellow (highlighted) pixels. */
function yellow(rgb: Buffer, width: number, height: number) {
  let n = 0;
  let sx = 0;
  let sy = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      if (rgb[i]! > 190 && rgb[i + 1]! > 160 && rgb[i + 2]! < 90) {
        n++;
        sx += x;
        sy += y;
      }
    }
  }
  return { count: n, x: n ? sx / n : NaN, y: n ? sy / n : NaN };
}

let highlight: Rendered & { files: Map<string, string> };
const upright = { width: 360, height: 640 };
const landscape = { width: 640, height: 360 };

beforeAll(async () => {
  highlight = await renderFastWith("highlight", upright, HIGHLIGHT_TEXT, 4, {
    preset: "highlight",
    position: "bottom",
    size: "large",
  });
}, 600_000);

afterAll(async () => {
  await closeBrowser();
  if (!process.env.KEEP_CAPTION_RENDERS)
    fs.rmSync(dir, { recursive: true, force: true });
  else console.log(`caption renders kept in ${dir}`);
});

describe("the word-highlight preset", () => {
  it("highlights different words in frames 0.5 s apart within one sentence", async () => {
    const { file, timeline, width, height } = highlight;
    expect((await probeVideo(file)).video.frames).toBe(
      timeline.durationInFrames
    );
    // one overlay per spoken word, each a still picture
    expect(timeline.overlays.length).toBe(HIGHLIGHT_TEXT.split(" ").length);
    const seen: { frame: number; x: number; y: number }[] = [];
    for (const frame of [15, 30, 45, 60, 75]) {
      const y = yellow(
        await frameRgb(file, frame, width, height),
        width,
        height
      );
      expect(y.count, `frame ${frame} has a highlighted word`).toBeGreaterThan(
        20
      );
      seen.push({ frame, x: y.x, y: y.y });
    }
    for (let i = 1; i < seen.length; i++) {
      const [a, b] = [seen[i - 1]!, seen[i]!];
      const moved = Math.hypot(a.x - b.x, a.y - b.y);
      expect(
        moved,
        `the highlight moved between frames ${a.frame} and ${
          b.frame
        } (${JSON.stringify([a, b])})`
      ).toBeGreaterThan(8);
    }
  });

  it("is drawn by the exact renderer like the fast one (same words highlighted on the same frames)", async () => {
    const exactFile = path.join(dir, "highlight-exact.mp4");
    const files = highlight.files;
    await renderExact(
      {
        files,
        props: props(upright, HIGHLIGHT_TEXT, 4, {
          preset: "highlight",
          position: "bottom",
          size: "large",
        }),
      },
      exactFile
    );
    const edges = highlight.timeline.overlays
      .slice(0, 6)
      .flatMap((o) => [o.fromFrame, o.fromFrame + o.durationInFrames - 1]);
    for (const c of await compareFrames(highlight.file, exactFile, edges)) {
      expect(
        c.psnr >= 35 || c.ssim >= 0.98,
        `frame ${c.frame}: PSNR ${c.psnr} dB, SSIM ${c.ssim}`
      ).toBe(true);
    }
    for (const frame of [15, 45, 75]) {
      const fast = yellow(
        await frameRgb(highlight.file, frame, upright.width, upright.height),
        upright.width,
        upright.height
      );
      const exact = yellow(
        await frameRgb(exactFile, frame, upright.width, upright.height),
        upright.width,
        upright.height
      );
      expect(
        Math.hypot(fast.x - exact.x, fast.y - exact.y),
        `frame ${frame}: the same word is highlighted`
      ).toBeLessThan(3);
    }
  }, 600_000);
});

describe("a 40-word sentence in the large size", () => {
  const cases = [
    {
      name: "upright-outlined",
      size: upright,
      style: {
        preset: "outlined",
        position: "bottom",
        size: "large",
      } as CaptionStyle,
    },
    {
      name: "landscape-boxed",
      size: landscape,
      style: {
        preset: "boxed",
        position: "bottom",
        size: "large",
      } as CaptionStyle,
    },
    {
      name: "upright-boxed-top",
      size: upright,
      style: {
        preset: "boxed",
        position: "top",
        size: "large",
      } as CaptionStyle,
    },
  ];
  for (const c of cases) {
    it(`stays inside the frame (${c.name}, ${c.size.width}x${c.size.height})`, async () => {
      expect(FORTY_WORDS.split(" ")).toHaveLength(40);
      const { file, timeline, width, height } = await renderFastWith(
        c.name,
        c.size,
        FORTY_WORDS,
        6,
        c.style
      );
      expect(
        timeline.overlays.length,
        "the sentence is split into several captions"
      ).toBeGreaterThan(2);
      const edge = 3;
      const zone = height > width ? SAFE_ZONES.vertical : SAFE_ZONES.landscape;
      for (const overlay of timeline.overlays) {
        const frame =
          overlay.fromFrame + Math.floor(overlay.durationInFrames / 2);
        const rgb = await frameRgb(file, frame, width, height);
        expect(
          captionPixels(rgb, width, height, () => true),
          `frame ${frame} shows a caption`
        ).toBeGreaterThan(200);
        const atEdges = captionPixels(
          rgb,
          width,
          height,
          (x, y) =>
            x < edge || y < edge || x >= width - edge || y >= height - edge
        );
        expect(
          atEdges,
          `frame ${frame}: caption pixels at the frame's edges`
        ).toBe(0);
        // and out of the platform's overlay zones (a pixel of slack for anti-aliasing)
        const outside = captionPixels(
          rgb,
          width,
          height,
          (x, y) =>
            x < width * zone.left - 1 ||
            x > width * (1 - zone.right) + 1 ||
            y < height * zone.top - 1 ||
            y > height * (1 - zone.bottom) + 1
        );
        expect(
          outside,
          `frame ${frame}: caption pixels outside the safe zone`
        ).toBe(0);
      }
    }, 600_000);
  }
});
