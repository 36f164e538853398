// The creator's own script (issue 33), shared by the browser and the server: its limits and checks, its scene
// breaks, its spoken length, and which storyboard scenes an edited script keeps. Pure: no I/O.
// See docs/decisions/170-the-creators-own-script.md.
import { PAUSE_BETWEEN_SCENES_SECONDS, VOICE_SPEED_RANGE } from "./narration";

/**
 * The longest script a creator may save, in characters: a 60-minute video read at 170 words a minute is about
 * 10,200 words (some 60,000 characters), so this leaves room for slow voices and long words. A longer text is
 * refused with 413, never cut.
 */
export const OWN_SCRIPT_MAX_CHARS = 100_000;

/** Who wrote a script the creator typed, pasted, loaded or edited (Script.writtenBy). */
export const OWN_SCRIPT_WRITER = "You";

/** A line that is only three or more dashes: a scene break. */
const DASH_LINE = /^[ \t]*-{3,}[ \t]*$/;

/**
 * "100000" -> "100,000", as `toLocaleString("en-US")` writes a whole number. Not toLocaleString itself: this module
 * is evaluated by /create before it hydrates, and the first Intl number format a page makes loads ICU's data
 * (about 10 ms of main thread on a fast machine; issue 36, decision 134).
 */
const withThousands = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

export const OWN_SCRIPT_MESSAGES = {
  empty: "The script is empty. Type, paste or load the words the video should say.",
  tooLong: `The script is too long: at most ${withThousands(OWN_SCRIPT_MAX_CHARS)} characters are accepted.`,
  binary: "The script must be plain text (a .txt or .md file). This looks like a binary file.",
} as const;

export type OwnScriptProblem = { status: 400 | 413; message: string };

/** Line endings as \n, no byte-order mark, no trailing spaces at line ends, no blank lines at either end. */
export function normaliseOwnScript(text: string): string {
  return text
    .replace(/^\uFEFF/, "")
    .replace(/\r\n?/g, "\n")
    .replace(/[ \t]+$/gm, "")
    .replace(/^\n+|\n+$/g, "");
}

/**
 * Looks like the bytes of a binary file read as text: a NUL, a control character other than tab and line breaks,
 * or undecodable bytes (U+FFFD, what a decoder makes of bytes that are not UTF-8).
 */
export function looksBinary(text: string): boolean {
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u0008\u000B\u000E-\u001F\u007F\uFFFD]/.test(text);
}

/** Why this text cannot be saved as a script (null: it can). */
export function ownScriptProblem(text: string): OwnScriptProblem | null {
  if (looksBinary(text)) return { status: 400, message: OWN_SCRIPT_MESSAGES.binary };
  if (text.length > OWN_SCRIPT_MAX_CHARS) return { status: 413, message: OWN_SCRIPT_MESSAGES.tooLong };
  if (!scriptSections(text).length) return { status: 400, message: OWN_SCRIPT_MESSAGES.empty };
  return null;
}

/**
 * The parts of the script the creator wants as scenes of their own: cut at every blank line and at every line
 * that is only `---`. Each part's whitespace is collapsed to single spaces (the words are kept exactly).
 */
export function scriptSections(text: string): string[] {
  const sections: string[] = [];
  let current: string[] = [];
  const close = () => {
    const joined = current.join(" ").replace(/\s+/g, " ").trim();
    if (joined) sections.push(joined);
    current = [];
  };
  for (const line of text.replace(/\r\n?/g, "\n").split("\n")) {
    if (!line.trim() || DASH_LINE.test(line)) close();
    else current.push(line);
  }
  close();
  return sections;
}

/** Words of the script, the break lines left out. */
export function ownScriptWords(text: string): number {
  return scriptSections(text).reduce((sum, s) => sum + s.split(" ").length, 0);
}

/** The script as one line of words (breaks and line ends as spaces): what the voiceovers say, in order. */
export function spokenWords(text: string): string {
  return scriptSections(text).join(" ");
}

/**
 * How many scenes each section becomes when the storyboard is split: the planned count shared out by words,
 * at least one per section (a section is never merged with another).
 */
export function scenesPerSection(sections: string[], plannedScenes: number): number[] {
  const words = sections.map((s) => s.split(/\s+/).filter(Boolean).length);
  const total = words.reduce((a, b) => a + b, 0) || 1;
  return words.map((w) => Math.max(1, Math.round((Math.max(1, plannedScenes) * w) / total)));
}

export type SpokenLength = {
  words: number;
  /** seconds of the finished video: speech at the voice's pace and speed, plus the pause after each scene */
  seconds: number;
  scenes: number;
  /** how it compares with the chosen duration (within LENGTH_TOLERANCE: "about") */
  verdict: "about" | "longer" | "shorter";
};

/** A spoken length within this share of the chosen duration is "about right". */
export const LENGTH_TOLERANCE = 0.1;

