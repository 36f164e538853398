// The line under an own script (issue 33): its words, how long the chosen voice takes to read them at the chosen
// speed, and how that compares with the chosen duration. Announced politely as it changes.
import { Clock } from "lucide-react";
import { lengthSentence, spokenLength } from "~/lib/own-script";
import { sceneCountFor } from "~/lib/storyboard";
import type { ResolutionValue } from "~/lib/video-format";
import { useSpeakingPace } from "./use-speaking-pace";

export function ScriptLength(props: { text: string; durationSeconds: number; resolution: ResolutionValue; language: string; voiceId: string | null; voiceSpeed: number }) {
  const pace = useSpeakingPace(props.language, props.voiceId);
  const plannedScenes = sceneCountFor(props.resolution, props.durationSeconds);
  const length =
    pace.wordsPerSecond === null
      ? null
      : spokenLength({ text: props.text, wordsPerSecond: pace.wordsPerSecond, speed: props.voiceSpeed, plannedScenes, durationSeconds: props.durationSeconds });
  const tone = !length || !length.words || length.verdict === "about" ? "text-slate-300" : "text-amber-300";
  return (
    <p data-testid="script-length" aria-live="polite" className={`flex items-start gap-2 text-sm ${tone}`}>
      <Clock className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
      <span>
        {length ? lengthSentence(length, props.durationSeconds) : "Timing the chosen voice..."}
        {length && length.words && length.verdict !== "about" ? " Change the words, the duration or the voice speed, or keep it: your words are never cut to fit." : null}
      </span>
    </p>
  );
}
