// /script's Edit Script (issue 33): the generated or own script edited and saved as the creator's, with its length
// as the project's voice reads it, and, when a storyboard exists, which scenes the change touches (the others keep
// their pictures and voiceovers: planScriptEdit, the same plan the server saves with).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Save } from "lucide-react";
import { useState } from "react";
import { Button } from "~/components/ui/button";
import { toast } from "~/hooks/use-toast";
import { apiGet, apiRequest, serverMessage } from "~/lib/api-client";
import { SCRIPT_STATUS_KEY } from "~/lib/constants";
import { normaliseOwnScript, planScriptEdit, sceneList, scriptSections } from "~/lib/own-script";
import type { ResolutionValue } from "~/lib/video-format";
import type { StoryboardCellView } from "~/server/storyboard.server";
import { OwnScriptEditor } from "./own-script-editor";

type Saved = { wordCount: number; scenes: { kept: number[]; changed: number[]; added: number; total: number } | null };

export function ScriptEditor(props: {
  projectId: string;
  title: string;
  script: string;
  durationSeconds: number;
  resolution: ResolutionValue;
  language: string;
  voiceId: string | null;
  voiceSpeed: number;
  onDone: () => void;
}) {
  const [text, setText] = useState(props.script);
  const queryClient = useQueryClient();
  const cells = useQuery({ queryKey: ["storyboards"], queryFn: () => apiGet<{ storyboardCells: StoryboardCellView[] }>("/api/storyboards") });
  const scenes = cells.data?.storyboardCells ?? [];
  const unchanged = normaliseOwnScript(text) === normaliseOwnScript(props.script);
  const save = useMutation({
    mutationFn: () => apiRequest<Saved>("PUT", `/api/projects/${props.projectId}/script`, { text }),
    onSuccess: (saved) => {
      const kept = saved.scenes?.kept.length ?? 0;
      toast({
        title: "Script Saved",
        description: saved.scenes ? `${saved.wordCount} words. ${kept} of ${saved.scenes.total} scenes keep their pictures and voiceovers.` : `${saved.wordCount} words.`,
      });
      queryClient.invalidateQueries({ queryKey: SCRIPT_STATUS_KEY });
      queryClient.invalidateQueries({ queryKey: ["storyboards"] });
      queryClient.invalidateQueries({ queryKey: ["storyboard-status"] });
      props.onDone();
    },
    onError: (error) => toast({ title: "Save Failed", description: serverMessage(error), variant: "destructive" }),
  });

  return (
    <section aria-labelledby="edit-script-heading" className="grid gap-4 rounded-xl border border-slate-800 bg-slate-900 p-4 sm:p-6">
      <h2 id="edit-script-heading" className="text-xl font-bold">
        Edit Script
      </h2>
      <OwnScriptEditor
        label="Script"
        title={props.title}
        value={text}
        onChange={setText}
        durationSeconds={props.durationSeconds}
        resolution={props.resolution}
        language={props.language}
        voiceId={props.voiceId}
        voiceSpeed={props.voiceSpeed}
        rows={16}
      />
      {scenes.length ? <SceneImpact scenes={scenes.map((c) => c.voiceoverText)} text={text} unchanged={unchanged} /> : null}
      <div className="flex flex-wrap gap-3">
        <Button onClick={() => save.mutate()} disabled={save.isPending || unchanged || !scriptSections(text).length}>
          <Save className="h-4 w-4" aria-hidden /> {save.isPending ? "Saving..." : "Save Script"}
        </Button>
        <Button variant="ghost" onClick={props.onDone} disabled={save.isPending}>
          Cancel
        </Button>
      </div>
    </section>
  );
}

/** What saving does to the storyboard: which scenes keep their media, which change, how many are new. */
function SceneImpact({ scenes, text, unchanged }: { scenes: string[]; text: string; unchanged: boolean }) {
  if (unchanged) return <p className="text-sm text-slate-400">The storyboard&apos;s {scenes.length} scenes match this script.</p>;
  if (!scriptSections(text).length) return null;
  const words = scenes.reduce((sum, s) => sum + s.split(/\s+/).filter(Boolean).length, 0);
  const plan = planScriptEdit(scenes, text, { wordsPerScene: Math.max(5, words / scenes.length) });
  const added = plan.scenes.filter((s) => s.keeps === null).length;
  const moved = plan.kept.filter((k) => k.from !== k.to).length;
  return (
    <div data-testid="scene-impact" role="status" className="grid gap-1 rounded-lg border border-slate-700 bg-slate-950 p-3 text-sm">
      <p className="font-medium">When you save, the storyboard changes:</p>
      <ul className="list-disc pl-5 text-slate-300">
        {plan.changed.length ? (
          <li>
            {capitalise(sceneList(plan.changed))} will change:{" "}
            {plan.changed.length === 1 ? "its words are different, so it gets a new picture and voiceover." : "their words are different, so they get new pictures and voiceovers."}
          </li>
        ) : null}
        {added ? <li>{added === 1 ? "1 new scene" : `${added} new scenes`} for the new words.</li> : null}
        <li>
          {plan.kept.length === 1
            ? `${capitalise(sceneList([plan.kept[0]!.from]))} keeps its picture and voiceover`
            : plan.kept.length
              ? `${capitalise(sceneList(plan.kept.map((k) => k.from)))} keep their pictures and voiceovers`
              : "No scene keeps its picture and voiceover"}
          {moved ? ` (${moved} move to a new place)` : ""}.
        </li>
      </ul>
    </div>
  );
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
