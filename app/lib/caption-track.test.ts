// The caption track: cues from the voiceovers' word timings at their scenes' starts, written as SubRip and WebVTT
// and read back by a real subtitle parser (ffmpeg's srt and webvtt demuxers, through ffprobe and ffmpeg: no
// subtitle package is installed), each cue within one frame of its words' timings.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { sceneBoundaries } from "./timeline/timing";
import { captionLines, captionTrackCues, cueTimestamp, toSrt, toWebVtt, type CaptionTrackScene } from "./caption-track";

const run = promisify(execFile);
const FPS = 30;
const FRAME_MS = 1000 / FPS;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-captions-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Timings as a voice provider stores them: each word 0.3 s, a 0.1 s gap, a longer pause after a sentence. */
function timed(text: string, audioSeconds: number): CaptionTrackScene {
  let t = 0.05;
  const words = text.split(/\s+/).map((w) => {
    const word = { text: w, start: Number(t.toFixed(3)), end: Number((t + 0.3).toFixed(3)) };
    t += /[.!?]$/.test(w) ? 0.6 : 0.4;
    return word;
  });
  return { text, audioDurationInSeconds: audioSeconds, words: { source: "provider", audioSeconds, words } };
}

const scenes: CaptionTrackScene[] = [
  timed("Honeybees dance to tell each other where the flowers are. The waggle points the way!", 6.2),
  timed("A longer waggle means a farther field, and the hive listens closely to every single step of it.", 7.4),
  // no stored timings: the estimate the burned-in captions use
  { text: "Tiny <brains> & big maps.", audioDurationInSeconds: 2.0 },
];

type Packet = { pts_time: string; duration_time: string };
async function parsedTimings(file: string): Promise<{ start: number; end: number }[]> {
  const { stdout } = await run("ffprobe", ["-v", "error", "-show_entries", "packet=pts_time,duration_time", "-of", "json", file]);
  return (JSON.parse(stdout) as { packets: Packet[] }).packets.map((p) => ({ start: Number(p.pts_time) * 1000, end: (Number(p.pts_time) + Number(p.duration_time)) * 1000 }));
}
/** The cues' text as ffmpeg decoded them (converted to SubRip by its own decoder and encoder). */
async function parsedTexts(file: string): Promise<string[]> {
  const { stdout } = await run("ffmpeg", ["-v", "error", "-i", file, "-f", "srt", "-"]);
  return stdout
    .replace(/\r/g, "")
    .trim()
    .split(/\n\n+/)
    .map((block) => block.split("\n").slice(2).join("\n"));
}

describe("the caption track", () => {
  const cues = captionTrackCues(scenes, FPS);
  const starts = sceneBoundaries(
    scenes.map((s) => s.audioDurationInSeconds),
    FPS,
  ).map((f) => (f / FPS) * 1000);

  it("has a cue per sentence (or two lines of 42 characters), each from its first word's start to its last word's end", () => {
    const first = scenes[0]!.words!.words;
    expect(cues[0]).toEqual({ startMs: Math.round(first[0]!.start * 1000), endMs: Math.round(first[9]!.end * 1000), text: "Honeybees dance to tell each\nother where the flowers are." });
    expect(cues[1]!.text).toBe("The waggle points the way!");
    // the second scene's words start at the second scene's start in the video
    const second = scenes[1]!.words!.words;
    expect(Math.abs(cues[2]!.startMs - (starts[1]! + second[0]!.start * 1000))).toBeLessThan(FRAME_MS);
    for (const cue of cues) {
      for (const line of cue.text.split("\n")) expect(line.length).toBeLessThanOrEqual(42);
      expect(cue.text.split("\n").length).toBeLessThanOrEqual(2);
      expect(cue.endMs - cue.startMs).toBeLessThanOrEqual(7000);
    }
    // every word of every voiceover is in the track once, in order
    expect(cues.map((c) => c.text.replace(/\n/g, " ")).join(" ")).toBe(scenes.map((s) => s.text).join(" "));
    // cues never overlap
    for (let i = 1; i < cues.length; i++) expect(cues[i]!.startMs).toBeGreaterThanOrEqual(cues[i - 1]!.endMs);
  });

  it("writes SubRip and WebVTT that ffmpeg's parsers read back with the same cues, within one frame of the word timings", async () => {
    const srt = path.join(dir, "track.srt");
    const vtt = path.join(dir, "track.vtt");
    fs.writeFileSync(srt, toSrt(cues));
    fs.writeFileSync(vtt, toWebVtt(cues));
    expect(fs.readFileSync(vtt, "utf8").startsWith("WEBVTT\n\n00:00:00.")).toBe(true);

    // the words' own times, scene offsets added, for every cue (first word's start, last word's end)
    const wordTimes: { start: number; end: number }[] = [];
    let cue = 0;
    scenes.forEach((scene, s) => {
      const words = scene.words?.words;
      if (!words) return;
      let i = 0;
      while (i < words.length && cue < cues.length) {
        const count = cues[cue]!.text.split(/\s+/).length;
        wordTimes.push({ start: starts[s]! + words[i]!.start * 1000, end: starts[s]! + words[i + count - 1]!.end * 1000 });
        i += count;
        cue++;
      }
    });
    for (const file of [srt, vtt]) {
      const timings = await parsedTimings(file);
      expect(timings).toHaveLength(cues.length);
      wordTimes.forEach((w, i) => {
        expect(Math.abs(timings[i]!.start - w.start), `${path.extname(file)} cue ${i + 1} start`).toBeLessThan(FRAME_MS);
        expect(Math.abs(timings[i]!.end - w.end), `${path.extname(file)} cue ${i + 1} end`).toBeLessThan(FRAME_MS);
      });
      const texts = await parsedTexts(file);
      expect(texts.slice(0, -1)).toEqual(cues.slice(0, -1).map((c) => c.text));
      // markup characters survive as text: escaped in WebVTT, as angle quotes in SubRip (which has no escapes)
      expect(texts.at(-1)).toBe(file === vtt ? "Tiny <brains> & big maps." : "Tiny ‹brains› & big maps.");
    }
  });

  it("formats timestamps and cuts long cues into two even lines", () => {
    expect(cueTimestamp(3_723_456, ",")).toBe("01:02:03,456");
    expect(cueTimestamp(59_999, ".")).toBe("00:00:59.999");
    expect(captionLines("one two three four five six seven eight nine ten eleven".split(" "))).toEqual(["one two three four five six", "seven eight nine ten eleven"]);
    expect(captionLines(["short"])).toEqual(["short"]);
  });
});
