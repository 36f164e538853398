// A make-video run's stages side by side (issue 53, decision 262): each with its own status and progress, the ones
// that run at once lit together, and the time left for the whole video. Shown by "Make the whole video" on /create
// and by each running row on /batches; the data is /api/v1's Video (stages, remainingSeconds).
import { formatTimeLeft, STAGE_SHORT_NAMES, type PipelineStage, type StageCount, type StageStatus } from "~/lib/make-video-progress";

export type StripStage = { stage: PipelineStage; label: string; status: StageStatus; percent: number; count: StageCount | null };

const STATUS_STYLE: Record<StageStatus, string> = {
  running: "border-sky-500/70 bg-sky-500/10 text-sky-100",
  done: "border-emerald-600/50 bg-emerald-500/10 text-emerald-200",
  waiting: "border-slate-700 bg-slate-900 text-slate-400",
  failed: "border-red-600/70 bg-red-500/10 text-red-200",
  skipped: "border-slate-800 text-slate-600",
};

/** What the chip says after the stage's name. */
function stateText(s: StripStage): string {
  if (s.status === "running") return s.count ? `${s.count.done}/${s.count.total} ${s.count.of}` : s.percent > 0 ? `${s.percent}%` : "running";
  return s.status;
}

/** Capitalised for a sentence's start: "About 1 min 10 s left". */
const timeLeftText = (seconds: number) => {
  const text = formatTimeLeft(seconds);
  return text.charAt(0).toUpperCase() + text.slice(1);
};

export function StageStrip({ stages, remainingSeconds, compact = false }: { stages: StripStage[]; remainingSeconds: number | null; compact?: boolean }) {
  // a stage with nothing to do in this video is left out; the mix only shows once it had to run
  const shown = stages.filter((s) => s.status !== "skipped" && !(s.stage === "mix" && s.status === "waiting"));
  const running = shown.filter((s) => s.status === "running");
  const active = shown.some((s) => s.status === "running" || s.status === "waiting");
  return (
    <div className="grid gap-1.5">
      <ul className="flex flex-wrap gap-1.5" aria-label="Stages">
        {shown.map((s) => (
          <li
            key={s.stage}
            title={s.label}
            data-status={s.status}
            aria-label={`${s.label}: ${stateText(s)}`}
            className={`flex items-center gap-1.5 rounded-full border px-2 py-0.5 text-xs ${STATUS_STYLE[s.status]}`}
          >
            {s.status === "running" ? <span className="h-1.5 w-1.5 animate-pulse rounded-full bg-sky-400" aria-hidden /> : null}
            {s.status === "done" ? <span aria-hidden>✓</span> : null}
            <span className="font-medium">{STAGE_SHORT_NAMES[s.stage]}</span>
            {s.status === "done" ? null : <span className="tabular-nums opacity-80">{stateText(s)}</span>}
          </li>
        ))}
      </ul>
      {active && !compact ? (
        <p className="text-xs text-slate-400">
          {running.length > 1 ? `${running.length} stages at once · ` : ""}
          {remainingSeconds !== null ? timeLeftText(remainingSeconds) : null}
        </p>
      ) : null}
      {active && compact && remainingSeconds !== null ? <p className="text-xs text-slate-400">{timeLeftText(remainingSeconds)}</p> : null}
    </div>
  );
}
