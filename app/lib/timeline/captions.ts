// Caption styles and caption layout: the presets a creator picks on the storyboard (boxed, outlined, word-by-word
// highlight, none), the position (top, middle, bottom) and size; where captions may go (the frame less the platform's
// overlay zones, decision 100); how a sentence is split into short lines, measured with the caption font's own
// advance widths so no line ever leaves the frame; and how word timings become caption cues. Used by the timeline
// (both renderers), the composition, the Player preview and the storyboard's controls.
// Pure: no React, no Node.
import { CAPTION_FONT_WIDTHS, WIDEST_EM } from "./caption-metrics";
import { MONO_FONT_WIDTHS, MONO_WIDEST_EM, SERIF_FONT_WIDTHS, SERIF_WIDEST_EM } from "./caption-metrics-brand";
import type { CaptionFont, CaptionSize, CaptionStyle } from "../caption-style";
import type { WordTiming } from "./word-timings";

// the styles themselves (presets, positions, sizes, fonts, their labels, the default) are app/lib/caption-style.ts's
export * from "../caption-style";

/** The caption font: DejaVu Sans Bold in the renderers (Debian's Chromium), the same stack in the preview. */
export const CAPTION_FONT_FAMILY = "DejaVu Sans, Helvetica, Arial, sans-serif";
/** Each caption font's CSS stack (the brand kit's choice, issue 52). */
export const CAPTION_FONT_FAMILIES: Record<CaptionFont, string> = {
  sans: CAPTION_FONT_FAMILY,
  serif: "DejaVu Serif, Georgia, serif",
  mono: "DejaVu Sans Mono, monospace",
};
const FONT_WIDTHS: Record<CaptionFont, { widths: Readonly<Record<number, number>>; widest: number }> = {
  sans: { widths: CAPTION_FONT_WIDTHS, widest: WIDEST_EM },
  serif: { widths: SERIF_FONT_WIDTHS, widest: SERIF_WIDEST_EM },
  mono: { widths: MONO_FONT_WIDTHS, widest: MONO_WIDEST_EM },
};
/** The highlighted word's colour in the word-highlight preset. */
export const HIGHLIGHT_COLOR = "#FFD400";
const LINE_HEIGHT = 1.25;
/** Font size as a share of the frame's short side. */
const SIZE_FACTOR: Record<CaptionSize, number> = {
  small: 0.04,
  medium: 0.05,
  large: 0.065,
};

/**
 * Where captions may be drawn, as shares of the frame, per orientation (decision 100). Upright (Shorts, TikTok):
 * the apps lay their title, channel name, subscribe button and progress bar over the bottom quarter, their like /
 * comment / share column over the right edge, and their search and menu over the top. Landscape: a plain margin.
 */
export const SAFE_ZONES = {
  landscape: { left: 0.06, right: 0.06, top: 0.08, bottom: 0.08 },
  vertical: { left: 0.06, right: 0.14, top: 0.1, bottom: 0.26 },
} as const;

export type CaptionGeometry = {
  fontSize: number;
  /** px per line */
  lineHeight: number;
  /** the box's (boxed) or the outline's room around the text, px */
  padX: number;
  padY: number;
  /** outline width outside the glyphs (outlined and highlight), px */
  stroke: number;
  /** the safe area, px from the frame's left and top */
  area: { left: number; top: number; right: number; bottom: number };
  /** the widest a line of text may be measured, px */
  maxLineWidth: number;
  /** lines shown together */
  maxLines: number;
  /** words on a line at most (the highlight look keeps lines short) */
  maxWordsPerLine: number;
};

export function safeZoneFor(width: number, height: number) {
  return height > width ? SAFE_ZONES.vertical : SAFE_ZONES.landscape;
}

/** Sizes and the safe area of a caption style on a frame. */
export function captionGeometry(
  style: CaptionStyle,
  width: number,
  height: number
): CaptionGeometry {
  const zone = safeZoneFor(width, height);
  const fontSize = Math.round(
    Math.min(width, height) * SIZE_FACTOR[style.size]
  );
  const boxed = style.preset === "boxed";
  const stroke = boxed ? 0 : Math.max(2, Math.round(fontSize * 0.08));
  const padX = boxed ? fontSize * 0.6 : stroke;
  const padY = boxed ? fontSize * 0.3 : stroke;
  const area = {
    left: Math.round(width * zone.left),
    top: Math.round(height * zone.top),
    right: Math.round(width * (1 - zone.right)),
    bottom: Math.round(height * (1 - zone.bottom)),
  };
  // a little room for kerning and rounding: the browser lays the same words out no wider than measured here
  const maxLineWidth = Math.max(
    fontSize,
    (area.right - area.left - 2 * padX - 2 * stroke) * 0.95
  );
  const highlight = style.preset === "highlight";
  return {
    fontSize,
    lineHeight: fontSize * LINE_HEIGHT,
    padX,
    padY,
    stroke,
    area,
    maxLineWidth,
    maxLines: highlight ? 1 : 2,
    maxWordsPerLine: highlight ? 5 : 1000,
  };
}

