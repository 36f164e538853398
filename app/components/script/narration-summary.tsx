// The project's narration on /script (issue 24): its language, voice and speed, and the note when the offline
// writer writes English instead of the project's language.
import { Info } from "lucide-react";
import { formatVoiceSpeed } from "~/lib/voice-speed";
import type { ProjectNarration } from "~/server/voices.server";

export function NarrationSummary({ narration }: { narration: ProjectNarration }) {
  return (
    <div className="mb-6 grid gap-3">
      <p className="text-sm text-slate-400" data-testid="narration-summary">
        Narration: <span className="text-slate-200">{narration.languageLabel}</span> · voice{" "}
        <span className="text-slate-200">{narration.voiceName}</span> · speed <span className="text-slate-200">{formatVoiceSpeed(narration.voiceSpeed)}</span>
      </p>
      {narration.scriptNote ? (
        <div role="note" className="flex items-start gap-3 rounded-xl border border-amber-700 bg-amber-950 p-4 text-sm text-amber-100">
          <Info className="mt-0.5 h-5 w-5 shrink-0 text-amber-400" aria-hidden />
          <p>{narration.scriptNote}</p>
        </div>
      ) : null}
    </div>
  );
}
