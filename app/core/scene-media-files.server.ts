// Scene media files (decision 071): an uploaded image or clip typed by its bytes (file-type), bounded in bytes,
// pixels and seconds, cleaned of metadata (EXIF, GPS, camera, container tags) and scaled or converted to the
// project's format, then stored. No database rows of scenes and no workflows here: the web's scene-media stage
// (scene-media.server.ts) and the worker's activities (clip conversion, stock media) both build on it.
import { execFile, spawn } from "node:child_process";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { fileTypeFromBuffer } from "file-type";
import sharp from "sharp";
import { type Project } from "~/generated/prisma/client";
import { resolutionValue, videoSizeFor } from "~/lib/video-format";
import { getEnv } from "./env.server";
import { saveMedia, saveMediaFromPath } from "./storage.server";

const run = promisify(execFile);

export const SCENE_MEDIA_LIMITS = {
  imageBytes: 10 * 1024 * 1024,
  clipBytes: 40 * 1024 * 1024,
  /** Pixels an uploaded image may decode to: more is refused before decoding (a decompression bomb). */
  imagePixels: 40_000_000,
  /** A clip is a scene's background: longer ones are refused rather than cut silently. */
  clipSeconds: 30,
  clipPixels: 3840 * 2160,
} as const;

const IMAGE_TYPES: Record<string, { name: string }> = { png: { name: "PNG" }, jpg: { name: "JPEG" }, webp: { name: "WebP" }, gif: { name: "GIF" }, avif: { name: "AVIF" } };
const CLIP_TYPES: Record<string, { name: string }> = { mp4: { name: "MP4" }, mov: { name: "QuickTime" }, webm: { name: "WebM" }, m4v: { name: "MP4" } };

