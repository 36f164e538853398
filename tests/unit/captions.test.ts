// Caption layout and word timings: the syllable estimate, provider timings, line splitting of a 40-word sentence
// in 9:16 and 16:9 (every line fits the safe area), the safe zone on upright video, and the cues of each preset.
import { describe, expect, it } from "vitest";
import { captionStyleFor } from "~/lib/caption-style";
import {
  captionCuesFor,
  captionGeometry,
  measureCaptionText,
  SAFE_ZONES,
  splitIntoLines,
  type CaptionStyle,
} from "../../app/lib/timeline/captions";
import type { StoryboardVideoProps } from "../../app/lib/timeline/video-props";
import { buildTimeline } from "../../app/lib/timeline/timeline";
import {
  estimateWordTimings,
  syllablesIn,
  wordsOf,
  wordTimingsFor,
  wordTimingsFromAlignment,
} from "../../app/lib/timeline/word-timings";

const FORTY_WORDS =
  "Honeybees communicate the location of distant flowers through an intricate waggle dance, whose angle relative to the comb encodes the direction of the sun, while its duration tells sisters precisely how far away the promising patch of blossoms really is.";
const style = (
  preset: CaptionStyle["preset"],
  size: CaptionStyle["size"] = "medium",
  position: CaptionStyle["position"] = "bottom"
): CaptionStyle => ({ preset, position, size });

describe("word timings", () => {
  it("counts syllables", () => {
    expect(
      ["bee", "honey", "communicate", "the", "flowers,", "2026"].map(
        syllablesIn
      )
    ).toEqual([1, 2, 4, 1, 2, 5]);
  });

  it("shares the audio among the words by syllables, with pauses after commas and sentences, ending with the audio", () => {
    const words = estimateWordTimings("Bees communicate, then rest. Done", 3);
    expect(words.map((w) => w.text)).toEqual([
      "Bees",
      "communicate,",
      "then",
      "rest.",
      "Done",
    ]);
    const length = (i: number) => words[i]!.end - words[i]!.start;
    // "communicate" (4 syllables) lasts four times "bees" (1)
    expect(length(1) / length(0)).toBeCloseTo(4, 1);
    // a pause after the comma and a longer one after the full stop
    expect(words[2]!.start - words[1]!.end).toBeCloseTo(length(0), 2);
    expect(words[4]!.start - words[3]!.end).toBeCloseTo(2 * length(0), 2);
    expect(words[0]!.start).toBe(0);
    expect(words.at(-1)!.end).toBeCloseTo(3, 2);
  });

  it("reads words from a per-character alignment, and refuses one that spells other words", () => {
    const text = "Hi bees";
    const alignment = {
      characters: [..."Hi bees"],
      character_start_times_seconds: [0, 0.1, 0.2, 0.25, 0.3, 0.35, 0.4],
      character_end_times_seconds: [0.1, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5],
    };
    expect(wordTimingsFromAlignment(text, alignment)).toEqual([
      { text: "Hi", start: 0, end: 0.2 },
      { text: "bees", start: 0.25, end: 0.5 },
    ]);
    expect(wordTimingsFromAlignment("Hello bees", alignment)).toBeNull();
  });

  it("scales stored timings to the real audio length, and estimates when the text was edited since", () => {
    const stored = {
      source: "provider" as const,
      audioSeconds: 2,
      words: [
        { text: "Hi", start: 0, end: 1 },
        { text: "bees", start: 1, end: 2 },
      ],
    };
    expect(wordTimingsFor("Hi bees", 3, stored)).toEqual([
      { text: "Hi", start: 0, end: 1.5 },
      { text: "bees", start: 1.5, end: 3 },
    ]);
    expect(wordTimingsFor("Hi wasps", 3, stored)).toEqual(
      estimateWordTimings("Hi wasps", 3)
    );
  });
});

