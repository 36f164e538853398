// The video as one timeline: scenes (each a background colour, a still image with its pan and zoom, or a clip),
// overlay cues (caption lines with their first frame and length) and audio tracks (voiceovers, music, with
// volumes and fades). Computed from the composition's props by one pure function, and drawn by both renderers:
// the Remotion composition (Player preview, Studio, the exact render) and the fast renderer, which compiles the
// same timeline into one ffmpeg run. The motion is written once, over an `Arithmetic`, so the composition
// evaluates it with numbers and the fast renderer turns the very same formula into an ffmpeg expression.
// Pure: no React, no Node.
import { captionCuesFor, DEFAULT_CAPTION_STYLE, safeZoneFor, type CaptionStyle } from "./captions";
import type { StoryboardVideoProps } from "./video-props";
import { sceneDurationInFrames } from "./timing";
import { wordTimingsFor } from "./word-timings";

/** A slow pan and zoom: the image's scale and its offset (% of the frame) at the first and last frame. */
export type Move = {
  scale: readonly [number, number];
  x: readonly [number, number];
  y: readonly [number, number];
};

// Alternating moves keep consecutive scenes from feeling identical.
export const MOVES: readonly Move[] = [
  { scale: [1, 1.12], x: [0, -2], y: [0, -1] },
  { scale: [1.12, 1], x: [2, 0], y: [1, 0] },
  { scale: [1, 1.1], x: [0, 2], y: [0, 1.5] },
  { scale: [1.1, 1.02], x: [-2, 0], y: [1, -1] },
];

export type ColorLayer = { kind: "color"; color: string };
/** A still image, scaled to cover the frame, moving by `move` over the scene. */
export type ImageLayer = { kind: "image"; src: string; move: Move };
/**
 * A video clip, scaled to cover the frame, from its start, muted. Shorter than its scene, it is looped (a creator's
 * or a stock clip), or with `fit` "stretch" (an AI clip, decision 243) slowed to fill the scene, by at most
 * MAX_CLIP_STRETCH, then its last frame held; longer, it is trimmed.
 */
export type ClipLayer = { kind: "clip"; src: string; durationInSeconds?: number; fit?: "loop" | "stretch" };

/** The most an AI clip is slowed to fill its scene (1.5: two thirds of its speed), as a fraction. */
export const MAX_CLIP_STRETCH = { num: 3, den: 2 } as const;

/**
 * How much a clip of `clipFrames` usable frames is slowed to fill a scene of `sceneFrames`: the fraction num/den
 * (1/1 when the clip is long enough, at most MAX_CLIP_STRETCH). Whole numbers, so both renderers compute the same frames.
 */
export function clipStretch(clipFrames: number, sceneFrames: number): { num: number; den: number } {
  if (sceneFrames <= clipFrames) return { num: 1, den: 1 };
  if (sceneFrames * MAX_CLIP_STRETCH.den > clipFrames * MAX_CLIP_STRETCH.num) return { ...MAX_CLIP_STRETCH };
  return { num: sceneFrames, den: clipFrames };
}

/**
 * The clip frame (at the video's frame rate) shown at frame k of a stretched clip's scene: clip frame n is put at
 * frame floor(n·num/den) and held until the next one comes (ffmpeg's setpts then fps, as the fast renderer does),
 * so k shows the last n with floor(n·num/den) <= k; after the clip's last frame, that frame is held.
 */
export function stretchedClipFrame(k: number, clipFrames: number, stretch: { num: number; den: number }): number {
  const n = Math.ceil(((k + 1) * stretch.den) / stretch.num) - 1;
  return Math.max(0, Math.min(n, clipFrames - 1));
}

/** How many frames of a clip play before it starts again: a frame short of its end, so a loop never lands past it. */
export function clipLoopFrames(durationInSeconds: number, fps: number): number {
  return Math.max(1, Math.floor(durationInSeconds * fps) - 1);
}
/**
 * A brand card (issue 52, decision 249): the channel's colour, its logo and a line of text, still. Drawn by the
 * composition's BrandCard; the fast renderer has the same component rasterise it once and shows that picture.
 */