/** A refused upload: the HTTP status and a reason a person can act on. */
export class SceneMediaRejection extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "SceneMediaRejection";
  }
}

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, "")} MB`;
const ACCEPTED = "an image (PNG, JPEG, WebP, GIF, AVIF) or a short clip (MP4, MOV, WebM)";

export type SceneUpload = { kind: "image"; type: string } | { kind: "clip"; type: string };

/** What an uploaded file is, from its bytes; refuses everything but our images and clips, and oversized files. */
export async function sniffSceneUpload(data: Buffer, fileName?: string | null): Promise<SceneUpload> {
  if (data.length === 0) throw new SceneMediaRejection(400, `The file is empty. Choose ${ACCEPTED}.`);
  const found = await fileTypeFromBuffer(data);
  const ext = found?.ext as string | undefined;
  const named = fileName?.match(/\.([A-Za-z0-9]+)$/)?.[1]?.toLowerCase();
  if (!ext || (!IMAGE_TYPES[ext] && !CLIP_TYPES[ext])) {
    const what = ext ? `${ext.toUpperCase()} data` : "not a format we recognise";
    const renamed = named && (IMAGE_TYPES[named === "jpeg" ? "jpg" : named] || CLIP_TYPES[named]) ? ` although it is named .${named}` : "";
    throw new SceneMediaRejection(415, `Invalid file type: this file is ${what}${renamed}. Upload ${ACCEPTED}.`);
  }
  const kind = IMAGE_TYPES[ext] ? "image" : "clip";
  const limit = kind === "image" ? SCENE_MEDIA_LIMITS.imageBytes : SCENE_MEDIA_LIMITS.clipBytes;
  if (data.length > limit) {
    throw new SceneMediaRejection(413, `File too large: a scene ${kind} must be ${megabytes(limit)} or smaller, and this file is ${megabytes(data.length)}.`);
  }
  return { kind, type: ext };
}

/**
 * The uploaded image, decoded within the pixel limit, turned upright, scaled and cropped to cover the format,
 * re-encoded as JPEG without any of the original's metadata.
 */
export async function prepareSceneImage(data: Buffer, size: { width: number; height: number }): Promise<Buffer> {
  let meta: sharp.Metadata;
  try {
    meta = await sharp(data, { limitInputPixels: false }).metadata();
  } catch {
    throw new SceneMediaRejection(415, "Invalid file type: this image could not be read; it may be damaged. Save it again and retry.");
  }
  const pixels = (meta.width ?? 0) * (meta.height ?? 0);
  if (pixels > SCENE_MEDIA_LIMITS.imagePixels) {
    throw new SceneMediaRejection(
      413,
      `Image too large: ${meta.width}x${meta.height} pixels would take too much memory to open. Use an image of at most ${SCENE_MEDIA_LIMITS.imagePixels / 1_000_000} megapixels.`,
    );
  }
  try {
    // sharp writes no metadata unless asked (withMetadata), so EXIF, GPS and ICC comments are all left behind.
    return await sharp(data, { limitInputPixels: SCENE_MEDIA_LIMITS.imagePixels, animated: false })
      .rotate()
      .resize(size.width, size.height, { fit: "cover", position: "attention" })
      .jpeg({ quality: 88, mozjpeg: true })
      .toBuffer();
  } catch {
    throw new SceneMediaRejection(415, "Invalid file type: this image could not be decoded; it may be damaged. Save it again and retry.");
  }
}

type ProbedClip = { width: number; height: number; durationSeconds: number };

async function probeClip(file: string): Promise<ProbedClip> {
  try {
    const { stdout } = await run(getEnv().FFPROBE_PATH, ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height:format=duration", "-of", "json", file]);
    const info = JSON.parse(stdout) as { streams?: { width?: number; height?: number }[]; format?: { duration?: string } };
    const stream = info.streams?.[0];
    const durationSeconds = Number.parseFloat(info.format?.duration ?? "");
    if (!stream?.width || !stream.height || !Number.isFinite(durationSeconds)) throw new Error("no video stream");
    return { width: stream.width, height: stream.height, durationSeconds };
  } catch {
    throw new SceneMediaRejection(415, "Invalid file type: this clip has no video we can read. Upload an MP4, MOV or WebM clip.");
  }
}

export type ClipOptions = {
  /** Cut the clip at this many seconds instead of refusing a longer one (stock clips are cut to the scene). */
  maxSeconds?: number;
  /** Called as ffmpeg converts, with the share done (0..1). */
  onProgress?: (share: number) => void;
};

/** Runs ffmpeg, reporting its progress (out_time against the input's duration) as it goes. */
function runFfmpegWithProgress(args: string[], totalSeconds: number, onProgress: ClipOptions["onProgress"], timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(getEnv().FFMPEG_PATH, ["-progress", "pipe:1", "-nostats", ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      // "-progress" prints key=value lines; out_time_us (and, despite its name, out_time_ms) is in microseconds
      const times = [...chunk.matchAll(/out_time_(?:us|ms)=(\d+)/g)];
      const last = times.at(-1);
      if (last && totalSeconds > 0) onProgress?.(Math.max(0, Math.min(1, Number(last[1]) / 1_000_000 / totalSeconds)));
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr = (stderr + chunk).slice(-2000)));
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(signal ? `ffmpeg was stopped (${signal})` : stderr.trim().split("\n").pop() || `ffmpeg exited with ${code}`));
    });
  });
}

const BT709_TAGS = ["-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv"];

export type PreparedClip = { clipPath: string; poster: Buffer; durationSeconds: number; dir: string };

/**
 * A clip checked (a video stream, at most 4K, at most 30 s unless `maxSeconds` cuts it), then re-encoded: H.264
 * at the format's size (scaled to cover, centre-cropped), no audio (the scene's voiceover plays over it), no
 * metadata; with its first frame as a JPEG, which stands for the clip wherever a picture is needed (cards,
 * thumbnails). Runs in the worker (the scene-media workflow), never in a web request: it takes seconds of CPU.
 * The caller removes `dir` when done with the files.
 */
export async function prepareSceneClip(inputPath: string, size: { width: number; height: number }, options: ClipOptions = {}): Promise<PreparedClip> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "reelsmith-clip-"));
  try {
    const probed = await probeClip(inputPath);
    if (probed.width * probed.height > SCENE_MEDIA_LIMITS.clipPixels) {
      throw new SceneMediaRejection(413, `Clip too large: ${probed.width}x${probed.height} pixels. Use a clip of at most 4K (3840x2160).`);
    }
    if (options.maxSeconds === undefined && probed.durationSeconds > SCENE_MEDIA_LIMITS.clipSeconds) {
      throw new SceneMediaRejection(413, `Clip too long: ${probed.durationSeconds.toFixed(1)} s. A scene clip may be at most ${SCENE_MEDIA_LIMITS.clipSeconds} s; trim it and upload it again.`);
    }
    const seconds = Math.min(probed.durationSeconds, options.maxSeconds ?? SCENE_MEDIA_LIMITS.clipSeconds);
    const output = path.join(dir, "clip.mp4");
    // converted to BT.709 and tagged so: both renderers and the browser then read its colours alike (an untagged
    // clip made from RGB came out BT.601, which Chrome reads as BT.709, greens a quarter darker)
    const scale = `scale=${size.width}:${size.height}:force_original_aspect_ratio=increase:out_color_matrix=bt709:out_range=tv,crop=${size.width}:${size.height},setsar=1,fps=30`;
    const cut = options.maxSeconds !== undefined ? ["-t", seconds.toFixed(3)] : [];
    await runFfmpegWithProgress(
      ["-v", "error", "-y", "-i", inputPath, ...cut, "-map", "0:v:0", "-an", "-sn", "-dn", "-map_metadata", "-1", "-map_chapters", "-1", "-vf", scale, "-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-pix_fmt", "yuv420p", ...BT709_TAGS, "-movflags", "+faststart", output],
      seconds,
      options.onProgress,
      300_000,
    );
    const poster = path.join(dir, "poster.jpg");
    await run(getEnv().FFMPEG_PATH, ["-v", "error", "-y", "-i", output, "-frames:v", "1", "-q:v", "3", poster]);
    const result = await probeClip(output);
    return { clipPath: output, poster: await fsp.readFile(poster), durationSeconds: result.durationSeconds, dir };
  } catch (e) {
    await fsp.rm(dir, { recursive: true, force: true });
    if (e instanceof SceneMediaRejection) throw e;
    throw new SceneMediaRejection(415, `This clip could not be converted: ${(e as Error).message.split("\n")[0]}. Upload an MP4, MOV or WebM clip.`);
  }
}

/** Stores a converted clip and its poster for the project; the caller shows them on a scene. */
export async function storePreparedClip(userId: string, project: Project, clip: PreparedClip) {
  const size = videoSizeFor(resolutionValue(project.resolution), 1080);
  const poster = await saveMedia({ userId, projectId: project.id, kind: "image", data: clip.poster, mimeType: "image/jpeg", extension: "jpg", ...size });
  const file = await saveMediaFromPath({ userId, projectId: project.id, kind: "clip", sourcePath: clip.clipPath, mimeType: "video/mp4", extension: "mp4", durationSeconds: clip.durationSeconds, ...size });
  return { poster, file, durationSeconds: clip.durationSeconds };
}
