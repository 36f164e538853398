// The outline /create offers when no text model is set (issue 48): the creator's own words come first, in parts
// sized to the duration (a hook, the points, a close), each with a hint of what belongs there and about how many
// words fit. Filled parts join into an own script, one part per scene break. Pure: no I/O.
import { planNarration } from "./narration";
import { sceneCountFor } from "./storyboard";
import type { ResolutionValue } from "./video-format";

export type OutlinePartKind = "hook" | "point" | "close";

export type OutlinePart = {
  kind: OutlinePartKind;
  /** "Hook", "Point 2", "Close" */
  label: string;
  /** what belongs in this part, in a sentence */
  hint: string;
  /** about how many words fit, so the whole outline reads in the chosen duration */
  words: number;
};

/** The most points an outline offers: a long video's points get several paragraphs each rather than more fields. */
export const OUTLINE_MAX_POINTS = 7;

const HINTS: Record<OutlinePartKind, string> = {
  hook: "Open with the most surprising fact, or the question the video answers. No greeting: viewers decide in the first seconds.",
  point: "One idea, made concrete: an example, a number or a short story a viewer can picture.",
  close: "Sum it up in a line, then say what to do next: comment, follow, or watch the next video.",
};

/** How many points a video of this length holds: the planned scenes less the hook and the close, within 1..7. */
export function outlinePointCount(resolution: ResolutionValue, durationSeconds: number): number {
  return Math.min(OUTLINE_MAX_POINTS, Math.max(1, sceneCountFor(resolution, durationSeconds) - 2));
}

/**
 * The outline for a video of `durationSeconds` read at `wordsPerSecond` and `speed`: the hook takes about a tenth of
 * the words (at least 8), the close about an eighth (at least 10), the points share the rest evenly.
 */
export function scriptOutline(input: { resolution: ResolutionValue; durationSeconds: number; wordsPerSecond: number; speed?: number }): OutlinePart[] {
  const points = outlinePointCount(input.resolution, input.durationSeconds);
  const { targetWords } = planNarration({ durationSeconds: input.durationSeconds, sceneCount: points + 2, wordsPerSecond: input.wordsPerSecond, speed: input.speed });
  const hook = Math.max(8, Math.round(targetWords * 0.1));
  const close = Math.max(10, Math.round(targetWords * 0.125));
  const perPoint = Math.max(10, Math.round((targetWords - hook - close) / points));
  return [
    { kind: "hook", label: "Hook", hint: HINTS.hook, words: hook },
    ...Array.from({ length: points }, (_, i): OutlinePart => ({ kind: "point", label: `Point ${i + 1}`, hint: HINTS.point, words: perPoint })),
    { kind: "close", label: "Close", hint: HINTS.close, words: close },
  ];
}

/**
 * The own script the filled parts make: each filled part is a scene of its own (a `---` line between parts, which
 * keeps a part's own blank lines as further breaks); empty parts are left out. The words are not changed.
 */
export function outlineScript(filled: readonly string[]): string {
  return filled
    .map((text) => text.trim())
    .filter(Boolean)
    .join("\n---\n");
}
