// A still picture moving over the frame (the composition's pan and zoom), drawn frame by frame for the fast renderer
// (decision 279). Until then ffmpeg's perspective filter drew it: it recomputes a per-pixel map every frame on one
// thread and resamples with generic per-pixel code, about 36 ms of CPU per 1080p frame here. The rectangle is
// axis-aligned, so its map is one table of columns and one of rows, and the resampling is separable:
// wasm/pan-zoom.as.ts (WebAssembly, the vertical pass in SIMD) draws a 1080p frame in about 8 ms, 13 ms with the
// pipe to ffmpeg, with the filter's own coordinates, weights and rounding, so the frames are the filter's frames
// (pan-zoom.test.ts compares them with ffmpeg's, byte for byte).
import { spawn } from "node:child_process";
import fs from "node:fs";
import { getEnv } from "~/core/env.server";
import { projectFile } from "~/lib/project-files.server";
import { numbers, sceneProgress, visibleRect, type Arithmetic, type Move } from "../../app/lib/timeline/timeline";
import { MOVING_IMAGE_PIXEL_FORMAT } from "./render-fast-compile";


/**
 * The source points the four corners of the frame show (top-left x0,y0 ... bottom-right x3,y3), in the arithmetic
 * given. The filter samples the source at the destination pixel's index mapped linearly, while a browser samples at
 * pixel centres; shifting by half a destination pixel (0.5 / scale) minus half a source pixel lines the two up.
 */
export function panCorners<T>(m: Arithmetic<T>, move: Move, frameInScene: T, durationInFrames: number, width: number, height: number) {
  const rect = visibleRect(m, move, sceneProgress(m, frameInScene, durationInFrames), width, height);
  const x0 = m.sub(m.add(rect.left, m.mul(rect.width, m.lit(0.5 / width))), m.lit(0.5));
  const y0 = m.sub(m.add(rect.top, m.mul(rect.height, m.lit(0.5 / height))), m.lit(0.5));
  const x1 = m.add(x0, rect.width);
  const y2 = m.add(y0, rect.height);
  return { x0, y0, x1, y1: y0, x2: x0, y2, x3: x1, y3: y2 };
}

/** C's lrint in the default rounding mode: to the nearest integer, halves to the even one. */
function lrint(n: number): number {
  const floor = Math.floor(n);
  const fraction = n - floor;
  if (fraction !== 0.5) return fraction < 0.5 ? floor : floor + 1;
  return floor % 2 === 0 ? floor : floor + 1;
}

/**
 * The source position (in 1/256 pixel) of each destination column (at row 0) and row (at column 0), computed as
 * vf_perspective's calc_persp_luts computes its map with sense=source, term for term, so the doubles round alike.
 */
export function sourcePositions(corners: ReturnType<typeof panCorners<number>>, w: number, h: number) {
  const ref = [
    [corners.x0, corners.y0],
    [corners.x1, corners.y1],
    [corners.x2, corners.y2],
    [corners.x3, corners.y3],
  ] as const;
  const x6 = ((ref[0][0] - ref[1][0] - ref[2][0] + ref[3][0]) * (ref[2][1] - ref[3][1]) - (ref[0][1] - ref[1][1] - ref[2][1] + ref[3][1]) * (ref[2][0] - ref[3][0])) * h;
  const x7 = ((ref[0][1] - ref[1][1] - ref[2][1] + ref[3][1]) * (ref[1][0] - ref[3][0]) - (ref[0][0] - ref[1][0] - ref[2][0] + ref[3][0]) * (ref[1][1] - ref[3][1])) * w;
  const q = (ref[1][0] - ref[3][0]) * (ref[2][1] - ref[3][1]) - (ref[2][0] - ref[3][0]) * (ref[1][1] - ref[3][1]);
  const x0 = q * (ref[1][0] - ref[0][0]) * h + x6 * ref[1][0];
  const x2 = q * ref[0][0] * w * h;
  const x4 = q * (ref[2][1] - ref[0][1]) * w + x7 * ref[2][1];
  const x5 = q * ref[0][1] * w * h;
  const x8 = q * w * h;
  const columns = new Int32Array(w);
  for (let x = 0; x < w; x++) columns[x] = lrint((256 * (x0 * x + 0 + x2)) / (x6 * x + 0 + x8));
  const rows = new Int32Array(h);
  for (let y = 0; y < h; y++) rows[y] = lrint((256 * (0 + x4 * y + x5)) / (0 + x7 * y + x8));
  return { columns, rows };
}

