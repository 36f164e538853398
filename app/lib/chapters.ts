// Chapters for the video's description (issue 37), by YouTube's rules ("Add chapters to your videos",
// support.google.com/youtube/answer/9884579): the first timestamp is 0:00, there are at least three, in ascending
// order, and each chapter lasts at least 10 seconds. Built from the scenes (their starts as the video places them,
// app/lib/timeline/timing.ts), with a short title from each chapter's first scene; scenes shorter than a chapter may be
// are joined to the one before. Pure: shared by the server (the written description) and the browser (the
// pre-flight check of whatever the creator typed).
import { sceneBoundaries } from "./timeline/timing";

export const CHAPTER_RULES = { minChapters: 3, minChapterSeconds: 10, titleWords: 6, titleChars: 48, targetChapters: 10 } as const;

export type Chapter = { startSeconds: number; title: string };

/** 0:00, 1:05, 1:02:03: the way YouTube reads timestamps in a description. */
export function chapterTimestamp(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${rest}` : `${m}:${rest}`;
}

/** A scene's title: its first clause, at most six words, without the closing punctuation. */
export function sceneTitle(text: string): string {
  const first = text.trim().split(/(?<=[.!?…:;,])\s+/)[0] ?? "";
  const words = first.split(/\s+/).filter(Boolean);
  let title = words.slice(0, CHAPTER_RULES.titleWords).join(" ");
  if (title.length > CHAPTER_RULES.titleChars) title = title.slice(0, CHAPTER_RULES.titleChars).replace(/\s+\S*$/, "");
  title = title.replace(/[\s.,;:!?…"'“”‘’()[\]-]+$/u, "").replace(/^["'“‘(]+/u, "");
  // a line of its own in the description: no markup, no timestamps of its own
  title = title.replace(/[<>]/g, "").replace(/\b\d{1,2}:\d{2}\b/g, "").trim();
  return title ? title.charAt(0).toUpperCase() + title.slice(1) : "";
}

/**
 * Chapters from the scenes, or none when the video is too short for three chapters of 10 seconds. Consecutive scenes
 * are joined until a chapter lasts at least 10 seconds (longer for a long video, so there are about ten chapters),
 * and a short last chapter is joined to the one before.
 */
export function chaptersFromScenes(scenes: readonly { text: string; audioDurationInSeconds: number }[], fps: number): Chapter[] {
  if (!scenes.length) return [];
  const bounds = sceneBoundaries(
    scenes.map((s) => s.audioDurationInSeconds),
    fps,
  ).map((frame) => frame / fps);
  const total = bounds.at(-1)!;
  const minLength = Math.max(CHAPTER_RULES.minChapterSeconds, total / CHAPTER_RULES.targetChapters);
  if (total < CHAPTER_RULES.minChapters * CHAPTER_RULES.minChapterSeconds) return [];
  const chapters: { start: number; end: number; title: string }[] = [];
  scenes.forEach((scene, i) => {
    const start = bounds[i]!;
    const end = bounds[i + 1]!;
    const open = chapters.at(-1);
    if (open && open.end - open.start < minLength) open.end = end;
    else chapters.push({ start, end, title: sceneTitle(scene.text) || `Part ${chapters.length + 1}` });
  });
  while (chapters.length > 1 && chapters.at(-1)!.end - chapters.at(-1)!.start < minLength) {
    const last = chapters.pop()!;
    chapters.at(-1)!.end = last.end;
  }
  // YouTube counts whole seconds: each chapter's shown start is floored, so check what the viewer's player will see
  const result = chapters.map((c) => ({ startSeconds: Math.floor(c.start), title: c.title }));
  return validateChapters(result, total).valid ? result : [];
}

export const chapterLines = (chapters: readonly Chapter[]) => chapters.map((c) => `${chapterTimestamp(c.startSeconds)} ${c.title}`);

/** The timestamps a description holds, in order of their lines: "0:00 Intro", "1:05 - Part two", "(2:30) End". */
export function chaptersInDescription(description: string): Chapter[] {
  const chapters: Chapter[] = [];
  for (const line of description.split(/\r?\n/)) {
    const match = /^\s*[([]?((?:\d{1,2}:)?\d{1,2}:\d{2})[)\]]?\s*[-–—:]?\s*(.*)$/.exec(line);
    if (!match) continue;
    const parts = match[1]!.split(":").map(Number);
    const seconds = parts.reduce((n, p) => n * 60 + p, 0);
    chapters.push({ startSeconds: seconds, title: match[2]!.trim() });
  }
  return chapters;
}

export type ChapterCheck = { present: boolean; valid: boolean; reason: string | null };

/** YouTube's rules for a list of chapters in a video of `durationSeconds`. */
export function validateChapters(chapters: readonly Chapter[], durationSeconds: number): ChapterCheck {
  if (!chapters.length) return { present: false, valid: true, reason: null };
  if (chapters[0]!.startSeconds !== 0) return { present: true, valid: false, reason: "The first chapter must start at 0:00." };
  if (chapters.length < CHAPTER_RULES.minChapters) return { present: true, valid: false, reason: `YouTube needs at least ${CHAPTER_RULES.minChapters} chapters; the description has ${chapters.length}.` };
  for (let i = 0; i < chapters.length; i++) {
    const start = chapters[i]!.startSeconds;
    const end = i + 1 < chapters.length ? chapters[i + 1]!.startSeconds : durationSeconds;
    if (end <= start) return { present: true, valid: false, reason: `Chapter ${chapterTimestamp(start)} is out of order: timestamps must go up.` };
    if (end - start < CHAPTER_RULES.minChapterSeconds) {
      return { present: true, valid: false, reason: `Chapter ${chapterTimestamp(start)} lasts ${Math.round(end - start)} s; each chapter must last at least ${CHAPTER_RULES.minChapterSeconds} s.` };
    }
    if (start >= durationSeconds) return { present: true, valid: false, reason: `Chapter ${chapterTimestamp(start)} starts after the video ends.` };
  }
  return { present: true, valid: true, reason: null };
}

/**
 * The description with the chapter lines at its end (replacing any chapter lines it held), within `maxChars`: the
 * chapters stay whole and the text before them is cut (at a word) when both do not fit.
 */
export function withChapters(description: string, chapters: readonly Chapter[], maxChars = Infinity): string {
  let body = description
    .split(/\r?\n/)
    .filter((line) => !/^\s*[([]?(?:\d{1,2}:)?\d{1,2}:\d{2}[)\]]?(?:\s|$)/.test(line) && !/^\s*Chapters:\s*$/.test(line))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trimEnd();
  if (!chapters.length) return body;
  const block = `Chapters:\n${chapterLines(chapters).join("\n")}`;
  const room = maxChars - block.length - 2;
  if (body.length > room) {
    const cut = body.slice(0, Math.max(0, room));
    const space = cut.lastIndexOf(" ");
    body = (space > room - 200 ? cut.slice(0, space) : cut).trimEnd();
  }
  return body ? `${body}\n\n${block}` : block;
}
