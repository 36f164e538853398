// The fast renderer's compiler: a timeline (app/lib/timeline/timeline.ts) becomes ONE ffmpeg run, whose filter graph goes
// through a file (-filter_complex_script) and whose argument list stays the same size whatever the video's length:
// every image, clip and audio file is opened in the graph (movie= / amovie= sources), not as an input.
// - image scenes: drawn frame by frame outside ffmpeg (pan-zoom.ts: the still picture moved along the rectangle given
//   by the very same `visibleRect` the composition uses, sub-pixel, no stepping) and read as ONE raw picture stream
//   (`imageFrames`), cut into the scenes by one segment filter, in the scenes' order (movingImageScenes);
// - clip scenes: the clip scaled to cover the frame and centre-cropped (CSS object-fit: cover), muted, from its
//   start; when shorter than its scene, played again from the start every `clipLoopFrames` frames, as the
//   composition's <Loop> does (one source per pass, so no pass is held in memory); an AI clip ("stretch") is
//   slowed by at most 1.5x to fill its scene, then its last frame held, or trimmed (decision 243);
// - colour scenes: a colour source; scenes are joined with concat;
// - caption lines: transparent PNGs of one common size, rasterised once each by the composition's own caption
//   component (render-fast.ts), played as ONE timed picture stream (an ffconcat list, frame-exact cue times, a
//   transparent blank between cues) and laid over with ONE overlay, however many captions there are;
// - audio: every track trimmed and faded; the voiceovers joined end to end (silence between), other tracks delayed
//   to their first frame, all mixed and padded to the video's length.
// Pure: no I/O, so the exact argument list is testable.
import { clipLoopFrames, clipStretch, tailFrames, type ImageLayer, type Timeline } from "../../app/lib/timeline/timeline";
import { DELIVERY, DELIVERY_CONTAINER_ARGS, deliveryAudioArgs, deliveryVideoArgs } from "./delivery-encoding";

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

/**
 * A file path as a filter option value inside a filter graph: escaped for the option parser (\ ' :) and then
 * for the graph parser (\ ' [ ] , ;), as ffmpeg-filters' "Notes on filtergraph escaping" describe.
 */