type PanZoomExports = {
  memory: WebAssembly.Memory;
  plane: (...args: number[]) => void;
};

let compiled: WebAssembly.Module | undefined;
// found from the project's root: this module also runs bundled into dist/worker.js (decision 204)
const wasmModule = () => (compiled ??= new WebAssembly.Module(fs.readFileSync(projectFile("workflows/engine/wasm/pan-zoom.wasm"))));

/** One plane's size and its place in the picture and in an output frame (from the frame's start). */
type PlaneLayout = { width: number; height: number; src: number; dst: number };

/**
 * A frame-sized picture (8-bit 4:2:0, planes in order) and the frames of it moving. One instance per render; its
 * memory is the picture, `slots` output frames, one intermediate and the tables (about 2 + 1.5 x slots bytes a
 * pixel). A frame is drawn into the next slot and handed out as a view of that memory, not a copy: a 1080p minute
 * is 5.6 GB of frames, and as fresh buffers each one pressed V8 into a full garbage collection of the worker's whole
 * heap every few dozen frames (about 20 CPU s a minute on the collector's threads, stop 71).
 */
export class PanZoom {
  private readonly wasm: PanZoomExports;
  private readonly planes: PlaneLayout[];
  private readonly frameBytes: number;
  private readonly tables: { cols: number; colWeights: number; rowA: number; rowB: number; rowWeights: number };
  private readonly tmp: number;
  private readonly outputs: number[];
  private drawn = 0;

  constructor(
    readonly width: number,
    readonly height: number,
    /** How many frames handed out stay as drawn: frame k's memory is drawn over by frame k + slots. */
    readonly slots = 2,
  ) {
    if (width % 2 || height % 2) throw new Error(`A moving picture needs an even frame size, not ${width}x${height}`);
    this.wasm = new WebAssembly.Instance(wasmModule(), {}).exports as unknown as PanZoomExports;
    const luma = width * height;
    this.frameBytes = luma * 1.5;
    // the last column's sample reads one byte past its row with weight 0: a little padding after each area
    const pad = 64;
    let at = 1024;
    const take = (bytes: number) => {
      const start = at;
      at += Math.ceil((bytes + pad) / 16) * 16;
      return start;
    };
    const src = take(this.frameBytes);
    this.outputs = Array.from({ length: slots }, () => take(this.frameBytes));
    this.tmp = take(width * (height + 1) * 2);
    this.tables = { cols: take(width * 4), colWeights: take(width * 4), rowA: take(height * 4), rowB: take(height * 4), rowWeights: take(height * 4) };
    const pages = Math.ceil(at / 65536) - this.wasm.memory.buffer.byteLength / 65536;
    if (pages > 0) this.wasm.memory.grow(pages);
    const cw = width / 2;
    const ch = height / 2;
    this.planes = [
      { width, height, src, dst: 0 },
      { width: cw, height: ch, src: src + luma, dst: luma },
      { width: cw, height: ch, src: src + luma + cw * ch, dst: luma + cw * ch },
    ];
  }

  /** Takes the picture: `yuv` is the frame-sized 4:2:0 picture, its three planes one after another. */
  setPicture(yuv: Uint8Array): void {
    if (yuv.length !== this.frameBytes) throw new Error(`The picture has ${yuv.length} bytes, not the ${this.frameBytes} of a ${this.width}x${this.height} frame`);
    new Uint8Array(this.wasm.memory.buffer, this.planes[0]!.src, this.frameBytes).set(yuv);
  }

