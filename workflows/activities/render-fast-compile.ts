// The fast renderer's compiler: a timeline (remotion/timeline.ts) becomes the arguments of ONE ffmpeg run.
// - each image scene: the frame-sized image decoded once, repeated in memory, moved by the perspective filter
//   (bilinear, evaluated every frame) along the rectangle given by the very same `visibleRect` the composition
//   uses, instantiated here over ffmpeg expressions instead of numbers: sub-pixel, no stepping;
// - clip scenes: the clip scaled to cover the frame and centre-cropped (CSS object-fit: cover), muted, from its
//   start; when shorter than its scene, played again from the start every `clipLoopFrames` frames, as the
//   composition's <Loop> does (one input per pass, so no pass is held in memory);
// - colour scenes: a colour source; scenes are joined with concat;
// - caption lines: transparent PNGs rasterised once each by the composition's own caption component (Remotion
//   renderStill, see render-fast.ts), laid over for exactly their frames (`enable` on the frame number);
// - audio: every track trimmed, faded, delayed to its first frame and mixed, padded to the video's length.
// Pure: no I/O, so the exact argument list is testable.
import { clipLoopFrames, sceneProgress, visibleRect, type Arithmetic, type Timeline } from "../../remotion/timeline";

export type FastSupport = { supported: true } | { supported: false; reason: string };

/** Whether the fast renderer draws everything in the timeline; when not, which part it cannot draw. */
export function fastRendererSupport(timeline: Timeline): FastSupport {
  for (const scene of timeline.scenes) {
    if (scene.layer.kind === "clip" && !scene.layer.durationInSeconds) {
      return { supported: false, reason: `scene ${scene.index + 1} is a video clip of unknown length, which only the exact renderer draws` };
    }
  }
  for (const overlay of timeline.overlays) {
    if (overlay.kind !== "caption") return { supported: false, reason: `an overlay of kind "${(overlay as { kind: string }).kind}" is drawn only by the exact renderer` };
  }
  for (const track of timeline.audio) {
    if (track.loop && track.durationInFrames <= 0) return { supported: false, reason: "a looping track with no length" };
  }
  return { supported: true };
}

const num = (n: number) => {
  // ffmpeg's evaluator reads plain decimals; never exponent notation for tiny numbers
  const text = Math.abs(n) < 1e-9 ? "0" : Number(n.toPrecision(12)).toString();
  return text.includes("e") ? n.toFixed(12) : n < 0 ? `(${text})` : text;
};

/** The motion formula's operations as ffmpeg expression text (evaluated by libavutil/eval per frame). */
export const ffmpegArithmetic: Arithmetic<string> = {
  lit: num,
  add: (a, b) => `(${a}+${b})`,
  sub: (a, b) => `(${a}-${b})`,
  mul: (a, b) => `(${a}*${b})`,
  div: (a, b) => `(${a}/${b})`,
  clamp01: (a) => `clip(${a},0,1)`,
};

/**
 * The perspective filter's corners for a moving image: the source points sent to the four corners of the frame.
 * perspective samples the source at (destination pixel index) mapped linearly, while a browser samples at pixel
 * centres; shifting by half a destination pixel (0.5 / scale) minus half a source pixel lines the two up.
 */
export function perspectiveCorners(move: Parameters<typeof visibleRect>[1], durationInFrames: number, width: number, height: number) {
  const m = ffmpegArithmetic;
  const rect = visibleRect(m, move, sceneProgress(m, "in", durationInFrames), width, height);
  const x0 = m.sub(m.add(rect.left, m.mul(rect.width, m.lit(0.5 / width))), m.lit(0.5));
  const y0 = m.sub(m.add(rect.top, m.mul(rect.height, m.lit(0.5 / height))), m.lit(0.5));
  const x1 = m.add(x0, rect.width);
  const y2 = m.add(y0, rect.height);
  return { x0, y0, x1, y1: y0, x2: x0, y2, x3: x1, y3: y2 };
}

