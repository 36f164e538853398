import { Clock } from "lucide-react";
import { DEFAULT_RENDER_STAGE, formatElapsed, type RenderProgress } from "~/lib/render-progress";

export function RenderProgressPanel({ progress }: { progress: RenderProgress }) {
  const percent = Math.max(0, Math.min(100, Math.round(progress.progress)));
  return (
    <section aria-label="Render progress" className="space-y-3 rounded-xl border border-slate-800 bg-slate-950 p-5">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-semibold" data-testid="render-stage">
          {progress.stage || DEFAULT_RENDER_STAGE}
        </p>
        <p className="flex items-center gap-1 text-sm text-slate-400">
          <Clock className="h-4 w-4" aria-hidden /> Elapsed: <span data-testid="render-elapsed">{formatElapsed(progress.elapsedTime)}</span>
        </p>
      </div>
      <div className="flex items-center gap-3">
        <div
          role="progressbar"
          aria-label="Render progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          className="h-3 flex-1 overflow-hidden rounded-full bg-slate-800"
        >
          <div className="h-full rounded-full bg-brand transition-all" style={{ width: `${percent}%` }} />
        </div>
        <span className="w-12 text-right font-mono text-sm" data-testid="render-percent">
          {percent}%
        </span>
      </div>
      {progress.step ? <p className="text-sm text-slate-300">{progress.step}</p> : null}
      {progress.details ? <p className="text-sm text-slate-400">{progress.details}</p> : null}
    </section>
  );
}
