// The caption track of a render (issue 37): cues built from the voiceovers' word timings, placed at their scenes'
// starts exactly as the video places the voiceovers (app/lib/timeline/timing.ts), and written as SubRip (.srt) and WebVTT
// (.vtt). Stored with the render (RenderedVideo.captionCues), served through the owner-checked caption route, and
// sent to YouTube with the video (captions.insert). Independent of the burned-in captions, which stay a choice.
// Pure: shared by the worker, the server and the browser.
import { z } from "zod";
import { sceneBoundaries } from "./timeline/timing";
import { wordTimingsFor, wordsOf, type VoiceoverWordTimings } from "./timeline/word-timings";

export type CaptionTrackCue = { startMs: number; endMs: number; text: string };

export const captionTrackCuesSchema = z.array(
  z.object({ startMs: z.number().int().min(0), endMs: z.number().int().min(0), text: z.string().min(1) }).refine((c) => c.endMs > c.startMs, "a cue ends after it starts"),
);

/** Stored cues read back (a JSON column); an empty list when absent or not in the expected shape. */
export function storedCaptionCues(value: unknown): CaptionTrackCue[] {
  const parsed = captionTrackCuesSchema.safeParse(value);
  return parsed.success ? parsed.data : [];
}

/**
 * How a cue is cut, after the common subtitle guidelines (BBC, Netflix): at most two lines of 42 characters, at most
 * 7 seconds on screen, a new cue at every sentence's end.
 */
export const CAPTION_TRACK = { maxLineChars: 42, maxLines: 2, maxCueSeconds: 7 } as const;

export type CaptionTrackScene = { text: string; audioDurationInSeconds: number; words?: VoiceoverWordTimings | null };

const endsSentence = (word: string) => /[.!?…。！？]["')\]」』”’]*$/.test(word);

/** A cue's words as at most two lines, cut where the two halves are most even. */
export function captionLines(words: readonly string[]): string[] {
  const whole = words.join(" ");
  if (whole.length <= CAPTION_TRACK.maxLineChars || words.length < 2) return [whole];
  let best = 1;
  let bestScore = Infinity;
  for (let i = 1; i < words.length; i++) {
    const a = words.slice(0, i).join(" ").length;
    const b = words.slice(i).join(" ").length;
    const score = Math.max(a, b);
    if (score < bestScore) {
      bestScore = score;
      best = i;
    }
  }
  return [words.slice(0, best).join(" "), words.slice(best).join(" ")];
}

/**
 * The track's cues: each scene's words (the stored timings when they spell the scene's text, else the estimate the
 * burned-in captions use too), grouped into cues that fit two lines, each from its first word's start to its last
 * word's end, offset by the scene's start in the video.
 */
export function captionTrackCues(scenes: readonly CaptionTrackScene[], fps: number): CaptionTrackCue[] {
  const starts = sceneBoundaries(
    scenes.map((s) => s.audioDurationInSeconds),
    fps,
  );
  const cues: CaptionTrackCue[] = [];
  scenes.forEach((scene, index) => {
    if (wordsOf(scene.text).length === 0) return;
    const offset = starts[index]! / fps;
    const words = wordTimingsFor(scene.text, scene.audioDurationInSeconds, scene.words ?? null);
    let group: typeof words = [];
    const flush = () => {
      if (!group.length) return;
      const startMs = Math.round((offset + group[0]!.start) * 1000);
      const endMs = Math.max(startMs + 1, Math.round((offset + group.at(-1)!.end) * 1000));
      cues.push({ startMs, endMs, text: captionLines(group.map((w) => w.text)).join("\n") });
      group = [];
    };
    for (const word of words) {
      if (group.length) {
        const longer = [...group, word].map((w) => w.text).join(" ").length > CAPTION_TRACK.maxLineChars * CAPTION_TRACK.maxLines;
        const tooLong = word.end - group[0]!.start > CAPTION_TRACK.maxCueSeconds;
        if (longer || tooLong) flush();
      }
      group.push(word);
      if (endsSentence(word.text)) flush();
    }
    flush();
  });
  return cues;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** 01:02:03,456 (SubRip) or 01:02:03.456 (WebVTT). */
export function cueTimestamp(ms: number, separator: "," | "."): string {
  const total = Math.max(0, Math.round(ms));
  const hours = Math.floor(total / 3_600_000);
  const minutes = Math.floor((total % 3_600_000) / 60_000);
  const seconds = Math.floor((total % 60_000) / 1000);
  return `${pad(hours)}:${pad(minutes)}:${pad(seconds)}${separator}${pad(total % 1000, 3)}`;
}

/** A cue's text with nothing a parser could mistake for a timing line or a blank line between cues. */
const plainText = (text: string) => text.replace(/-->/g, "->").replace(/\n{2,}/g, "\n");
/** SubRip has no escapes and players drop anything between < and > as a tag: angle quotes keep the words visible. */
const srtText = (text: string) => plainText(text).replace(/</g, "‹").replace(/>/g, "›");
/** WebVTT escapes its markup characters. */
const vttText = (text: string) => plainText(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** SubRip: numbered cues, comma before the milliseconds, a blank line after each. */
export function toSrt(cues: readonly CaptionTrackCue[]): string {
  return cues.map((c, i) => `${i + 1}\n${cueTimestamp(c.startMs, ",")} --> ${cueTimestamp(c.endMs, ",")}\n${srtText(c.text)}\n`).join("\n");
}

/** WebVTT: the WEBVTT header, then the cues with a full stop before the milliseconds. */
export function toWebVtt(cues: readonly CaptionTrackCue[]): string {
  return `WEBVTT\n\n${cues.map((c) => `${cueTimestamp(c.startMs, ".")} --> ${cueTimestamp(c.endMs, ".")}\n${vttText(c.text)}\n`).join("\n")}`;
}

export const CAPTION_FORMATS = {
  srt: { mimeType: "application/x-subrip", extension: "srt", write: toSrt },
  vtt: { mimeType: "text/vtt", extension: "vtt", write: toWebVtt },
} as const;
export type CaptionFormat = keyof typeof CAPTION_FORMATS;

/** Where a render's caption track is downloaded (the route checks the render is the signed-in creator's). */
export const captionTrackUrl = (renderId: string, format: CaptionFormat) => `/api/rendered-videos/${encodeURIComponent(renderId)}/captions/${format}`;

/** A delivered video's loudness (measured after normalising) and its caption track, as the pages show them. */
export type DeliveredVideoFacts = {
  renderId: string;
  loudnessLufs: number | null;
  truePeakDbtp: number | null;
  captionCueCount: number;
  captions: { srt: string; vtt: string } | null;
};
