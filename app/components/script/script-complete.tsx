import { Link } from "@remix-run/react";
import { Download, Film, PenLine } from "lucide-react";
import { Button } from "~/components/ui/button";
import { scriptBadges, scriptWriterLine } from "~/lib/provenance";
import { countWords, minutesForWords } from "~/lib/script";

/** The finished script: title, badges, text, and the next steps. */
export function ScriptComplete(props: {
  title: string;
  script: string;
  onDownload: () => void;
  onGenerateStoryboard: () => void;
  storyboardBusy: boolean;
  /** The provider that wrote it, by name (null: not recorded). */
  writtenBy: string | null;
  /** Opens Edit Script (absent: the script cannot be edited here now). */
  onEdit?: () => void;
  /** The server cannot be reached: no action is offered until it answers. */
  disabled?: boolean;
}) {
  const words = countWords(props.script);
  return (
    <section className="grid gap-6">
      <div>
        <h2 className="text-2xl font-bold">{props.title}</h2>
        <ul className="mt-3 flex flex-wrap gap-2" aria-label="Script checks">
          {scriptBadges(props.writtenBy).map((badge) => (
            <li key={badge} className="rounded-full bg-emerald-900/60 px-3 py-1 text-xs font-medium text-emerald-200">
              {badge}
            </li>
          ))}
        </ul>
        <p className="mt-3 text-sm text-slate-400" data-testid="script-writer">
          {scriptWriterLine(props.writtenBy)}{" "}
          <Link to="/settings" className="text-violet-300 underline">
            Choose the writer in Settings
          </Link>
        </p>
      </div>
      <article data-testid="script-text" className="max-h-[60vh] overflow-y-auto whitespace-pre-wrap rounded-xl border border-slate-800 bg-slate-900 p-6 leading-relaxed">
        {props.script}
      </article>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <p className="text-sm text-slate-400">
          {words} words ({minutesForWords(words)} mins video duration)
        </p>
        <div className="flex flex-wrap gap-3">
          {props.onEdit ? (
            <Button variant="outline" onClick={props.onEdit}>
              <PenLine className="h-4 w-4" aria-hidden /> Edit Script
            </Button>
          ) : null}
          <Button variant="outline" onClick={props.onDownload}>
            <Download className="h-4 w-4" aria-hidden /> Download Script
          </Button>
          <Button onClick={props.onGenerateStoryboard} disabled={props.storyboardBusy || props.disabled}>
            <Film className="h-4 w-4" aria-hidden /> Generate Storyboard
          </Button>
        </div>
      </div>
    </section>
  );
}
