// The project's narration on /script (issue 24): its language, voice and speed (changeable here: new voiceovers
// use them), and the note when the offline writer writes English instead of the project's language.
import { useRevalidator } from "@remix-run/react";
import { useMutation } from "@tanstack/react-query";
import { Info } from "lucide-react";
import { useState } from "react";
import { NarrationFields } from "~/components/create/narration-fields";
import { Button } from "~/components/ui/button";
import { toast } from "~/hooks/use-toast";
import { apiRequest, serverMessage } from "~/lib/api-client";
import { formatVoiceSpeed } from "~/lib/voice-speed";
import type { ProjectNarration } from "~/server/voices.server";

export function NarrationSummary({ narration }: { narration: ProjectNarration }) {
  const [editing, setEditing] = useState(false);
  const [language, setLanguage] = useState(narration.language);
  const [voiceId, setVoiceId] = useState(narration.voiceId ?? "");
  const [voiceSpeed, setVoiceSpeed] = useState(narration.voiceSpeed);
  const revalidator = useRevalidator();
  const save = useMutation({
    mutationFn: () => apiRequest<ProjectNarration>("PUT", `/api/projects/${narration.projectId}/narration`, { language, voiceId: voiceId || null, voiceSpeed }),
    onSuccess: () => {
      toast({ title: "Narration Saved", description: "New voiceovers use this language, voice and speed." });
      setEditing(false);
      revalidator.revalidate();
    },
    onError: (error) => toast({ title: "Save Failed", description: serverMessage(error), variant: "destructive" }),
  });

  return (
    <div className="mb-6 grid gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-slate-400" data-testid="narration-summary">
          Narration: <span className="text-slate-200">{narration.languageLabel}</span> · voice{" "}
          <span className="text-slate-200">{narration.voiceName}</span> · speed <span className="text-slate-200">{formatVoiceSpeed(narration.voiceSpeed)}</span>
        </p>
        {!editing ? (
          <Button variant="outline" size="sm" onClick={() => setEditing(true)}>
            Change Narration
          </Button>
        ) : null}
      </div>
      {editing ? (
        <div className="grid gap-3 rounded-xl border border-slate-800 bg-slate-900 p-4">
          <NarrationFields
            language={language}
            voiceId={voiceId}
            voiceSpeed={voiceSpeed}
            onLanguage={setLanguage}
            onVoice={setVoiceId}
            onSpeed={setVoiceSpeed}
          />
          <div className="flex gap-2">
            <Button onClick={() => save.mutate()} disabled={save.isPending}>
              {save.isPending ? "Saving..." : "Save Narration"}
            </Button>
            <Button variant="ghost" onClick={() => setEditing(false)} disabled={save.isPending}>
              Cancel
            </Button>
          </div>
          <p className="text-xs text-slate-400">New voiceovers use these settings; a script already written keeps its language until you generate it again.</p>
        </div>
      ) : null}
      {narration.scriptNote ? (
        <div role="note" className="flex items-start gap-3 rounded-xl border border-amber-700 bg-amber-950 p-4 text-sm text-amber-100">
          <Info className="mt-0.5 h-5 w-5 shrink-0 text-amber-400" aria-hidden />
          <p>{narration.scriptNote}</p>
        </div>
      ) : null}
    </div>
  );
}
