// Scenes checked against what is said (issue 50, decision 226): "Check scenes" scores each scene's picture against
// its voiceover (Gemini's vision with the creator's key, else the offline pictures' own subjects); a scene below the
// bar is listed with the reason, and one click makes its picture again from the corrected prompt. The marks also
// show on the scene cards (sceneCheckMark).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Loader2, ScanEye, TriangleAlert } from "lucide-react";
import { useEffect, useRef } from "react";
import { Button } from "~/components/ui/button";
import { toast } from "~/hooks/use-toast";
import { apiGet, apiRequest, serverMessage } from "~/lib/api-client";

export type SceneCheckView = { cellIndex: number; imageUrl: string; score: number; passed: boolean; reason: string; suggestedPrompt: string | null; checkedBy: string };
type ChecksState = { checks: SceneCheckView[]; summary: { passed: number; checked: number; scenes: number }; running: boolean };

export const SCENE_CHECKS_KEY = ["scene-checks"];

export function useSceneChecks(enabled = true) {
  return useQuery({
    enabled,
    queryKey: SCENE_CHECKS_KEY,
    queryFn: () => apiGet<ChecksState>("/api/scene-checks"),
    refetchInterval: (q) => (q.state.data?.running ? 1500 : false),
  });
}

export function SceneCheckPanel({ onRemade }: { onRemade: () => void }) {
  const queryClient = useQueryClient();
  const state = useSceneChecks();
  const running = state.data?.running ?? false;
  const wasRunning = useRef(false);
  useEffect(() => {
    if (wasRunning.current && !running) onRemade();
    wasRunning.current = running;
  }, [running, onRemade]);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: SCENE_CHECKS_KEY });
  const check = useMutation({
    mutationFn: () => apiRequest("POST", "/api/scene-checks", { action: "check" }),
    onSuccess: refresh,
    onError: (error) => toast({ title: "Not checked", description: serverMessage(error), variant: "destructive" }),
  });
  const remake = useMutation({
    mutationFn: (cellIndex: number) => apiRequest("POST", "/api/scene-checks", { action: "remake", cellIndex }),
    onSuccess: () => {
      refresh();
      onRemade();
    },
    onError: (error) => toast({ title: "Not made again", description: serverMessage(error), variant: "destructive" }),
  });
  const summary = state.data?.summary;
  const marked = (state.data?.checks ?? []).filter((c) => !c.passed).sort((a, b) => a.cellIndex - b.cellIndex);
  return (
    <section aria-labelledby="scene-check-title" className="mt-4 grid gap-3 rounded-xl border border-slate-800 bg-slate-900 px-4 py-3 text-sm">
      <div className="flex flex-wrap items-center gap-3">
        <ScanEye className="h-4 w-4 text-brand" aria-hidden />
        <h2 id="scene-check-title" className="font-semibold">
          Pictures against the words
        </h2>
        <span className="text-slate-400" data-testid="scene-check-summary">
          {running
            ? "Checking the scenes..."
            : summary && summary.checked > 0
              ? `${summary.passed} of ${summary.checked} checked ${summary.checked === 1 ? "scene shows" : "scenes show"} what is said${summary.checked < summary.scenes ? ` (${summary.scenes - summary.checked} not checked)` : ""}`
              : "Each scene's picture is checked against its voiceover: with your Gemini key by its vision, otherwise by the offline pictures' own subjects."}
        </span>
        <Button size="sm" variant="outline" className="ml-auto" onClick={() => check.mutate()} disabled={running || check.isPending}>
          {running || check.isPending ? <Loader2 className="mr-1 h-4 w-4 animate-spin" aria-hidden /> : null}
          Check scenes
        </Button>
      </div>
      {marked.length ? (
        <ul className="grid gap-2" aria-label="Scenes that do not show what is said">
          {marked.map((c) => (
            <li key={c.cellIndex} className="flex flex-wrap items-start gap-3 rounded-lg border border-amber-700/60 bg-amber-950/30 px-3 py-2" data-testid={`scene-check-mark-${c.cellIndex}`}>
              <TriangleAlert className="mt-0.5 h-4 w-4 shrink-0 text-amber-400" aria-hidden />
              <div className="min-w-0 flex-1">
                <p className="font-medium text-amber-200">
                  Scene {c.cellIndex + 1} scores {c.score}/100
                </p>
                <p className="text-slate-300">{c.reason}</p>
                {c.suggestedPrompt ? <p className="mt-1 text-xs text-slate-400">Corrected prompt: {c.suggestedPrompt}</p> : <p className="mt-1 text-xs text-slate-400">Edit the scene's words or prompt to name something that can be shown.</p>}
              </div>
              {c.suggestedPrompt ? (
                <Button size="sm" onClick={() => remake.mutate(c.cellIndex)} disabled={remake.isPending || running}>
                  {remake.isPending && remake.variables === c.cellIndex ? <Loader2 className="mr-1 h-4 w-4 animate-spin" aria-hidden /> : null}
                  Make it again
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