describe("line splitting", () => {
  it("measures with the font's widths: a W is wider than an i", () => {
    expect(measureCaptionText("W", 100)).toBeGreaterThan(
      2 * measureCaptionText("i", 100)
    );
    expect(measureCaptionText("你", 10)).toBeGreaterThan(
      measureCaptionText("a", 10)
    );
  });

  for (const [name, width, height] of [
    ["9:16", 1080, 1920],
    ["16:9", 1920, 1080],
  ] as const) {
    for (const size of ["small", "medium", "large"] as const) {
      it(`splits a 40-word sentence into lines that fit the safe area (${name}, ${size})`, () => {
        const g = captionGeometry(style("boxed", size), width, height);
        const words = wordsOf(FORTY_WORDS);
        expect(words).toHaveLength(40);
        const lines = splitIntoLines(words, g.maxLineWidth, g.fontSize);
        expect(lines.flat()).toEqual(words);
        expect(lines.length).toBeGreaterThan(2);
        for (const line of lines) {
          const boxWidth =
            measureCaptionText(line.join(" "), g.fontSize) + 2 * g.padX;
          expect(boxWidth, line.join(" ")).toBeLessThanOrEqual(
            g.area.right - g.area.left
          );
        }
        // lines are filled: joining the next word would not fit
        for (let i = 0; i + 1 < lines.length; i++)
          expect(
            measureCaptionText(
              [...lines[i]!, lines[i + 1]![0]!].join(" "),
              g.fontSize
            )
          ).toBeGreaterThan(g.maxLineWidth);
        // and two lines with their box stay inside the safe area's height
        expect(2 * g.lineHeight + 2 * g.padY).toBeLessThan(
          g.area.bottom - g.area.top
        );
      });
    }
  }

  it("cuts a word wider than any line into pieces that fit", () => {
    const g = captionGeometry(style("outlined", "large"), 720, 1280);
    const lines = splitIntoLines(
      ["Supercalifragilisticexpialidocious-and-then-some-more"],
      g.maxLineWidth,
      g.fontSize
    );
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines)
      expect(
        measureCaptionText(line.join(" "), g.fontSize)
      ).toBeLessThanOrEqual(g.maxLineWidth);
  });
});

describe("the safe zone", () => {
  it("keeps upright captions out of the Shorts app's bottom quarter and right-hand buttons", () => {
    const g = captionGeometry(style("boxed"), 1080, 1920);
    expect(g.area.bottom).toBeLessThanOrEqual(1920 * 0.75);
    expect(g.area.right).toBeLessThanOrEqual(1080 * 0.88);
    expect(g.area.top).toBeGreaterThanOrEqual(1920 * 0.1);
    expect(SAFE_ZONES.vertical.bottom).toBeGreaterThanOrEqual(0.25);
    // before: captions sat at 83-92 % of the height
    expect(g.area.bottom / 1920).toBeLessThan(0.83);
  });

  it("keeps the landscape look of before: a 6 % side margin and 8 % from the bottom", () => {
    const g = captionGeometry(style("boxed"), 1280, 720);
    expect(g.area).toEqual({ left: 77, top: 58, right: 1203, bottom: 662 });
    expect(g.fontSize).toBe(36);
  });
});

