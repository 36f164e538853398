// /create with no text model (issue 48): the creator's own words first, as an outline to fill: a hook, the points
// and a close, each with a hint and about how many words fit the chosen duration. The filled parts are the script,
// read exactly as written; "Edit as one text" hands them to the plain editor.
import { useId } from "react";
import { Button } from "~/components/ui/button";
import { Textarea } from "~/components/ui/textarea";
import { TYPICAL_CLOUD_WORDS_PER_SECOND } from "~/lib/narration";
import { countWords } from "~/lib/script";
import { outlineScript, scriptOutline, type OutlinePart } from "~/lib/script-outline";
import type { ResolutionValue } from "~/lib/video-format";
import { ScriptLength } from "~/components/script/script-length";
import { useSpeakingPace } from "~/components/script/use-speaking-pace";

/** The outline's filled parts by key ("hook", "point-1", ..., "close"). */
export type OutlineValues = Record<string, string>;

const keyOf = (part: OutlinePart, index: number) => (part.kind === "point" ? `point-${index}` : part.kind);

/**
 * The parts shown: the outline for the duration, plus any point the creator already filled past it (a shorter
 * duration chosen after typing hides no words).
 */
function shownParts(outline: OutlinePart[], values: OutlineValues): { key: string; part: OutlinePart }[] {
  const points = outline.filter((p) => p.kind === "point");
  const filledPoints = Object.keys(values)
    .filter((k) => k.startsWith("point-") && values[k]?.trim())
    .map((k) => Number(k.slice(6)));
  const pointCount = Math.max(points.length, ...filledPoints);
  const point = points[0]!;
  return [
    { key: "hook", part: outline[0]! },
    ...Array.from({ length: pointCount }, (_, i) => ({ key: keyOf(point, i + 1), part: { ...point, label: `Point ${i + 1}` } })),
    { key: "close", part: outline.at(-1)! },
  ];
}

/** The script the filled outline makes, parts in order. */
export function scriptFromOutline(values: OutlineValues): string {
  const points = Object.keys(values)
    .filter((k) => k.startsWith("point-"))
    .sort((a, b) => Number(a.slice(6)) - Number(b.slice(6)))
    .map((k) => values[k] ?? "");
  return outlineScript([values.hook ?? "", ...points, values.close ?? ""]);
}

export function ScriptOutlineFields(props: {
  values: OutlineValues;
  onChange: (next: OutlineValues) => void;
  /** switch to the plain editor with the outline's words */
  onWholeText: () => void;
  durationSeconds: number;
  resolution: ResolutionValue;
  language: string;
  voiceId: string | null;
  voiceSpeed: number;
}) {
  const id = useId();
  const pace = useSpeakingPace(props.language, props.voiceId);
  const outline = scriptOutline({
    resolution: props.resolution,
    durationSeconds: props.durationSeconds,
    wordsPerSecond: pace.wordsPerSecond ?? TYPICAL_CLOUD_WORDS_PER_SECOND,
    speed: props.voiceSpeed,
  });
  const script = scriptFromOutline(props.values);

  return (
    <div role="group" data-testid="script-outline" className="grid gap-4" aria-labelledby={`${id}-title`} aria-describedby={`${id}-about`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span id={`${id}-title`} className="text-sm font-medium">
          Script outline
        </span>
        <Button type="button" variant="outline" size="sm" onClick={props.onWholeText}>
          Edit as one text
        </Button>
      </div>
      <p id={`${id}-about`} className="-mt-2 text-xs text-slate-400">
        Each part becomes at least one scene and is read exactly as you write it. The word counts fit the duration you chose; leave a part empty to skip it.
      </p>
      {shownParts(outline, props.values).map(({ key, part }) => {
        const text = props.values[key] ?? "";
        const words = countWords(text);
        return (
          <div key={key} className="grid gap-1.5">
            <div className="flex items-baseline justify-between gap-2">
              <label htmlFor={`${id}-${key}`} className="text-sm font-semibold text-slate-200">
                {part.label}
              </label>
              <span className={`text-xs tabular-nums ${words > part.words * 1.5 ? "text-amber-300" : "text-slate-400"}`}>
                {words} of about {part.words} words
              </span>
            </div>
            <Textarea
              id={`${id}-${key}`}
              name={`outline-${key}`}
              value={text}
              onChange={(e) => props.onChange({ ...props.values, [key]: e.target.value })}
              rows={part.kind === "point" ? 3 : 2}
              placeholder={part.hint}
              aria-describedby={`${id}-${key}-hint`}
              className="text-sm leading-relaxed"
            />
            <p id={`${id}-${key}-hint`} className="sr-only">
              {part.hint}
            </p>
          </div>
        );
      })}
      <ScriptLength
        text={script}
        durationSeconds={props.durationSeconds}
        resolution={props.resolution}
        language={props.language}
        voiceId={props.voiceId}
        voiceSpeed={props.voiceSpeed}
      />
    </div>
  );
}