/** The width of a text in the caption font, px. */
export function measureCaptionText(text: string, fontSize: number, font: CaptionFont = "sans"): number {
  const { widths, widest } = FONT_WIDTHS[font];
  let em = 0;
  for (const c of text)
    em += widths[c.codePointAt(0)!] ?? widest;
  return em * fontSize;
}

/** Characters a line may not start with (the Japanese line-breaking rule, kinsoku): closing punctuation. */
const NO_LINE_START = /^[、。，．,.！？!?）)」』”’ー…・：；:;]/u;

/** A word cut greedily into pieces no wider than `maxWidth`; a piece never starts with closing punctuation. */
function breakGreedily(word: string, maxWidth: number, fontSize: number, font: CaptionFont = "sans"): string[] {
  const pieces: string[] = [];
  let piece = "";
  for (const c of word) {
    if (piece && measureCaptionText(piece + c, fontSize, font) > maxWidth) {
      const chars = [...piece];
      // the character before the punctuation moves down with it
      const carried = NO_LINE_START.test(c) && chars.length > 1 ? chars.pop()! : "";
      pieces.push(chars.join(""));
      piece = carried;
    }
    piece += c;
  }
  if (piece) pieces.push(piece);
  return pieces;
}

/**
 * A word too wide for any line (or a sentence written without spaces), cut into as few pieces as fit, of even
 * widths: the narrowest width that needs no more pieces than the greedy cut (so no line is left with two letters).
 */
function breakWord(word: string, maxWidth: number, fontSize: number, font: CaptionFont = "sans"): string[] {
  const greedy = breakGreedily(word, maxWidth, fontSize, font);
  if (greedy.length < 2) return greedy;
  let narrow = measureCaptionText(word, fontSize, font) / greedy.length;
  let wide = maxWidth;
  for (let step = 0; step < 16 && wide - narrow > 0.5; step++) {
    const middle = (narrow + wide) / 2;
    if (breakGreedily(word, middle, fontSize, font).length <= greedy.length) wide = middle;
    else narrow = middle;
  }
  return breakGreedily(word, wide, fontSize, font);
}

/** Words split greedily into lines no wider than `maxWidth` (px at `fontSize`), at most `maxWords` words each. */
export function splitIntoLines(
  words: readonly string[],
  maxWidth: number,
  fontSize: number,
  maxWords = 1000,
  font: CaptionFont = "sans"
): string[][] {
  const lines: string[][] = [];
  let line: string[] = [];
  for (const word of words) {
    const pieces =
      measureCaptionText(word, fontSize, font) > maxWidth
        ? breakWord(word, maxWidth, fontSize, font)
        : [word];
    for (const piece of pieces) {
      const candidate = [...line, piece].join(" ");
      if (
        line.length > 0 &&
        (line.length >= maxWords ||
          measureCaptionText(candidate, fontSize, font) > maxWidth)
      ) {
        lines.push(line);
        line = [];
      }
      line.push(piece);
    }
  }
  if (line.length) lines.push(line);
  return lines;
}

/** A caption as the timeline holds it: its lines, the highlighted word (index over the lines' words), its frames. */
export type CaptionCue = {
  lines: string[];
  highlightWord: number | null;
  fromFrame: number;
  durationInFrames: number;
};