export type CardLayer = { kind: "card"; color: string; textColor: string; text: string; logoSrc?: string };
export type SceneLayer = ColorLayer | ImageLayer | ClipLayer | CardLayer;

/**
 * How a scene comes in (decision 225): during its first `durationInFrames` frames it is drawn over the scene before,
 * which goes on (its motion held at its end, a clip playing on) for those frames. The video's length and every
 * scene's start are the same as with hard cuts, so the voiceovers and captions do not move. The formulas are
 * ffmpeg's xfade's (fade, slideleft, zoomin), which the fast renderer uses; the composition draws them alike.
 */
export type SceneTransition = { kind: "fade" | "slide" | "zoom"; durationInFrames: number };
export type TimelineScene = { index: number; fromFrame: number; durationInFrames: number; layer: SceneLayer; transitionIn?: SceneTransition };
/**
 * A caption over a time range: its lines (split to fit the safe area), drawn in `style`; with the word-highlight
 * preset, one overlay per highlighted word (`highlightWord` counts the lines' words from 0), so each overlay is one
 * still picture in both renderers. `text` is the lines joined.
 */
export type CaptionOverlay = {
  kind: "caption";
  text: string;
  lines: string[];
  highlightWord: number | null;
  style: CaptionStyle;
  sceneIndex: number;
  fromFrame: number;
  durationInFrames: number;
};
export type Overlay = CaptionOverlay;

export type AudioTrack = {
  kind: "voiceover" | "music";
  src: string;
  fromFrame: number;
  /** The track is cut after this many frames (a voiceover never runs into the next scene). */
  durationInFrames: number;
  /** 0 to 1 */
  volume: number;
  /** Repeats from its start until durationInFrames is filled. */
  loop: boolean;
  /** Linear fades, in frames, at the start and the end of the track's time on the timeline. */
  fadeInFrames: number;
  fadeOutFrames: number;
};

/** The channel's watermark: a square picture (sized and faded beforehand) at (x, y), over the scenes between the cards. */
export type Watermark = { src: string; x: number; y: number; size: number; fromFrame: number; durationInFrames: number };

export type Timeline = {
  width: number;
  height: number;
  fps: number;
  durationInFrames: number;
  background: string;
  scenes: TimelineScene[];
  overlays: Overlay[];
  audio: AudioTrack[];
  watermark?: Watermark;
};

/** The watermark's square: an eighth of the frame's short side (even), in the safe area's top-right corner. */
export function watermarkBox(width: number, height: number): { x: number; y: number; size: number } {
  const zone = safeZoneFor(width, height);
  const size = Math.round((Math.min(width, height) * 0.125) / 2) * 2;
  return { x: Math.round((width * (1 - zone.right) - size) / 2) * 2, y: Math.round((height * zone.top) / 2) * 2, size };
}

/** The frames of the intro and the outro card the props' brand asks for (0 without). */
export function brandCardFrames(brand: StoryboardVideoProps["brand"], fps: number): { intro: number; outro: number } {
  const frames = brand ? Math.max(1, Math.round(brand.cardSeconds * fps)) : 0;
  return { intro: brand?.intro !== undefined ? frames : 0, outro: brand?.outro !== undefined ? frames : 0 };
}

