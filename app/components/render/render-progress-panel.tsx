import { CheckCircle2, Circle, Clock, Hourglass, Loader2, RotateCcw } from "lucide-react";
import { useRef } from "react";
import { trackProgress, type ProgressTrack } from "~/lib/render-eta";
import { DEFAULT_RENDER_STAGE, formatElapsed, type RenderProgress } from "~/lib/render-progress";
import { cn } from "~/lib/utils";
import { renderSteps } from "./render-view";

export function RenderProgressPanel({ progress, lastKnown = false }: { progress: RenderProgress; lastKnown?: boolean }) {
  // the percent never moves back within a render; the time left from a tenth on (app/lib/render-eta.ts)
  const track = useRef<ProgressTrack | null>(null);
  if (typeof progress.elapsedTime === "number" && progress.isActive) {
    track.current = trackProgress(track.current, { percent: progress.progress, elapsedSeconds: progress.elapsedTime });
  }
  const shown = progress.isActive && track.current ? track.current : null;
  const percent = Math.max(0, Math.min(100, Math.round(shown?.percent ?? progress.progress)));
  const remaining = shown?.remainingSeconds ?? null;
  const attempt = progress.attempt ?? 1;
  return (
    <section aria-label="Render progress" className={cn("space-y-3 rounded-xl border border-slate-800 bg-slate-950 p-5", lastKnown && "opacity-60")}>
      {lastKnown ? <p className="text-sm text-amber-200">Last progress received before the connection was lost:</p> : null}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-semibold" data-testid="render-stage">
          {progress.stage || DEFAULT_RENDER_STAGE}
        </p>
        <p className="flex items-center gap-1 text-sm text-slate-400">
          <Clock className="h-4 w-4" aria-hidden /> Elapsed: <span data-testid="render-elapsed">{formatElapsed(progress.elapsedTime)}</span>
          {remaining !== null ? (
            <>
              <Hourglass className="ml-3 h-4 w-4" aria-hidden /> About <span data-testid="render-remaining">{formatElapsed(remaining)}</span> left
            </>
          ) : null}
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
      <ol aria-label="Render steps" className="grid gap-1 text-sm sm:grid-cols-3">
        {renderSteps(progress).map((step, i) => (
          <li
            key={step.label}
            data-state={step.state}
            className={cn("flex items-center gap-1.5", step.state === "todo" ? "text-slate-500" : step.state === "current" ? "text-white" : "text-emerald-300")}
          >
            {step.state === "done" ? (
              <CheckCircle2 className="h-4 w-4" aria-hidden />
            ) : step.state === "current" ? (
              <Loader2 className="h-4 w-4 animate-spin" aria-hidden />
            ) : (
              <Circle className="h-4 w-4" aria-hidden />
            )}
            Step {i + 1}: {step.label}
          </li>
        ))}
      </ol>
      {progress.step ? <p className="text-sm text-slate-300">{progress.step}</p> : null}
      {progress.details ? <p className="text-sm text-slate-400">{progress.details}</p> : null}
      {attempt > 1 ? (
        <p data-testid="render-resumed" className="flex items-center gap-1.5 text-sm text-amber-200">
          <RotateCcw className="h-4 w-4" aria-hidden /> Resumed after an interruption (attempt {attempt}): a worker stopped mid-render and another took it over.
        </p>
      ) : null}
    </section>
  );
}
