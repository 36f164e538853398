// Mixing background music into a finished video in one ffmpeg run, audio only: the video stream is copied
// packet for packet (never decoded or re-encoded), the music is looped or trimmed to the video's length, faded
// in briefly and out at the end, and ducked under the voice (sidechain compression keyed by the voice track;
// see docs/decisions/010-music-mix-ducking.md). The background-music activity asks for the mixed sound alone, which
// the loudness step muxes with the picture (one write of the video, not two); `npm run bench:music` for the video.
import { execFile, spawn } from "node:child_process";
import { promisify } from "node:util";
import { getEnv } from "~/core/env.server";
import { deliveryAudioArgs } from "./delivery-encoding";

const run = promisify(execFile);

/** The music's fade-out at the end: 2 s, or a quarter of a very short video. */
export function fadeOutSeconds(durationSeconds: number): number {
  return Math.min(2, durationSeconds / 4);
}

/** Ducking: while the voice is above -34 dBFS the music is pressed down, by about 10 dB under ordinary speech. */
export const DUCKING = { threshold: 0.02, ratio: 10, attackMs: 15, releaseMs: 350 } as const;

export type VoiceSource =
  /** the video's own audio is the voice (a render without music) */
  | { kind: "video" }
  /** the voice rebuilt from the scene voiceovers, each starting at its scene's start (a render that has music baked in) */
  | { kind: "clips"; clips: { path: string; startSeconds: number }[] };

export type MixRequest = {
  videoPath: string;
  musicPath: string;
  outputPath: string;
  /** 0 to 100: linear gain of the music in percent */
  volumeLevel: number;
  voice: VoiceSource;
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  /**
   * "video" (the default): the video with its new sound, the picture copied. "sound": the mixed sound alone, as 32-bit
   * float PCM in a WAV (no clipping before the loudness step), for the loudness step to bring to the platform's level
   * and mux with the picture in its one write of the video: the background-music activity's way, which writes a long
   * video once instead of twice.
   */
  output?: "video" | "sound";
};

export type VideoInfo = { durationSeconds: number; hasAudio: boolean; width: number; height: number };
export type ChannelCounts = { video: number; music: number; clips: number[] };

export async function probeVideoInfo(file: string): Promise<VideoInfo> {
  const { stdout } = await run(getEnv().FFPROBE_PATH, ["-v", "error", "-show_entries", "format=duration:stream=codec_type,width,height", "-of", "json", file]);
  const parsed = JSON.parse(stdout) as { format?: { duration?: string }; streams?: { codec_type?: string; width?: number; height?: number }[] };
  const durationSeconds = Number.parseFloat(parsed.format?.duration ?? "");
  const video = parsed.streams?.find((s) => s.codec_type === "video");
  if (!video || !Number.isFinite(durationSeconds) || durationSeconds <= 0) throw new Error(`${file} is not a playable video`);
  return {
    durationSeconds,
    hasAudio: Boolean(parsed.streams?.some((s) => s.codec_type === "audio")),
    width: video.width ?? 0,
    height: video.height ?? 0,
  };
}

const FORMAT = "aformat=sample_fmts=fltp:sample_rates=48000:channel_layouts=stereo";

/** A mono source copied to both channels at full level (ffmpeg's default upmix lowers it by 3 dB), then our format. */
const toStereo = (channels: number) => (channels === 1 ? `pan=stereo|c0=c0|c1=c0,${FORMAT}` : FORMAT);

/** Channels of the first audio stream (0 without one). */
export async function probeAudioChannels(file: string): Promise<number> {
  const { stdout } = await run(getEnv().FFPROBE_PATH, ["-v", "error", "-select_streams", "a:0", "-show_entries", "stream=channels", "-of", "csv=p=0", file]);
  return Number.parseInt(stdout.trim(), 10) || 0;
}