/**
 * The video length the script makes when `wordsPerSecond` (the voice's measured or typical pace, the same figure
 * the narration fit plans with: app/lib/narration.ts) reads it at `speed`, with the pause the timeline puts after
 * every scene. The inverse of planNarration.
 */
export function spokenLength(input: { text: string; wordsPerSecond: number; speed: number; plannedScenes: number; durationSeconds: number }): SpokenLength {
  const sections = scriptSections(input.text);
  const words = sections.reduce((sum, s) => sum + s.split(" ").length, 0);
  const speed = Math.min(VOICE_SPEED_RANGE.max, Math.max(VOICE_SPEED_RANGE.min, input.speed || 1));
  const scenes = sections.length > 1 ? scenesPerSection(sections, input.plannedScenes).reduce((a, b) => a + b, 0) : Math.max(1, input.plannedScenes);
  const speech = words / (Math.max(0.1, input.wordsPerSecond) * speed);
  const seconds = words ? speech + Math.min(scenes, words) * PAUSE_BETWEEN_SCENES_SECONDS : 0;
  const ratio = seconds / Math.max(1, input.durationSeconds);
  const verdict = Math.abs(ratio - 1) <= LENGTH_TOLERANCE ? "about" : ratio > 1 ? "longer" : "shorter";
  return { words, seconds, scenes: words ? Math.min(scenes, words) : 0, verdict };
}

/** "1:05" / "12:00": a length in minutes and seconds. */
export function formatLength(seconds: number): string {
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

/** The sentence under the editor: words, spoken length, and how it compares with the chosen duration. */
export function lengthSentence(length: SpokenLength, durationSeconds: number): string {
  if (!length.words) return "No words yet.";
  const head = `${length.words} ${length.words === 1 ? "word" : "words"}, about ${formatLength(length.seconds)} spoken`;
  const asked = formatLength(durationSeconds);
  if (length.verdict === "about") return `${head}: about the ${asked} you chose.`;
  return `${head}: ${length.verdict} than the ${asked} you chose.`;
}

// ---- an edited script against the storyboard it was split into ----

export type EditedScene = {
  /** the scene's words */
  text: string;
  /** the index of the storyboard scene it keeps (its picture and voiceover), or null: a new scene */
  keeps: number | null;
};

export type ScriptEditPlan = {
  scenes: EditedScene[];
  /** old scenes (indexes) that are not kept: their text changed or went */
  changed: number[];
  /** old scenes kept, with where they move to */
  kept: { from: number; to: number }[];
};

const BREAK = "\u2029";

function tokens(text: string): string[] {
  return scriptSections(text).flatMap((section, i) => (i ? [BREAK, ...section.split(" ")] : section.split(" ")));
}

function findRun(haystack: string[], needle: string[], from: number): number {
  if (!needle.length) return -1;
  outer: for (let i = from; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/**
 * Which scenes of the storyboard an edited script keeps: each old scene whose words appear unchanged, in order, in
 * the new script keeps its picture and voiceover; the words between kept scenes become new scenes (cut at the
 * script's breaks, then by `split` into about `wordsPerScene` words each). Old scenes not found are changed.
 */
export function planScriptEdit(
  oldScenes: string[],
  newScript: string,
  options: { wordsPerScene: number; split?: (text: string, sceneCount: number) => string[] },
): ScriptEditPlan {
  const words = tokens(newScript);
  const scenes: EditedScene[] = [];
  const changed: number[] = [];
  const split = options.split ?? ((text: string) => [text]);
  const addGap = (gap: string[]) => {
    const sections = gap
      .join(" ")
      .split(BREAK)
      .map((s) => s.replace(/\s+/g, " ").trim())
      .filter(Boolean);
    for (const section of sections) {
      const n = Math.max(1, Math.round(section.split(" ").length / Math.max(1, options.wordsPerScene)));
      for (const text of n > 1 ? split(section, n) : [section]) scenes.push({ text, keeps: null });
    }
  };
  let at = 0;
  oldScenes.forEach((old, index) => {
    const needle = old.replace(/\s+/g, " ").trim().split(" ").filter(Boolean);
    const found = findRun(words, needle, at);
    if (found < 0) {
      changed.push(index);
      return;
    }
    addGap(words.slice(at, found));
    scenes.push({ text: needle.join(" "), keeps: index });
    at = found + needle.length;
  });
  addGap(words.slice(at));
  const kept = scenes.flatMap((s, to) => (s.keeps === null ? [] : [{ from: s.keeps, to }]));
  return { scenes, changed, kept };
}

/** "scenes 1, 2 and 5": 1-based scene numbers in words. */
export function sceneList(indexes: number[]): string {
  const numbers = indexes.map((i) => String(i + 1));
  const list = numbers.length > 1 ? `${numbers.slice(0, -1).join(", ")} and ${numbers.at(-1)}` : (numbers[0] ?? "");
  return `${numbers.length === 1 ? "scene" : "scenes"} ${list}`;
}