describe("caption cues", () => {
  const words = estimateWordTimings(FORTY_WORDS, 12);

  it("shows at most two lines at a time, in order, covering the voiceover without gaps", () => {
    const cues = captionCuesFor(
      words,
      12,
      30,
      style("boxed", "large"),
      1080,
      1920
    );
    expect(cues.length).toBeGreaterThan(2);
    expect(cues[0]!.fromFrame).toBe(0);
    for (const [i, cue] of cues.entries()) {
      expect(cue.lines.length).toBeLessThanOrEqual(2);
      expect(cue.highlightWord).toBeNull();
      if (i > 0)
        expect(cue.fromFrame).toBe(
          cues[i - 1]!.fromFrame + cues[i - 1]!.durationInFrames
        );
    }
    expect(cues.at(-1)!.fromFrame + cues.at(-1)!.durationInFrames).toBe(360);
    expect(cues.flatMap((c) => c.lines).join(" ")).toBe(FORTY_WORDS);
  });

  it("word highlight: one cue per word, short single lines, each word highlighted from its start", () => {
    const cues = captionCuesFor(words, 12, 30, style("highlight"), 1080, 1920);
    expect(cues).toHaveLength(40);
    for (const [i, cue] of cues.entries()) {
      expect(cue.lines).toHaveLength(1);
      expect(cue.lines[0]!.split(" ").length).toBeLessThanOrEqual(5);
      const word = cue.lines[0]!.split(" ")[cue.highlightWord!];
      expect(word).toBe(words[i]!.text);
      if (i > 0) expect(cue.fromFrame).toBe(Math.round(words[i]!.start * 30));
    }
  });

  it("captions a Japanese scene (no spaces, one 'word' to the voice) sentence by sentence, each when it is spoken", () => {
    const text =
      "タコは色を変えることができます。狭い隙間もすり抜けます。カニを出し抜くほど賢い動物です。";
    const spoken = [{ text, start: 0, end: 9 }];
    const cues = captionCuesFor(spoken, 9, 30, style("boxed"), 1080, 1920);
    // in order, without gaps, covering the whole text with nothing added between its pieces
    expect(cues.length).toBeGreaterThanOrEqual(3);
    expect(cues[0]!.fromFrame).toBe(0);
    for (const [i, cue] of cues.entries())
      if (i > 0)
        expect(cue.fromFrame).toBe(
          cues[i - 1]!.fromFrame + cues[i - 1]!.durationInFrames
        );
    expect(cues.at(-1)!.fromFrame + cues.at(-1)!.durationInFrames).toBe(270);
    expect(cues.flatMap((c) => c.lines).join("")).toBe(text);
    // a sentence starts a caption of its own, when its share of the characters has been spoken
    const second = "狭い隙間もすり抜けます。";
    const cue = cues.find((c) => c.lines[0] === second || c.lines[0]!.startsWith("狭い"));
    expect(cue).toBeDefined();
    expect(cue!.lines.join("")).not.toContain("タコ");
    expect(cue!.fromFrame).toBe(Math.round((270 * text.indexOf(second)) / text.length));
    // word highlight moves along the text instead of lighting the whole scene at once
    const lit = captionCuesFor(spoken, 9, 30, style("highlight"), 1080, 1920);
    expect(lit.length).toBeGreaterThanOrEqual(3);
    expect(new Set(lit.map((c) => c.lines[0]!.split(" ")[c.highlightWord!])).size).toBe(lit.length);
    expect(lit.flatMap((c) => c.lines[0]!.split(" ")[c.highlightWord!]).join("")).toBe(text);
  });

  it("never starts a caption line with closing punctuation (the Japanese kinsoku rule), and balances a sentence's lines", () => {
    const g = captionGeometry(style("boxed"), 1080, 1920);
    const perLine = Math.floor(g.maxLineWidth / measureCaptionText("あ", g.fontSize));
    // every other character a comma, in runs of several lengths: some line break falls before a comma in each
    for (let length = perLine + 1; length <= 3 * perLine; length++) {
      const text = `${"あ、".repeat(length).slice(0, length)}。`;
      const lines = captionCuesFor([{ text, start: 0, end: 6 }], 6, 30, style("boxed"), 1080, 1920).flatMap((c) => c.lines);
      expect(lines.join("")).toBe(text);
      expect(lines.filter((l) => /^[、。]/.test(l)), `${length} characters`).toEqual([]);
      for (const line of lines) expect(measureCaptionText(line, g.fontSize)).toBeLessThanOrEqual(g.maxLineWidth);
      // as few lines as fit, of near-even lengths: no line is a leftover of a character or two
      expect(lines).toHaveLength(Math.ceil((length + 1) / perLine));
      expect(Math.min(...lines.map((l) => l.length)), `${length} characters`).toBeGreaterThanOrEqual(perLine / 2);
    }
  });

  it("none: no captions; a new sentence never shares a caption with the last one", () => {
    expect(captionCuesFor(words, 12, 30, style("none"), 1080, 1920)).toEqual(
      []
    );
    const two = captionCuesFor(
      estimateWordTimings("Bees dance. They point.", 2),
      2,
      30,
      style("boxed"),
      1280,
      720
    );
    expect(two.map((c) => c.lines)).toEqual([["Bees dance."], ["They point."]]);
  });
});

describe("a project's caption style", () => {
  it("is its format's default until chosen: none on 16:9, boxed on 9:16, at the bottom, medium", () => {
    const unchosen = {
      captionPreset: null,
      captionPosition: "bottom",
      captionSize: "medium",
    } as const;
    expect(captionStyleFor("16:9", unchosen)).toEqual({
      preset: "none",
      position: "bottom",
      size: "medium",
    });
    expect(captionStyleFor("9:16", unchosen)).toEqual({
      preset: "boxed",
      position: "bottom",
      size: "medium",
    });
    expect(
      captionStyleFor("16:9", { ...unchosen, captionPreset: "highlight" })
        .preset
    ).toBe("highlight");
  });

  it("reaches the timeline: the style on every caption, none drawing nothing", () => {
    const props = (captionStyle: CaptionStyle): StoryboardVideoProps => ({
      width: 720,
      height: 1280,
      fps: 30,
      scenes: [
        {
          imageSrc: "a.png",
          audioSrc: "a.wav",
          audioDurationInSeconds: 2,
          text: "Bees dance. They point the way.",
        },
      ],
      music: null,
      captions: true,
      captionStyle,
    });
    const outlined = buildTimeline(props(style("outlined", "small", "top")));
    expect(outlined.overlays.length).toBe(2);
    for (const o of outlined.overlays)
      expect(o.style).toEqual(style("outlined", "small", "top"));
    expect(buildTimeline(props(style("none"))).overlays).toEqual([]);
    expect(buildTimeline(props(style("highlight"))).overlays).toHaveLength(6);
  });
});