/** The one definition of the video, from the composition's props. */
export function buildTimeline(props: StoryboardVideoProps): Timeline {
  const { fps } = props;
  const scenes: TimelineScene[] = [];
  const overlays: Overlay[] = [];
  const audio: AudioTrack[] = [];
  const brand = props.brand;
  const cards = brandCardFrames(brand, fps);
  // the kit's caption font and colour are in the style (planProps puts them there), which both renderers draw with
  const style = props.captionStyle ?? DEFAULT_CAPTION_STYLE;
  let fromFrame = cards.intro;
  for (const [index, scene] of props.scenes.entries()) {
    const durationInFrames = sceneDurationInFrames(scene.audioDurationInSeconds, fps);
    const layer: SceneLayer = scene.clipSrc
      ? { kind: "clip", src: scene.clipSrc, durationInSeconds: scene.clipDurationInSeconds, ...(scene.clipFit === "stretch" ? { fit: "stretch" as const } : {}) }
      : { kind: "image", src: scene.imageSrc, move: MOVES[index % MOVES.length]! };
    const kind = scene.transitionIn ?? props.transition?.kind ?? "none";
    const previous = scenes[index - 1];
    // at most half of either scene, so two transitions never overlap
    const transitionFrames = previous && kind !== "none" ? Math.min(Math.round((props.transition?.seconds ?? 0.5) * fps), Math.floor(previous.durationInFrames / 2), Math.floor(durationInFrames / 2)) : 0;
    scenes.push({ index, fromFrame, durationInFrames, layer, ...(transitionFrames >= 2 && kind !== "none" ? { transitionIn: { kind, durationInFrames: transitionFrames } } : {}) });
    audio.push({ kind: "voiceover", src: scene.audioSrc, fromFrame, durationInFrames, volume: 1, loop: false, fadeInFrames: 0, fadeOutFrames: 0 });
    if (props.captions && style.preset !== "none") {
      const words = wordTimingsFor(scene.text, scene.audioDurationInSeconds, scene.words);
      for (const cue of captionCuesFor(words, scene.audioDurationInSeconds, fps, style, props.width, props.height)) {
        // a cue never outlasts its scene
        const length = Math.min(cue.durationInFrames, durationInFrames - cue.fromFrame);
        if (length > 0) {
          overlays.push({
            kind: "caption",
            text: cue.lines.join(" "),
            lines: cue.lines,
            highlightWord: cue.highlightWord,
            style,
            sceneIndex: index,
            fromFrame: fromFrame + cue.fromFrame,
            durationInFrames: length,
          });
        }
      }
    }
    fromFrame += durationInFrames;
  }
  const contentFrom = cards.intro;
  const contentFrames = fromFrame - contentFrom;
  const card = (text: string): CardLayer => ({ kind: "card", color: brand!.color, textColor: brand!.textColor, text, ...(brand!.logoSrc ? { logoSrc: brand!.logoSrc } : {}) });
  if (brand?.intro !== undefined && cards.intro > 0) scenes.unshift({ index: -1, fromFrame: 0, durationInFrames: cards.intro, layer: card(brand.intro) });
  if (brand?.outro !== undefined && cards.outro > 0) {
    scenes.push({ index: props.scenes.length, fromFrame, durationInFrames: cards.outro, layer: card(brand.outro) });
    fromFrame += cards.outro;
  }
  const durationInFrames = Math.max(1, fromFrame);
  const watermark = brand?.watermarkSrc ? { src: brand.watermarkSrc, ...watermarkBox(props.width, props.height), fromFrame: contentFrom, durationInFrames: contentFrames } : undefined;
  if (props.music && props.music.volume > 0) {
    // a short fade in and out so the music does not start or stop abruptly
    const fade = Math.min(fps, Math.floor(durationInFrames / 4));
    audio.push({ kind: "music", src: props.music.src, fromFrame: 0, durationInFrames, volume: props.music.volume, loop: true, fadeInFrames: fade, fadeOutFrames: fade });
  }
  return { width: props.width, height: props.height, fps, durationInFrames, background: "#000000", scenes, overlays, audio, ...(watermark ? { watermark } : {}) };
}

/** The loudness factor (0 to 1) of a track at a frame of the whole video, fades included. */
export function trackVolumeAt(track: AudioTrack, frame: number): number {
  const local = frame - track.fromFrame;
  if (local < 0 || local >= track.durationInFrames) return 0;
  let gain = track.volume;
  if (track.fadeInFrames > 0) gain *= Math.min(1, local / track.fadeInFrames);
  if (track.fadeOutFrames > 0) gain *= Math.min(1, (track.durationInFrames - local) / track.fadeOutFrames);
  return gain;
}

// ── motion, written once over any arithmetic ───────────────────────────────────────────────────────────────

/** The operations the motion formula needs: numbers for the composition, ffmpeg expressions for the fast renderer. */
export type Arithmetic<T> = {
  lit: (n: number) => T;
  add: (a: T, b: T) => T;
  sub: (a: T, b: T) => T;
  mul: (a: T, b: T) => T;
  div: (a: T, b: T) => T;
  /** min(max(a, 0), 1) */
  clamp01: (a: T) => T;
};

