// The moving image drawn by pan-zoom.ts: the composition's rectangle, and ffmpeg's perspective filter's frames to the
// bit (the filter the fast renderer drew it with before decision 279); the committed .wasm is its source's build.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MOVES, visibleRectAt, type Arithmetic } from "../../app/lib/timeline/timeline";
import { framePicture, panCorners, PanZoom } from "./pan-zoom";
import { buildPanZoom, PAN_ZOOM_WASM } from "../../scripts/build-wasm.mjs";

const run = promisify(execFile);

/** The motion formula as ffmpeg expression text, for the perspective filter the frames are checked against. */
const ffmpegArithmetic: Arithmetic<string> = {
  lit: (n) => (n < 0 ? `(${n.toFixed(12)})` : n.toFixed(12)),
  add: (a, b) => `(${a}+${b})`,
  sub: (a, b) => `(${a}-${b})`,
  mul: (a, b) => `(${a}*${b})`,
  div: (a, b) => `(${a}/${b})`,
  clamp01: (a) => `clip(${a},0,1)`,
};

describe("panCorners", () => {
  it("is the composition's visible rectangle, frame by frame, shifted from pixel centres to pixel indices", () => {
    const numbers: Arithmetic<number> = { lit: (n) => n, add: (a, b) => a + b, sub: (a, b) => a - b, mul: (a, b) => a * b, div: (a, b) => a / b, clamp01: (a) => Math.min(Math.max(a, 0), 1) };
    for (const move of MOVES) {
      for (const frame of [0, 1, 17, 45, 88, 89, 120]) {
        const corners = panCorners(numbers, move, frame, 90, 640, 360);
        const rect = visibleRectAt(move, frame, 90, 640, 360);
        const x0 = rect.left + (0.5 * rect.width) / 640 - 0.5;
        const y0 = rect.top + (0.5 * rect.height) / 360 - 0.5;
        expect(corners.x0).toBeCloseTo(x0, 9);
        expect(corners.y0).toBeCloseTo(y0, 9);
        expect(corners.x3).toBeCloseTo(x0 + rect.width, 9);
        expect(corners.y3).toBeCloseTo(y0 + rect.height, 9);
      }
    }
  });
});

describe("PanZoom", () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "pan-zoom-"));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** The perspective filter's frames for `move` over a scene of `frames` frames (its frame counter starts at 1). */
  async function perspectiveFrames(picture: string, width: number, height: number, move: (typeof MOVES)[number], frames: number) {
    const corners = Object.entries(panCorners(ffmpegArithmetic, move, "in", frames, width, height))
      .map(([k, v]) => `${k}='${v}'`)
      .join(":");
    const toYuv = `scale=${width}:${height}:flags=bicubic:out_color_matrix=bt709:out_range=tv,format=yuv420p,setsar=1`;
    const graph = `movie=filename=${picture},${toYuv},loop=loop=${frames - 1}:size=1:start=0,setpts=N/(30*TB),perspective=${corners}:interpolation=linear:sense=source:eval=frame`;
    const raw = path.join(dir, "perspective.yuv");
    await run("ffmpeg", ["-v", "error", "-y", "-filter_complex", graph, "-r", "30", "-f", "rawvideo", "-pix_fmt", "yuv420p", raw]);
    return fs.readFileSync(raw);
  }

  it.each([
    [640, 360],
    [360, 640],
  ])("draws each move at %ix%i as ffmpeg's perspective filter does, to the bit, one frame earlier", async (width, height) => {
    const picture = path.join(dir, `texture-${width}x${height}.png`);
    // hard edges, text and gradients at twice the frame's size, as a scene's picture before its pre-scale
    await run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", `testsrc2=s=${width * 2}x${height * 2}:d=1`, "-frames:v", "1", picture]);
    const panZoom = new PanZoom(width, height);
    panZoom.setPicture(await framePicture(picture, width, height));
    const frames = 24;
    const size = width * height * 1.5;
    for (const move of MOVES) {
      const reference = await perspectiveFrames(picture, width, height, move, frames);
      expect(reference.length).toBe(frames * size);
      for (let k = 0; k < frames; k++) {
        // the filter drew frame k with the motion of the composition's frame k + 1
        const mine = panZoom.frame(move, Math.min(k + 1, frames - 1), frames);
        expect(mine.equals(reference.subarray(k * size, (k + 1) * size)), `move ${MOVES.indexOf(move)}, frame ${k}`).toBe(true);
      }
      // and the picture moves: the first and last frames differ
      expect(panZoom.frame(move, 0, frames).equals(panZoom.frame(move, frames - 1, frames))).toBe(false);
    }
  });

  it("says which picture it could not read", async () => {
    await expect(framePicture(path.join(dir, "missing.png"), 640, 360)).rejects.toThrow(/missing\.png could not be read/);
  });

  it("refuses a frame of odd size, which 4:2:0 chroma cannot halve", () => {
    expect(() => new PanZoom(641, 360)).toThrow("A moving picture needs an even frame size, not 641x360");
  });
});

describe("pan-zoom.wasm", () => {
  it("is the build of pan-zoom.as.ts (run `npm run build:wasm` after changing it)", async () => {
    const built = await buildPanZoom();
    expect(built.equals(fs.readFileSync(PAN_ZOOM_WASM))).toBe(true);
  }, 60_000);
});