export function graphPath(file: string): string {
  const option = file.replace(/[\\':]/g, (c) => `\\${c}`);
  return option.replace(/[\\'[\],;]/g, (c) => `\\${c}`);
}

/** Microseconds from the start to a frame, rounded down: a cue never starts after its frame's timestamp. */
const microsecondsAt = (frame: number, fps: number) => Math.floor((frame * 1_000_000) / fps);

/**
 * The captions as one timed picture stream: an ffconcat list (read with `-f concat -safe 0`) that shows, for each
 * frame of the video, the picture of the caption on it, or `blank` (a transparent picture of the same size) where
 * none is. `pictures[k]` is the file of overlay k, named relative to the list's folder. Each entry lasts the
 * difference of the rounded-down times of its first and next frames, so the list's running sum never drifts: a cue
 * starts within a microsecond before its frame, which `option framerate` (the pictures' time base is one frame)
 * rounds to exactly that frame. The last entry is repeated, as the concat demuxer ignores a last duration.
 */
export function captionConcat(timeline: Timeline, pictures: readonly string[], blank: string): string {
  const { fps } = timeline;
  const quote = (file: string) => `'${file.replace(/'/g, "'\\''")}'`;
  const lines = ["ffconcat version 1.0"];
  let last = blank;
  const entry = (file: string, from: number, to: number) => {
    if (to <= from) return;
    const us = microsecondsAt(to, fps) - microsecondsAt(from, fps);
    lines.push(`file ${quote(file)}`, `option framerate ${fps}`, `duration ${(us / 1_000_000).toFixed(6)}`);
    last = file;
  };
  let frame = 0;
  const order = timeline.overlays.map((overlay, k) => ({ overlay, k })).sort((a, b) => a.overlay.fromFrame - b.overlay.fromFrame);
  for (const { overlay, k } of order) {
    const picture = pictures[k];
    if (picture === undefined) throw new Error(`caption ${k + 1} was not rasterised`);
    entry(blank, frame, overlay.fromFrame);
    const from = Math.max(frame, overlay.fromFrame);
    const to = Math.min(timeline.durationInFrames, overlay.fromFrame + overlay.durationInFrames);
    entry(picture, from, to);
    frame = Math.max(frame, to);
  }
  entry(blank, frame, timeline.durationInFrames);
  lines.push(`file ${quote(last)}`, `option framerate ${fps}`);
  return `${lines.join("\n")}\n`;
}

export type CompiledInputs = {
  /**
   * One stream only, for a chunked render (decision 156): "video" a chunk's picture (no sound), "audio" the whole
   * timeline's sound (give it a timeline without overlays: no caption stream is opened). Both when unset.
   */
  streams?: "video" | "audio";
  /**
   * The sound's encoding: the delivery's AAC (the default), or "pcm", 24-bit PCM at the delivery's rate, which the
   * loudness step measures and encodes once (a chunked render's sound in a .wav, decision 156; a one-piece render in
   * a .mov, decision 192).
   */
  audioFormat?: "delivery" | "pcm";
  /** Local file for each image / audio / clip src of the timeline. */
  fileFor: (src: string) => string;
  /** Where the caller writes the returned filter graph (passed as -filter_complex_script). */
  filterScript: string;
  /** The captions' picture stream (captionConcat, written to a file) and where its pictures go on the frame. */
  captionStream?: { ffconcat: string; x: number; y: number };
  output: string;
  encoding: { crf: number; x264Preset: string; pixelFormat: string; audioBitrate: string; audioSampleRate: number };
  /** The benchmark's plain ffmpeg baseline burns the captions in with drawtext instead of the picture stream. */
  drawtextCaptions?: { fontFile: string; textFile: (overlayIndex: number) => string };
};

/**
 * Where ffmpeg reads the image scenes' moving pictures: its fourth file descriptor, a pipe the renderer fills with
 * movingImageScenes' frames, one after another, raw (render-fast.ts).
 */
export const IMAGE_FRAMES_INPUT = "pipe:3";
/** The moving pictures' pixel format: 8-bit 4:2:0, the delivery's (pan-zoom.ts draws only that). */
export const MOVING_IMAGE_PIXEL_FORMAT = "yuv420p";

/**
 * The image scenes in order, each with its frames. A tail the next scene comes in over (decision 225) is not drawn:
 * its motion is held at its end, so it is the last frame, cloned in the graph (compileTimeline).
 */
export function movingImageScenes(timeline: Timeline): Array<{ index: number; layer: ImageLayer; durationInFrames: number }> {
  return timeline.scenes.flatMap((scene, index) => (scene.layer.kind === "image" ? [{ index, layer: scene.layer, durationInFrames: scene.durationInFrames }] : []));
}

export type CompiledRender = {
  /** ffmpeg's arguments: a few inputs at most, so their size does not grow with the timeline. */
  args: string[];
  /** The filter graph, for the file at `inputs.filterScript`. */
  filterGraph: string;
};

const seconds = (frames: number, fps: number) => num(frames / fps);
/**
 * The mix in AAC's 1024-sample frames: with every source inside the graph (no input), ffmpeg 5.1 starts the graph
 * before the encoder tells its frame size, and the encoder refused the larger frames ("more samples than frame size").
 */
const AAC_FRAMES = "asetnsamples=n=1024:p=0";
/** A sound that is encoded once, later, by the loudness step: 24-bit PCM, the delivery's rate and channels. */
const PCM_AUDIO_ARGS = ["-c:a", "pcm_s24le", "-ar", String(DELIVERY.audioSampleRate), "-ac", String(DELIVERY.audioChannels)];

/** The ffmpeg run that renders the timeline to an MP4 (H.264 + AAC), progress lines on stdout. */
export function compileTimeline(timeline: Timeline, inputs: CompiledInputs): CompiledRender {
  const { width, height, fps } = timeline;
  const args = ["-hide_banner", "-nostdin", "-y", "-v", "error", "-progress", "pipe:1", "-nostats"];
  const filters: string[] = [];
  const movie = (src: string, options = "") => `movie=filename=${graphPath(inputs.fileFor(src))}${options}`;

  const withVideo = inputs.streams !== "audio";
  const withAudio = inputs.streams !== "video";
  let inputCount = 0;

  // ── pictures ──
  // the image scenes' moving pictures: one raw stream, cut at each scene's last frame
  const images = movingImageScenes(timeline);
  const imageStreams: Record<number, string> = {};
  const imageInput = inputCount;
  if (images.length === 1) imageStreams[images[0]!.index] = `[${imageInput}:v]`;
  else if (images.length > 1) {
    let end = 0;
    const cuts = images.slice(0, -1).map((image) => (end += image.durationInFrames));
    images.forEach((image, k) => (imageStreams[image.index] = `[m${k}]`));
    filters.push(`[${imageInput}:v]segment=frames=${cuts.join("|")}${images.map((_, k) => `[m${k}]`).join("")}`);
  }
  // (a sound-only run drops the picture filters, and opens no picture stream)
  if (withVideo && images.length > 0) {
    inputCount++;
    args.push("-f", "rawvideo", "-pix_fmt", MOVING_IMAGE_PIXEL_FORMAT, "-s", `${width}x${height}`, "-framerate", String(fps), "-i", IMAGE_FRAMES_INPUT);
  }
  const sceneLabels: string[] = [];
  // a scene the next one comes in over (decision 225) lasts that many frames longer: a clip plays on, a colour stays,
  // an image's motion is held at its end (its last frame cloned, below)
  const transitions = timeline.scenes.some((scene) => scene.transitionIn);
  for (const [i, scene] of timeline.scenes.entries()) {
    const label = `s${i}`;
    const frames = scene.durationInFrames + tailFrames(timeline, i);
    const layer = scene.layer;
    if (layer.kind === "image") {
      filters.push(`${imageStreams[i]}setparams=colorspace=bt709:range=tv,setsar=1,setpts=N/(${fps}*TB)[${label}]`);
    } else if (layer.kind === "clip" && layer.durationInSeconds) {
      const loopFrames = clipLoopFrames(layer.durationInSeconds, fps);
      const stretch = layer.fit === "stretch" ? clipStretch(loopFrames, scene.durationInFrames) : null;
      // a stretched (AI) clip plays once, slowed; a looped one as many passes as fill the scene
      const passes = stretch ? 1 : Math.ceil(frames / loopFrames);
      const cover = `scale=${width}:${height}:force_original_aspect_ratio=increase:flags=bicubic:out_color_matrix=bt709:out_range=tv,crop=${width}:${height},format=${inputs.encoding.pixelFormat},setsar=1`;
      const passLabels: string[] = [];
      for (let pass = 0; pass < passes; pass++) {
        // the clip's video stream only (muted); read as BT.709 as the browser reads it (app/server/scene-media.server.ts)
        // slowed (decision 243): clip frame n put at frame floor(n·num/den) of the frame clock, the gaps filled by
        // fps with the frame before (stretchedClipFrame in the timeline is the same rule)
        const slow = stretch && stretch.num !== stretch.den ? `,settb=1/${fps},setpts=floor(N*${stretch.num}/${stretch.den}),fps=${fps}` : "";
        filters.push(`${movie(layer.src, ":streams=dv")},setparams=colorspace=bt709:range=tv,fps=${fps},${cover},trim=end_frame=${loopFrames},setpts=PTS-STARTPTS${slow}[${label}p${pass}]`);
        passLabels.push(`[${label}p${pass}]`);
      }
      // a clip a frame shorter than its stated length still fills its scene: the last frame is held
      const joined = passes > 1 ? `${passLabels.join("")}concat=n=${passes}:v=1:a=0,` : `${passLabels[0]}`;
      filters.push(`${joined}tpad=stop_mode=clone:stop=${frames},trim=end_frame=${frames},setpts=N/(${fps}*TB)[${label}]`);
    } else if (layer.kind === "color") {
      filters.push(`color=c=${layer.color}:s=${width}x${height}:r=${fps}:d=${seconds(frames, fps)},format=${inputs.encoding.pixelFormat},trim=end_frame=${frames}[${label}]`);
    } else {
      // a brand card is rasterised to a still picture before compiling (render-fast.ts)
      throw new Error(`The fast renderer cannot draw scene ${scene.index + 1} (a ${layer.kind})`);
    }
    sceneLabels.push(`[${label}]`);
  }
  if (!transitions) {
    filters.push(`${sceneLabels.join("")}concat=n=${sceneLabels.length}:v=1:a=0,settb=1/${fps},setpts=N[base]`);
  } else {
    // only the transitions' frames go through xfade (issue 50): xfade draws in 4:4:4, so a chain of xfades over
    // whole streams converted every frame of the video 4:2:0 -> 4:4:4 -> 4:2:0 once per later joint. Each scene is cut
    // into its head (the frames a transition brings it in over), its body, and its tail (the extra frames the next
    // scene comes in over, decision 225); each head is xfaded with the previous tail alone (offset 0, on the frame
    // clock, as xfade requires), and the bodies and the transitions are concatenated in order: the same frames as
    // xfading the whole streams at the scene's first frame, the rest of the video left in its pixel format
    const pix = inputs.encoding.pixelFormat;
    const clock = `settb=1/${fps},setpts=N`;
    const tails: string[] = [];
    const segments: string[] = [];
    for (const [i, scene] of timeline.scenes.entries()) {
      const inFrames = i > 0 && scene.transitionIn ? scene.transitionIn.durationInFrames : 0;
      const outFrames = tailFrames(timeline, i);
      const parts: Array<{ name: string; from: number; to: number }> = [];
      if (inFrames > 0) parts.push({ name: `h${i}`, from: 0, to: inFrames });
      parts.push({ name: `b${i}`, from: inFrames, to: scene.durationInFrames });
      if (outFrames > 0) parts.push({ name: `t${i}`, from: scene.durationInFrames, to: scene.durationInFrames + outFrames });
      const branches = parts.length > 1 ? `split=${parts.length}${parts.map((part) => `[${part.name}in]`).join("")}` : "";
      if (branches) filters.push(`${sceneLabels[i]}${branches}`);
      for (const part of parts) {
        const source = branches ? `[${part.name}in]` : sceneLabels[i];
        if (part.name.startsWith("t") && scene.layer.kind === "image") {
          // An image's tail is its last frame held (its motion ends there), cloned here as xfade asks for each one.
          // Carried in the raw stream, the tail came before the next scene's head, so all of it waited at xfade's
          // first input, turned to 4:4:4: about 100 MB a transition at 1080p that ffmpeg's frame pool kept to the
          // end of the run. One clone more than the tail, cut off, ends this input only once xfade has taken the
          // whole tail (xfade, ffmpeg 5.1, ends a transition as soon as its first input has ended upstream, even
          // with frames still queued: the crossfade showed the new scene alone).
          const tail = part.to - part.from;
          const last = scene.durationInFrames - 1;
          filters.push(`${source}trim=start_frame=${last}:end_frame=${last + 1},tpad=stop_mode=clone:stop=${tail},${clock},format=${pix},trim=end_frame=${tail}[${part.name}]`);
        } else filters.push(`${source}trim=start_frame=${part.from}:end_frame=${part.to},${clock},format=${pix}[${part.name}]`);
      }
      const t = scene.transitionIn;
      if (inFrames > 0 && t) {
        const kind = t.kind === "fade" ? "fade" : t.kind === "slide" ? "slideleft" : "zoomin";
        filters.push(`[${tails[i - 1]}][h${i}]xfade=transition=${kind}:duration=${seconds(t.durationInFrames, fps)}:offset=0,format=${pix}[x${i}]`);
        segments.push(`[x${i}]`);
      }
      segments.push(`[b${i}]`);
      if (outFrames > 0) tails[i] = `t${i}`;
    }
    filters.push(`${segments.join("")}concat=n=${segments.length}:v=1:a=0,${clock}[base]`);
  }

  // ── captions ──
  let video = "[base]";
  if (inputs.drawtextCaptions) {
    timeline.overlays.forEach((overlay, k) => {
      const from = overlay.fromFrame;
      const to = overlay.fromFrame + overlay.durationInFrames - 1;
      const fontSize = Math.round(Math.min(width, height) * 0.05);
      filters.push(
        `${video}drawtext=fontfile=${graphPath(inputs.drawtextCaptions!.fontFile)}:textfile=${graphPath(inputs.drawtextCaptions!.textFile(k))}:expansion=none:fontsize=${fontSize}:fontcolor=white:box=1:boxcolor=black@0.6:boxborderw=${Math.round(fontSize * 0.3)}:x=(w-text_w)/2:y=h-${Math.round(height * 0.08)}-text_h-${Math.round(fontSize * 0.3)}:enable='between(n,${from},${to})'[o${k}]`,
      );
      video = `[o${k}]`;
    });
  } else if (timeline.overlays.length > 0) {
    const stream = inputs.captionStream;
    if (!stream) throw new Error(`the timeline has ${timeline.overlays.length} captions but no caption stream`);
    const input = inputCount++;
    args.push("-f", "concat", "-safe", "0", "-i", stream.ffconcat);
    // the pictures turned to YUV with the video's matrix (not the overlay's implicit BT.601), kept on their frames
    filters.push(`[${input}:v]settb=1/${fps},scale=out_color_matrix=bt709:out_range=tv,format=yuva420p[captions]`);
    filters.push(`${video}[captions]overlay=x=${stream.x}:y=${stream.y}:eof_action=repeat:format=yuv420[captioned]`);
    video = "[captioned]";
  }
  // ── the channel's watermark ── (a picture already sized and faded: laid over as it is, while the scenes play)
  const mark = timeline.watermark;
  if (mark && mark.durationInFrames > 0) {
    filters.push(`${movie(mark.src)},scale=out_color_matrix=bt709:out_range=tv,format=yuva420p[mark]`);
    filters.push(`${video}[mark]overlay=x=${mark.x}:y=${mark.y}:eof_action=repeat:format=yuv420:enable='between(n,${mark.fromFrame},${mark.fromFrame + mark.durationInFrames - 1})'[marked]`);
    video = "[marked]";
  }
  // the frame count is cut in the graph, not by -frames:v: ffmpeg 5 closes the whole file when one stream reaches
  // its -frames, which dropped the audio encoder's last packets (the video ended 35 ms before its sound)
  filters.push(`${video}trim=end_frame=${timeline.durationInFrames}[vout]`);
  video = "[vout]";
  const pictureFilters = filters.length;

  // ── audio ── (cut to the video's exact sample count here; both streams end on their own)
  // Tracks that follow one another (the voiceovers) are joined end to end by one concat, each padded to the sample
  // where the next begins, so the mix adds a few streams, not one per scene for the whole video's length.
  const rate = inputs.encoding.audioSampleRate;
  const sampleAt = (frame: number) => Math.round((frame / fps) * rate);
  const totalSamples = sampleAt(timeline.durationInFrames);
  const audible = timeline.audio.map((track, k) => ({ track, k })).filter(({ track }) => track.volume > 0);
  const inSequence = new Set<number>();
  let sequenceEnd = 0;
  for (const { track, k } of [...audible].sort((a, b) => a.track.fromFrame - b.track.fromFrame)) {
    if (!track.loop && track.fromFrame >= sequenceEnd) {
      inSequence.add(k);
      sequenceEnd = track.fromFrame + track.durationInFrames;
    }
  }
  const silence = (samples: number, label: string) =>
    filters.push(`anullsrc=r=${rate}:cl=stereo,aformat=sample_fmts=fltp:sample_rates=${rate}:channel_layouts=stereo,atrim=end_sample=${samples}[${label}]`);
  const audioLabels: string[] = [];
  const segments: string[] = [];
  let sequenceSample = 0;
  for (const { track, k } of audible) {
    const source = `a${movie(track.src, track.loop ? ":loop=0" : "")}`;
    const chain = [
      `aformat=sample_fmts=fltp:sample_rates=${rate}:channel_layouts=stereo`,
      `atrim=end=${num(track.durationInFrames / fps)}`,
      "asetpts=PTS-STARTPTS",
      `volume=${num(track.volume)}`,
    ];
    if (track.fadeInFrames > 0) chain.push(`afade=t=in:st=0:d=${seconds(track.fadeInFrames, fps)}`);
    if (track.fadeOutFrames > 0) chain.push(`afade=t=out:st=${num((track.durationInFrames - track.fadeOutFrames) / fps)}:d=${seconds(track.fadeOutFrames, fps)}`);
    if (inSequence.has(k)) {
      const first = sampleAt(track.fromFrame);
      if (first > sequenceSample) {
        silence(first - sequenceSample, `g${k}`);
        segments.push(`[g${k}]`);
      }
      const samples = sampleAt(track.fromFrame + track.durationInFrames) - first;
      chain.push(`apad=whole_len=${samples}`, `atrim=end_sample=${samples}`);
      sequenceSample = first + samples;
      filters.push(`${source},${chain.join(",")}[a${k}]`);
      segments.push(`[a${k}]`);
    } else {
      if (track.fromFrame > 0) chain.push(`adelay=delays=${num((track.fromFrame / fps) * 1000)}:all=1`);
      filters.push(`${source},${chain.join(",")}[a${k}]`);
      audioLabels.push(`[a${k}]`);
    }
  }
  if (segments.length === 1) audioLabels.unshift(segments[0]!);
  else if (segments.length > 1) {
    filters.push(`${segments.join("")}concat=n=${segments.length}:v=0:a=1[voice]`);
    audioLabels.unshift("[voice]");
  }
  if (audioLabels.length === 0) {
    filters.push(`anullsrc=r=${rate}:cl=stereo,atrim=end_sample=${totalSamples},${AAC_FRAMES}[aout]`);
  } else {
    const mixed = audioLabels.length === 1 ? `${audioLabels[0]}anull` : `${audioLabels.join("")}amix=inputs=${audioLabels.length}:normalize=0:duration=longest:dropout_transition=0`;
    filters.push(`${mixed},apad=whole_len=${totalSamples},atrim=end_sample=${totalSamples},${AAC_FRAMES}[aout]`);
  }

  args.push(
    "-filter_complex_script",
    inputs.filterScript,
    ...(withVideo ? ["-map", video] : []),
    ...(withAudio ? ["-map", "[aout]"] : []),
    ...(withVideo ? ["-r", String(fps)] : []),
    // the platform's recommended upload settings (delivery-encoding.ts, decision 175)
    ...(withVideo ? deliveryVideoArgs({ width, height, fps }) : []),
    ...(withAudio ? (inputs.audioFormat === "pcm" ? PCM_AUDIO_ARGS : deliveryAudioArgs()) : []),
    // an MP4 for delivery starts with its index; a file with PCM sound (a .wav or a .mov) is an intermediate
    ...(inputs.audioFormat === "pcm" ? [] : DELIVERY_CONTAINER_ARGS),
    inputs.output,
  );
  const graph = withVideo && withAudio ? filters : withVideo ? filters.slice(0, pictureFilters) : filters.slice(pictureFilters);
  return { args, filterGraph: graph.join(";\n") };
}
