import { Loader2, Wand2 } from "lucide-react";
import { Button } from "~/components/ui/button";
import type { GenerateAllProgress } from "../../../workflows/shared/scene-media";
import { generateAllRunningLine } from "./generate-all-summary";

/** The 'Generate All Content' bar: what is missing, the button, and the run's progress. */
export function GenerateAllBar(props: {
  missingImages: number;
  missingVoiceovers: number;
  progress: (GenerateAllProgress & { running: boolean }) | null;
  starting: boolean;
  onGenerateAll: () => void;
}) {
  const running = props.progress?.running ?? false;
  const nothingMissing = props.missingImages === 0 && props.missingVoiceovers === 0;
  const p = props.progress;
  return (
    <section aria-label="Generate All Content" className="flex flex-wrap items-center justify-between gap-4 rounded-xl border border-slate-800 bg-slate-900 p-4">
      <div className="text-sm">
        {running && p ? (
          <p role="status">{generateAllRunningLine(p)}</p>
        ) : nothingMissing ? (
          <p>Every scene has its image and voiceover.</p>
        ) : (
          <p>
            {props.missingImages} {props.missingImages === 1 ? "scene needs an image" : "scenes need an image"}, {props.missingVoiceovers}{" "}
            {props.missingVoiceovers === 1 ? "needs a voiceover" : "need a voiceover"}.
          </p>
        )}
      </div>
      <Button onClick={props.onGenerateAll} disabled={running || props.starting || nothingMissing}>
        {running || props.starting ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden /> : <Wand2 className="h-4 w-4" aria-hidden />}
        Generate All Content
      </Button>
    </section>
  );
}