export type CompiledInputs = {
  /** Local file for each image / audio src of the timeline. */
  fileFor: (src: string) => string;
  /** One rasterised caption per overlay, in timeline order: a PNG cropped to the caption box, and where it goes. */
  captions: { png: string; x: number; y: number }[];
  output: string;
  encoding: { crf: number; x264Preset: string; pixelFormat: string; audioBitrate: string; audioSampleRate: number };
  /** The benchmark's plain ffmpeg baseline burns the captions in with drawtext instead of PNG overlays. */
  drawtextCaptions?: { fontFile: string; textFile: (overlayIndex: number) => string };
};

const seconds = (frames: number, fps: number) => num(frames / fps);

/** The ffmpeg arguments that render the timeline to an MP4 (H.264 + AAC), progress lines on stdout. */
export function compileTimeline(timeline: Timeline, inputs: CompiledInputs): string[] {
  const { width, height, fps } = timeline;
  const args = ["-hide_banner", "-nostdin", "-y", "-v", "error", "-progress", "pipe:1", "-nostats"];
  const filters: string[] = [];
  let inputIndex = 0;
  const addInput = (...inputArgs: string[]) => {
    args.push(...inputArgs);
    return inputIndex++;
  };
  const toYuv = `scale=${width}:${height}:flags=bicubic:out_color_matrix=bt709:out_range=tv,format=${inputs.encoding.pixelFormat},setsar=1`;

  // ── pictures ──
  const sceneLabels: string[] = [];
  for (const scene of timeline.scenes) {
    const label = `s${scene.index}`;
    const frames = scene.durationInFrames;
    const layer = scene.layer;
    if (layer.kind === "image") {
      const i = addInput("-framerate", String(fps), "-i", inputs.fileFor(layer.src));
      const c = perspectiveCorners(layer.move, frames, width, height);
      const corners = Object.entries(c)
        .map(([k, v]) => `${k}='${v}'`)
        .join(":");
      filters.push(
        `[${i}:v]${toYuv},loop=loop=${frames - 1}:size=1:start=0,setpts=N/(${fps}*TB),perspective=${corners}:interpolation=linear:sense=source:eval=frame[${label}]`,
      );
    } else if (layer.kind === "clip" && layer.durationInSeconds) {
      const loopFrames = clipLoopFrames(layer.durationInSeconds, fps);
      const passes = Math.ceil(frames / loopFrames);
      const cover = `scale=${width}:${height}:force_original_aspect_ratio=increase:flags=bicubic:out_color_matrix=bt709:out_range=tv,crop=${width}:${height},format=${inputs.encoding.pixelFormat},setsar=1`;
      const passLabels: string[] = [];
      for (let pass = 0; pass < passes; pass++) {
        const i = addInput("-an", "-i", inputs.fileFor(layer.src));
        // read as BT.709 as the browser reads it (clips are stored so: app/server/scene-media.server.ts)
        filters.push(`[${i}:v]setparams=colorspace=bt709:range=tv,fps=${fps},${cover},trim=end_frame=${loopFrames},setpts=PTS-STARTPTS[${label}p${pass}]`);
        passLabels.push(`[${label}p${pass}]`);
      }
      // a clip a frame shorter than its stated length still fills its scene: the last frame is held
      const joined = passes > 1 ? `${passLabels.join("")}concat=n=${passes}:v=1:a=0,` : `${passLabels[0]}`;
      filters.push(`${joined}tpad=stop_mode=clone:stop=${frames},trim=end_frame=${frames},setpts=N/(${fps}*TB)[${label}]`);
    } else if (layer.kind === "color") {
      filters.push(`color=c=${layer.color}:s=${width}x${height}:r=${fps}:d=${seconds(frames, fps)},format=${inputs.encoding.pixelFormat},trim=end_frame=${frames}[${label}]`);
    } else {
      throw new Error(`The fast renderer cannot draw scene ${scene.index + 1} (a ${layer.kind})`);
    }
    sceneLabels.push(`[${label}]`);
  }
  filters.push(`${sceneLabels.join("")}concat=n=${sceneLabels.length}:v=1:a=0,settb=1/${fps},setpts=N[base]`);

  // ── overlays ──
  let video = "[base]";
  timeline.overlays.forEach((overlay, k) => {
    const from = overlay.fromFrame;
    const to = overlay.fromFrame + overlay.durationInFrames - 1;
    const next = `[o${k}]`;
    if (inputs.drawtextCaptions) {
      const fontSize = Math.round(Math.min(width, height) * 0.05);
      filters.push(
        `${video}drawtext=fontfile=${inputs.drawtextCaptions.fontFile}:textfile='${inputs.drawtextCaptions.textFile(k)}':expansion=none:fontsize=${fontSize}:fontcolor=white:box=1:boxcolor=black@0.6:boxborderw=${Math.round(fontSize * 0.3)}:x=(w-text_w)/2:y=h-${Math.round(height * 0.08)}-text_h-${Math.round(fontSize * 0.3)}:enable='between(n,${from},${to})'${next}`,
      );
    } else {
      const caption = inputs.captions[k];
      if (!caption) throw new Error(`caption ${k + 1} was not rasterised`);
      const i = addInput("-i", caption.png);
      filters.push(`${video}[${i}:v]overlay=x=${caption.x}:y=${caption.y}:eof_action=repeat:format=yuv420:enable='between(n,${from},${to})'${next}`);
    }
    video = next;
  });
  // the frame count is cut in the graph, not by -frames:v: ffmpeg 5 closes the whole file when one stream reaches
  // its -frames, which dropped the audio encoder's last packets (the video ended 35 ms before its sound)
  filters.push(`${video}trim=end_frame=${timeline.durationInFrames}[vout]`);
  video = "[vout]";

  // ── audio ── (cut to the video's exact sample count here; both streams end on their own)
  const totalSamples = Math.round((timeline.durationInFrames / fps) * inputs.encoding.audioSampleRate);
  const audioLabels: string[] = [];
  timeline.audio.forEach((track, k) => {
    if (track.volume <= 0) return;
    const i = track.loop ? addInput("-stream_loop", "-1", "-i", inputs.fileFor(track.src)) : addInput("-i", inputs.fileFor(track.src));
    const length = track.durationInFrames / fps;
    const chain = [
      `aformat=sample_fmts=fltp:sample_rates=${inputs.encoding.audioSampleRate}:channel_layouts=stereo`,
      `atrim=end=${num(length)}`,
      "asetpts=PTS-STARTPTS",
      `volume=${num(track.volume)}`,
    ];
    if (track.fadeInFrames > 0) chain.push(`afade=t=in:st=0:d=${seconds(track.fadeInFrames, fps)}`);
    if (track.fadeOutFrames > 0) chain.push(`afade=t=out:st=${num((track.durationInFrames - track.fadeOutFrames) / fps)}:d=${seconds(track.fadeOutFrames, fps)}`);
    if (track.fromFrame > 0) chain.push(`adelay=delays=${num((track.fromFrame / fps) * 1000)}:all=1`);
    filters.push(`[${i}:a]${chain.join(",")}[a${k}]`);
    audioLabels.push(`[a${k}]`);
  });
  if (audioLabels.length === 0) {
    filters.push(`anullsrc=r=${inputs.encoding.audioSampleRate}:cl=stereo,atrim=end_sample=${totalSamples}[aout]`);
  } else {
    const mixed = audioLabels.length === 1 ? `${audioLabels[0]}anull` : `${audioLabels.join("")}amix=inputs=${audioLabels.length}:normalize=0:duration=longest:dropout_transition=0`;
    filters.push(`${mixed},apad=whole_len=${totalSamples},atrim=end_sample=${totalSamples}[aout]`);
  }

  args.push(
    "-filter_complex",
    filters.join(";"),
    "-map",
    video,
    "-map",
    "[aout]",
    "-r",
    String(fps),
    "-c:v",
    "libx264",
    "-preset",
    inputs.encoding.x264Preset,
    "-crf",
    String(inputs.encoding.crf),
    "-pix_fmt",
    inputs.encoding.pixelFormat,
    "-colorspace",
    "bt709",
    "-color_primaries",
    "bt709",
    "-color_trc",
    "bt709",
    "-color_range",
    "tv",
    "-c:a",
    "aac",
    "-b:a",
    inputs.encoding.audioBitrate,
    "-ar",
    String(inputs.encoding.audioSampleRate),
    "-movflags",
    "+faststart",
    inputs.output,
  );
  return args;
}
