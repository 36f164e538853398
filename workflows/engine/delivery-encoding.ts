// The delivered MP4's encoding, as YouTube's "Recommended upload encoding settings" ask
// (https://support.google.com/youtube/answer/1722171, decision 175): H.264 High profile, progressive, closed GOP of
// half the frame rate with two consecutive B-frames, 4:2:0 (yuv420p, BT.709), MP4 with the moov atom at the front
// (+faststart), AAC-LC at 48 kHz in stereo, and the video bitrate held under the recommended figure for the
// resolution and frame rate. Every encoder of the delivered video uses these: the fast renderer (one ffmpeg run),
// the exact renderer (Remotion's stitcher, through remotionDeliveryOptions), a chunked render's chunks, and the
// audio passes that follow them (loudness, music mix), which copy the picture and re-encode only the sound.

export type Frame = { width: number; height: number; fps: number };

/** Constant quality, capped at the platform's recommended bitrate: quality where it is cheap, never over the cap. */
export const DELIVERY = {
  crf: 18,
  x264Preset: "veryfast",
  profile: "high",
  pixelFormat: "yuv420p",
  bFrames: 2,
  audioCodec: "aac",
  audioProfile: "aac_low",
  /** YouTube: stereo 384 kbps */
  audioBitrate: "384k",
  audioSampleRate: 48_000,
  audioChannels: 2,
} as const;

/**
 * YouTube's recommended video bitrates for SDR uploads, in kbit/s, by the frame's shorter side (a vertical
 * 1080x1920 Short is "1080p"): standard frame rates (24, 25, 30) and high ones (48, 50, 60). Where the table gives
 * a range (2160p) both ends are kept; elsewhere it gives one figure, which is the top of the range here.
 */
export const RECOMMENDED_BITRATES = [
  { rows: 2160, standard: [35_000, 45_000], high: [53_000, 68_000] },
  { rows: 1440, standard: [16_000, 16_000], high: [24_000, 24_000] },
  { rows: 1080, standard: [8_000, 8_000], high: [12_000, 12_000] },
  { rows: 720, standard: [5_000, 5_000], high: [7_500, 7_500] },
  { rows: 480, standard: [2_500, 2_500], high: [4_000, 4_000] },
  { rows: 360, standard: [1_000, 1_000], high: [1_500, 1_500] },
] as const;

export type BitrateRange = { row: number; recommendedKbps: number; maxKbps: number; bufferKbits: number };

/**
 * The recommended bitrate for a frame: the table's row at or above the frame's shorter side (smaller frames use the
 * 360p row). maxKbps is the cap the encoder holds to (the top of YouTube's range); the VBV buffer is two seconds of it.
 */
export function recommendedBitrate({ width, height, fps }: Frame): BitrateRange {
  const rows = Math.min(width, height);
  const row = [...RECOMMENDED_BITRATES].reverse().find((r) => r.rows >= rows) ?? RECOMMENDED_BITRATES[0];
  const [low, high] = fps > 30 ? row.high : row.standard;
  return { row: row.rows, recommendedKbps: low, maxKbps: high, bufferKbits: high * 2 };
}

/** YouTube: "Closed GOP. GOP of half the frame rate." At least one frame. */
export const gopFrames = (fps: number) => Math.max(1, Math.round(fps / 2));

/** ffmpeg's output options for the picture (libx264), for a frame of this size and rate. */
export function deliveryVideoArgs(frame: Frame): string[] {
  const rate = recommendedBitrate(frame);
  return [
    "-c:v",
    "libx264",
    "-profile:v",
    DELIVERY.profile,
    "-preset",
    DELIVERY.x264Preset,
    "-crf",
    String(DELIVERY.crf),
    "-maxrate",
    `${rate.maxKbps}k`,
    "-bufsize",
    `${rate.bufferKbits}k`,
    "-g",
    String(gopFrames(frame.fps)),
    "-bf",
    String(DELIVERY.bFrames),
    // closed GOP: no frame refers across a keyframe (x264's default, said out loud)
    "-flags",
    "+cgop",
    "-x264-params",
    "open-gop=0",
    "-pix_fmt",
    DELIVERY.pixelFormat,
    "-colorspace",
    "bt709",
    "-color_primaries",
    "bt709",
    "-color_trc",
    "bt709",
    "-color_range",
    "tv",
  ];
}

/** ffmpeg's output options for the sound: AAC-LC, 48 kHz, stereo, 384 kbit/s. */
export function deliveryAudioArgs(): string[] {
  return [
    "-c:a",
    DELIVERY.audioCodec,
    "-profile:a",
    DELIVERY.audioProfile,
    // the fast coder: a third of the default (twoloop) coder's time; at this bitrate the difference is not heard
    "-aac_coder",
    "fast",
    "-b:a",
    DELIVERY.audioBitrate,
    "-ar",
    String(DELIVERY.audioSampleRate),
    "-ac",
    String(DELIVERY.audioChannels),
  ];
}

/** The container: MP4 with its index at the front, so playback and YouTube's processing can start at once. */
export const DELIVERY_CONTAINER_ARGS = ["-movflags", "+faststart"] as const;

/**
 * The same settings for Remotion's renderMedia (the exact renderer): crf, preset, pixel format and the bitrate cap
 * through its own options, the profile, B-frames and closed GOP appended to its stitcher's ffmpeg arguments.
 */
export function remotionDeliveryOptions(frame: Frame) {
  const rate = recommendedBitrate(frame);
  return {
    codec: "h264",
    audioCodec: "aac",
    crf: DELIVERY.crf,
    x264Preset: DELIVERY.x264Preset,
    pixelFormat: DELIVERY.pixelFormat,
    colorSpace: "bt709",
    audioBitrate: DELIVERY.audioBitrate,
    sampleRate: DELIVERY.audioSampleRate,
    encodingMaxRate: `${rate.maxKbps}k`,
    encodingBufferSize: `${rate.bufferKbits}k`,
    gopSize: gopFrames(frame.fps),
    ffmpegOverride: ({ type, args }: { type: "pre-stitcher" | "stitcher"; args: string[] }) => {
      if (!args.includes("libx264")) return args;
      const output = args.at(-1)!;
      void type;
      return [...args.slice(0, -1), "-profile:v", DELIVERY.profile, "-bf", String(DELIVERY.bFrames), "-flags", "+cgop", "-x264-params", "open-gop=0", output];
    },
  } as const;
}