  /**
   * Frame `frameInScene` of a scene of `durationInFrames` frames, the planes one after another: a view of the next
   * slot's memory, valid until `slots` more frames are drawn (copy it to keep it longer).
   */
  frame(move: Move, frameInScene: number, durationInFrames: number): Buffer {
    const corners = panCorners(numbers, move, frameInScene, durationInFrames, this.width, this.height);
    const { columns, rows } = sourcePositions(corners, this.width, this.height);
    const output = this.outputs[this.drawn++ % this.slots]!;
    this.planes.forEach((plane, p) => this.drawPlane(plane, output + plane.dst, p === 0 ? 0 : 1, columns, rows));
    return Buffer.from(this.wasm.memory.buffer, output, this.frameBytes);
  }

  /**
   * One plane: the tables the filter would read for it (a chroma sample takes the luma position of its top-left
   * luma pixel, halved), then the separable resampling. Out of the picture the filter holds the edge: a column past
   * it reads the edge column alone (weight 0), a row past it the edge row twice.
   */
  private drawPlane(plane: PlaneLayout, dst: number, shift: 0 | 1, columns: Int32Array, rows: Int32Array) {
    const memory = new Int32Array(this.wasm.memory.buffer);
    const t = this.tables;
    const { width: w, height: h } = plane;
    for (let x = 0; x < w; x++) {
      const u = columns[x << shift]! >> shift;
      const column = u >> 8;
      const inside = column >= 0 && column < w - 1;
      memory[(t.cols >> 2) + x] = inside ? column : column < 0 ? 0 : w - 1;
      memory[(t.colWeights >> 2) + x] = inside ? u & 255 : 0;
    }
    let first = h;
    let last = -1;
    for (let y = 0; y < h; y++) {
      const v = rows[y << shift]! >> shift;
      const row = v >> 8;
      const inside = row >= 0 && row < h - 1;
      const a = inside ? row : row < 0 ? 0 : h - 1;
      const b = inside ? row + 1 : a;
      memory[(t.rowA >> 2) + y] = a;
      memory[(t.rowB >> 2) + y] = b;
      memory[(t.rowWeights >> 2) + y] = inside ? v & 255 : 0;
      first = Math.min(first, a);
      last = Math.max(last, b);
    }
    this.wasm.plane(plane.src, w, dst, w, h, t.cols, t.colWeights, t.rowA, t.rowB, t.rowWeights, first, last, this.tmp);
  }
}

/**
 * A picture file as the frame-sized 4:2:0 picture the moving image starts from: decoded and scaled by ffmpeg as the
 * fast renderer's graph scaled it before (bicubic, BT.709 matrix, limited range).
 */
export function framePicture(file: string, width: number, height: number, signal?: AbortSignal): Promise<Buffer> {
  const args = ["-hide_banner", "-nostdin", "-v", "error", "-i", file, "-frames:v", "1"];
  args.push("-vf", `scale=${width}:${height}:flags=bicubic:out_color_matrix=bt709:out_range=tv,format=${MOVING_IMAGE_PIXEL_FORMAT},setsar=1`);
  args.push("-f", "rawvideo", "-pix_fmt", MOVING_IMAGE_PIXEL_FORMAT, "pipe:1");
  return new Promise((resolve, reject) => {
    const child = spawn(getEnv().FFMPEG_PATH, args, { stdio: ["ignore", "pipe", "pipe"], signal });
    const chunks: Buffer[] = [];
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
    child.on("error", reject);
    child.on("close", (code) => {
      const picture = Buffer.concat(chunks);
      if (code === 0 && picture.length === width * height * 1.5) resolve(picture);
      else reject(new Error(`The scene's picture ${file} could not be read (${code === 0 ? `${picture.length} bytes` : `exit ${code}`}): ${stderr.trim().split("\n").slice(-2).join(" | ")}`));
    });
  });
}