export const numbers: Arithmetic<number> = {
  lit: (n) => n,
  add: (a, b) => a + b,
  sub: (a, b) => a - b,
  mul: (a, b) => a * b,
  div: (a, b) => a / b,
  clamp01: (a) => Math.min(Math.max(a, 0), 1),
};

/** How far through its scene a frame is: 0 at the first frame, 1 at the last. */
export function sceneProgress<T>(m: Arithmetic<T>, frameInScene: T, durationInFrames: number): T {
  return m.clamp01(m.div(frameInScene, m.lit(Math.max(1, durationInFrames - 1))));
}

/**
 * The part of the (frame-sized) image that fills the frame at `progress`: the image is scaled by `scale` about
 * the frame's centre and shifted by x% / y% of the frame before scaling (CSS `scale() translate()`). Sub-pixel:
 * nothing is rounded, so a slow zoom never steps.
 */
export function visibleRect<T>(m: Arithmetic<T>, move: Move, progress: T, width: number, height: number) {
  const lerp = (range: readonly [number, number]) => m.add(m.lit(range[0]), m.mul(m.lit(range[1] - range[0]), progress));
  const scale = lerp(move.scale);
  const cx = m.lit(width / 2);
  const cy = m.lit(height / 2);
  const left = m.sub(m.sub(cx, m.div(cx, scale)), m.mul(lerp(move.x), m.lit(width / 100)));
  const top = m.sub(m.sub(cy, m.div(cy, scale)), m.mul(lerp(move.y), m.lit(height / 100)));
  return { left, top, width: m.div(m.lit(width), scale), height: m.div(m.lit(height), scale) };
}

/** The rectangle as numbers, for a frame of the scene. */
export function visibleRectAt(move: Move, frameInScene: number, durationInFrames: number, width: number, height: number) {
  return visibleRect(numbers, move, sceneProgress(numbers, frameInScene, durationInFrames), width, height);
}

/** Frames a scene stays drawn after its end, under the next scene's transition (0 for a hard cut). */
export const tailFrames = (timeline: Pick<Timeline, "scenes">, sceneIndex: number) => timeline.scenes[sceneIndex + 1]?.transitionIn?.durationInFrames ?? 0;

/** xfade's progress at frame k of a transition of `frames` frames: 1 at its first frame (all the old scene), falling. */
export const transitionProgress = (k: number, frames: number) => Math.fround(Math.min(1, Math.max(0, 1 - Math.fround(k / frames))));

/** GLSL's smoothstep, as xfade computes it. */
export function smoothstep(edge0: number, edge1: number, x: number): number {
  const t = Math.min(1, Math.max(0, (x - edge0) / (edge1 - edge0)));
  return t * t * (3 - 2 * t);
}

/**
 * How the two scenes are drawn at frame k of a transition: the new scene's opacity and shift (px), the old scene's
 * shift and zoom (scale about the centre). ffmpeg's xfade: fade mixes by the progress; slideleft pushes the old
 * scene out to the left by whole pixels (trunc(progress * width)); zoomin zooms into the old scene's centre for the
 * first half, then mixes to the new one.
 */
export function transitionLook(transition: SceneTransition, k: number, width: number) {
  const p = transitionProgress(k, transition.durationInFrames);
  if (transition.kind === "fade") return { newOpacity: 1 - p, newShift: 0, oldShift: 0, oldZoom: 1 };
  if (transition.kind === "slide") {
    // float arithmetic, as in C: (int)(progress * width) with a float progress
    const shift = Math.trunc(Math.fround(p * width));
    return { newOpacity: 1, newShift: shift, oldShift: shift - width, oldZoom: 1 };
  }
  const zf = smoothstep(0.5, 1, p);
  return { newOpacity: 1 - smoothstep(0, 0.5, p), newShift: 0, oldShift: 0, oldZoom: 1 / Math.max(zf, 1 / 4096) };
}

/** Which overlays show at a frame of the whole video. */
export function overlaysAt(timeline: Timeline, frame: number): Overlay[] {
  return timeline.overlays.filter((o) => frame >= o.fromFrame && frame < o.fromFrame + o.durationInFrames);
}
