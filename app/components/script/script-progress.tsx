import type { ScriptProgress } from "../../../workflows/shared/script";

const PHASE_LABELS: Record<ScriptProgress["phase"], string> = {
  initializing: "Getting ready",
  generating_chunks: "Writing the script",
  expanding_chunks: "Expanding short parts",
  proofreading: "Timing and proofreading",
};

/** The progress view while a script is being written. */
export function ScriptProgressView({ title, progress }: { title: string; progress: ScriptProgress | null | undefined }) {
  const percent = progress?.percentComplete ?? 0;
  return (
    <section aria-label="Script generation progress" className="rounded-xl border border-slate-800 bg-slate-900 p-6">
      <h2 className="text-xl font-semibold">Generating script for “{title}”</h2>
      <p className="mt-1 text-slate-400">{progress?.stage ?? "Starting script generation..."}</p>
      <div className="mt-6 flex items-center justify-between text-sm">
        <span>{progress ? PHASE_LABELS[progress.phase] : PHASE_LABELS.initializing}</span>
        <span data-testid="script-percent">{percent}%</span>
      </div>
      <div className="mt-2 h-3 overflow-hidden rounded-full bg-slate-800" role="progressbar" aria-valuenow={percent} aria-valuemin={0} aria-valuemax={100}>
        <div className="h-full rounded-full bg-brand transition-all" style={{ width: `${percent}%` }} />
      </div>
      {progress ? (
        <dl className="mt-6 grid grid-cols-2 gap-4 text-sm sm:grid-cols-4">
          <div>
            <dt className="text-slate-400">Part</dt>
            <dd>
              {progress.currentChunk} of {progress.totalChunks}
            </dd>
          </div>
          <div>
            <dt className="text-slate-400">Words</dt>
            <dd>
              {progress.currentWords} / {progress.targetWords}
            </dd>
          </div>
          <div>
            <dt className="text-slate-400">Phase</dt>
            <dd>{progress.phase}</dd>
          </div>
          {progress.expansionAttempt > 0 ? (
            <div>
              <dt className="text-slate-400">Expansion attempt</dt>
              <dd>{progress.expansionAttempt}</dd>
            </div>
          ) : null}
        </dl>
      ) : null}
    </section>
  );
}