/** Ends a sentence: a full stop, question or exclamation mark, Latin or CJK, with any closing quote or bracket. */
const endsSentence = (word: string) => /[.!?…。！？]["')\]」』”’]*$/.test(word);
/** Where a run of text written without spaces (Chinese, Japanese) holds more than one sentence: after each full stop. */
const CJK_SENTENCE_BREAK = /(?<=[。！？][」』”’）]*)(?=[^」』”’）])/u;

/** A piece of a word as a caption shows it: the word's own text, or part of it when it is cut. */
type Piece = { text: string; word: number; start: number; endsSentence: boolean };

/**
 * The words as caption pieces. A word wider than a line is cut into pieces that fit, and a run written without
 * spaces (Chinese, Japanese: the voice gives it as one "word") is also cut after each full stop; a piece starts
 * when its share of the word's characters does, so a long run is captioned in order rather than all at once.
 */
function piecesOf(words: readonly WordTiming[], maxLineWidth: number, fontSize: number, font: CaptionFont = "sans"): Piece[] {
  const pieces: Piece[] = [];
  words.forEach((w, i) => {
    const total = [...w.text].length;
    let before = 0;
    const segments = w.text.split(CJK_SENTENCE_BREAK);
    segments.forEach((segment, s) => {
      const split =
        measureCaptionText(segment, fontSize, font) > maxLineWidth
          ? breakWord(segment, maxLineWidth, fontSize, font)
          : [segment];
      for (const text of split) {
        pieces.push({ text, word: i, start: w.start + ((w.end - w.start) * before) / total, endsSentence: false });
        before += [...text].length;
      }
      pieces[pieces.length - 1]!.endsSentence =
        s < segments.length - 1 || endsSentence(w.text);
    });
  });
  return pieces;
}

/**
 * A scene's caption cues from its word timings (frames from the scene's start): each sentence split into lines that
 * fit the safe area, lines grouped by the style's line count; each group shows from its first word until the next
 * group (the first from the scene's start, the last until the voiceover ends). The word-highlight preset has one cue
 * per word piece: the same lines with that piece highlighted, from its first frame until the next piece's.
 */
export function captionCuesFor(
  words: readonly WordTiming[],
  audioSeconds: number,
  fps: number,
  style: CaptionStyle,
  width: number,
  height: number
): CaptionCue[] {
  if (style.preset === "none" || words.length === 0) return [];
  const g = captionGeometry(style, width, height);
  const font = style.font ?? "sans";
  const pieces = piecesOf(words, g.maxLineWidth, g.fontSize, font);
  // sentences, each as the piece indexes it holds
  const sentences: number[][] = [];
  let sentence: number[] = [];
  pieces.forEach((piece, i) => {
    sentence.push(i);
    if (piece.endsSentence) {
      sentences.push(sentence);
      sentence = [];
    }
  });
  if (sentence.length) sentences.push(sentence);

  // groups of lines, each with the index of every piece on it
  type Group = { lines: string[][]; pieceOf: number[] };
  const groups: Group[] = [];
  for (const indexes of sentences) {
    const lines = splitIntoLines(
      indexes.map((i) => pieces[i]!.text),
      g.maxLineWidth,
      g.fontSize,
      g.maxWordsPerLine,
      font
    );
    let k = 0;
    for (let l = 0; l < lines.length; l += g.maxLines) {
      const chunk = lines.slice(l, l + g.maxLines);
      const count = chunk.reduce((n, line) => n + line.length, 0);
      groups.push({ lines: chunk, pieceOf: indexes.slice(k, k + count) });
      k += count;
    }
  }

  const audioFrames = Math.max(1, Math.round(audioSeconds * fps));
  const frameOf = (seconds: number) =>
    Math.min(audioFrames, Math.max(0, Math.round(seconds * fps)));
  const starts = groups.map((group, n) =>
    n === 0 ? 0 : frameOf(pieces[group.pieceOf[0]!]!.start)
  );
  const cues: CaptionCue[] = [];
  groups.forEach((group, n) => {
    const from = starts[n]!;
    const to = Math.max(
      from,
      n + 1 < groups.length ? starts[n + 1]! : audioFrames
    );
    const lines = group.lines.map((line) => line.join(" "));
    if (style.preset !== "highlight") {
      if (to > from)
        cues.push({
          lines,
          highlightWord: null,
          fromFrame: from,
          durationInFrames: to - from,
        });
      return;
    }
    // one state per piece on the lines, from its start until the next piece's
    let stateFrom = from;
    group.pieceOf.forEach((piece, p) => {
      const next = group.pieceOf[p + 1];
      const stateTo =
        next === undefined
          ? to
          : Math.min(to, Math.max(stateFrom, frameOf(pieces[next]!.start)));
      if (stateTo > stateFrom)
        cues.push({
          lines,
          highlightWord: p,
          fromFrame: stateFrom,
          durationInFrames: stateTo - stateFrom,
        });
      stateFrom = Math.max(stateFrom, stateTo);
    });
  });
  return cues;
}