/** The ffmpeg arguments for a mix (exported for the tests that read the filter graph). */
export function mixArguments(request: MixRequest, info: VideoInfo, channels: ChannelCounts): string[] {
  const d = info.durationSeconds;
  const fade = fadeOutSeconds(d);
  const gain = Math.max(0, Math.min(100, request.volumeLevel)) / 100;
  const inputs = ["-i", request.videoPath, "-stream_loop", "-1", "-i", request.musicPath];
  const filters: string[] = [];

  if (request.voice.kind === "clips" && request.voice.clips.length > 0) {
    request.voice.clips.forEach((clip, i) => {
      inputs.push("-i", clip.path);
      const delayMs = Math.max(0, Math.round(clip.startSeconds * 1000));
      filters.push(`[${i + 2}:a]${toStereo(channels.clips[i] ?? 2)},adelay=${delayMs}:all=1[c${i}]`);
    });
    const labels = request.voice.clips.map((_, i) => `[c${i}]`).join("");
    filters.push(`${labels}amix=inputs=${request.voice.clips.length}:duration=longest:normalize=0,apad,atrim=0:${d}[voicebed]`);
  } else if (request.voice.kind === "video" && info.hasAudio) {
    filters.push(`[0:a]${toStereo(channels.video)},apad,atrim=0:${d}[voicebed]`);
  } else {
    filters.push(`anullsrc=r=48000:cl=stereo,atrim=0:${d},${FORMAT}[voicebed]`);
  }
  filters.push(`[voicebed]asplit=2[voice][key]`);
  filters.push(
    `[1:a]${toStereo(channels.music)},atrim=0:${d},asetpts=N/SR/TB,volume=${gain.toFixed(4)},afade=t=in:st=0:d=${Math.min(0.5, d / 4).toFixed(3)},` +
      `afade=t=out:st=${(d - fade).toFixed(3)}:d=${fade.toFixed(3)}[music]`,
  );
  filters.push(
    `[music][key]sidechaincompress=threshold=${DUCKING.threshold}:ratio=${DUCKING.ratio}:attack=${DUCKING.attackMs}:release=${DUCKING.releaseMs}[ducked]`,
  );
  filters.push(`[voice][ducked]amix=inputs=2:duration=first:normalize=0[mixed]`);

  const head = ["-hide_banner", "-nostdin", "-y", "-loglevel", "error", "-progress", "pipe:1", "-nostats", ...inputs, "-filter_complex", filters.join(";")];
  if (request.output === "sound") return [...head, "-map", "[mixed]", "-c:a", "pcm_f32le", "-t", d.toFixed(3), "-f", "wav", request.outputPath];
  return [
    ...head,
    "-map",
    "0:v:0",
    "-map",
    "[mixed]",
    "-c:v",
    "copy",
    // the delivery's sound settings (AAC-LC, 48 kHz, stereo, 384 kbit/s); the loudness step re-encodes it once more
    ...deliveryAudioArgs(),
    "-t",
    d.toFixed(3),
    "-movflags",
    "+faststart",
    request.outputPath,
  ];
}

/** Runs the mix; resolves with the seconds it took. Rejects with ffmpeg's own words when it fails. */
export async function mixMusicIntoVideo(request: MixRequest): Promise<{ seconds: number; info: VideoInfo }> {
  const info = await probeVideoInfo(request.videoPath);
  const channels: ChannelCounts = {
    video: info.hasAudio ? await probeAudioChannels(request.videoPath) : 0,
    music: await probeAudioChannels(request.musicPath),
    clips: request.voice.kind === "clips" ? await Promise.all(request.voice.clips.map((c) => probeAudioChannels(c.path))) : [],
  };
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    const child = spawn(getEnv().FFMPEG_PATH, mixArguments(request, info, channels), { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    let buffered = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) {
        const match = /^out_time_us=(\d+)/.exec(line);
        if (match) request.onProgress?.(Math.min(1, Number(match[1]) / 1e6 / info.durationSeconds));
      }
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-4000);
    });
    const onAbort = () => child.kill("SIGKILL");
    request.signal?.addEventListener("abort", onAbort);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      request.signal?.removeEventListener("abort", onAbort);
      if (code === 0) resolve();
      else if (request.signal?.aborted) reject(new Error("The mix was cancelled"));
      else reject(new Error(`ffmpeg could not mix the music (${signal ?? `exit ${code}`}): ${stderr.trim().split("\n").slice(-3).join(" ")}`));
    });
  });
  request.onProgress?.(1);
  return { seconds: (performance.now() - started) / 1000, info };
}
