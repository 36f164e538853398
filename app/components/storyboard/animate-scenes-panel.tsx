// "Animate" on the storyboard (issue 50): choose the service, whether clips start from the pictures or the words,
// and the scenes; the estimate per scene and for the video is shown before anything starts, with the budget's
// figures; a request over budget is refused with them. While clips are made the panel follows the run (and can
// cancel it); what this video's clips cost is shown after.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Film, Loader2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Button } from "~/components/ui/button";
import { toast } from "~/hooks/use-toast";
import { apiGet, apiRequest, serverMessage } from "~/lib/api-client";
import { clipBudgetVerdict, UNCHARGED_CLIP_STATUS } from "~/lib/clip-budget-rule";
import { dollars } from "~/lib/clip-prices";

type Estimate = {
  model: { provider: "veo" | "runway"; model: string; label: string; centsPerSecond: number; asOf: string; source: string };
  perScene: { cellIndex: number; seconds: number; costCents: number }[];
  totalCents: number;
  spent: { monthCents: number; videoCents: number };
  monthlyBudgetCents: number | null;
  videoCapCents: number | null;
};
type ClipsState = {
  estimate: Estimate;
  spend: { monthCents: number; videoCents: number; generations: { cellIndex: number; model: string; seconds: number; costCents: number; status: string }[] };
  running: boolean;
};

export function AnimateScenesPanel({ scenes, onClipsMade }: { scenes: { cellIndex: number; hasPicture: boolean }[]; onClipsMade: () => void }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [provider, setProvider] = useState<"veo" | "runway">("veo");
  const [source, setSource] = useState<"picture" | "words">("picture");
  const [chosen, setChosen] = useState<number[]>(() => scenes.map((s) => s.cellIndex));
  const cells = [...chosen].sort((a, b) => a - b);
  const key = ["ai-clips", provider, cells.join(",")];
  const state = useQuery({
    queryKey: key,
    queryFn: () => apiGet<ClipsState>(`/api/ai-clips?provider=${provider}&cells=${cells.join(",")}`),
    enabled: open || cells.length > 0,
    refetchInterval: (q) => (q.state.data?.running ? 2000 : false),
  });
  const running = state.data?.running ?? false;
  const wasRunning = useRef(false);
  useEffect(() => {
    // a run that just ended: the scenes' clips are new, and the spend is final
    if (wasRunning.current && !running) onClipsMade();
    wasRunning.current = running;
  }, [running, onClipsMade]);
  const start = useMutation({
    mutationFn: () => apiRequest("POST", "/api/ai-clips", { provider, source, cellIndexes: cells }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ["ai-clips"] });
      toast({ title: "Animating scenes", description: `${cells.length} ${cells.length === 1 ? "clip" : "clips"} for about ${dollars(state.data?.estimate.totalCents ?? 0)}.` });
    },
    onError: (error) => toast({ title: "Not started", description: serverMessage(error), variant: "destructive" }),
  });
  const cancel = useMutation({
    mutationFn: () => apiRequest("DELETE", "/api/ai-clips"),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ["ai-clips"] }),
  });
  const estimate = state.data?.estimate;
  const spend = state.data?.spend;
  const noPicture = source === "picture" ? scenes.filter((s) => chosen.includes(s.cellIndex) && !s.hasPicture).map((s) => s.cellIndex + 1) : [];
  // the server's own rule (decision 270): a request it would refuse is not offered, and the panel says why
  const verdict = estimate ? clipBudgetVerdict(estimate.totalCents, estimate, estimate.spent) : null;
  const overBudget = verdict && !verdict.allowed ? verdict.message.replace(/^Not started: /, "") : null;

  if (!open) {
    return (
      <div className="mt-4 flex flex-wrap items-center gap-3 rounded-xl border border-slate-800 bg-slate-900 px-4 py-3 text-sm">
        <Film className="h-4 w-4 text-brand" aria-hidden />
        <span className="text-slate-300">Turn still scenes into moving clips with Veo or Runway. The cost is shown before anything starts.</span>
        {spend && spend.videoCents > 0 ? <span className="text-slate-400">Spent on this video: {dollars(spend.videoCents)}</span> : null}
        <Button size="sm" variant="outline" className="ml-auto" onClick={() => setOpen(true)}>
          Animate
        </Button>
      </div>
    );
  }
  return (
    <section aria-labelledby="animate-title" className="mt-4 grid grid-cols-1 gap-4 rounded-xl border border-slate-800 bg-slate-900 p-4 text-sm">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="animate-title" className="flex items-center gap-2 text-lg font-semibold">
          <Film className="h-5 w-5 text-brand" aria-hidden /> Animate scenes
        </h2>
        <label className="flex w-full items-center gap-2 sm:w-auto">
          Service
          <select className="min-w-0 flex-1 rounded-md border border-slate-700 bg-slate-950 px-2 py-1" value={provider} onChange={(e) => setProvider(e.target.value as "veo" | "runway")} disabled={running}>
            <option value="veo">Veo 3.1 Fast (your Gemini key)</option>
            <option value="runway">Runway Gen-4 Turbo (your Runway key)</option>
          </select>
        </label>
        <label className="flex w-full items-center gap-2 sm:w-auto">
          Start from
          <select className="min-w-0 flex-1 rounded-md border border-slate-700 bg-slate-950 px-2 py-1" value={source} onChange={(e) => setSource(e.target.value as "picture" | "words")} disabled={running}>
            <option value="picture">the scene's picture</option>
            <option value="words" disabled={provider === "runway"}>
              the scene's words{provider === "runway" ? " (Veo only)" : ""}
            </option>
          </select>
        </label>
        <Button size="sm" variant="ghost" className="ml-auto" onClick={() => setOpen(false)}>
          Close
        </Button>
      </div>
      <fieldset className="flex flex-wrap gap-2" disabled={running}>
        <legend className="mb-1 text-slate-400">Scenes to animate</legend>
        {scenes.map((s) => (
          <label key={s.cellIndex} className="flex items-center gap-1 rounded-md border border-slate-700 px-2 py-1">
            <input
              type="checkbox"
              checked={chosen.includes(s.cellIndex)}
              onChange={(e) => setChosen((c) => (e.target.checked ? [...c, s.cellIndex] : c.filter((i) => i !== s.cellIndex)))}
            />
            Scene {s.cellIndex + 1}
          </label>
        ))}
      </fieldset>
      {estimate ? (
        <div className="grid gap-2" data-testid="clip-estimate">
          <table className="w-full max-w-xl text-left">
            <caption className="mb-1 text-left text-slate-400">
              Estimate with {estimate.model.label}, {dollars(estimate.model.centsPerSecond)} a second (prices of {estimate.model.asOf})
            </caption>
            <thead className="text-xs text-slate-400">
              <tr>
                <th className="py-1 font-medium">Scene</th>
                <th className="py-1 font-medium">Clip</th>
                <th className="py-1 font-medium">Cost</th>
              </tr>
            </thead>
            <tbody>
              {estimate.perScene.map((s) => (
                <tr key={s.cellIndex} className="border-t border-slate-800">
                  <td className="py-1">Scene {s.cellIndex + 1}</td>
                  <td className="py-1">{s.seconds} s</td>
                  <td className="py-1">{dollars(s.costCents)}</td>
                </tr>
              ))}
              <tr className="border-t border-slate-700 font-semibold">
                <td className="py-1">This video</td>
                <td className="py-1">{estimate.perScene.reduce((n, s) => n + s.seconds, 0)} s</td>
                <td className="py-1">{dollars(estimate.totalCents)}</td>
              </tr>
            </tbody>
          </table>
          <p className="text-slate-400">
            {estimate.monthlyBudgetCents === null
              ? `No monthly budget set (${dollars(estimate.spent.monthCents)} spent this month).`
              : `Monthly budget ${dollars(estimate.monthlyBudgetCents)}: ${dollars(estimate.spent.monthCents)} spent, ${dollars(Math.max(0, estimate.monthlyBudgetCents - estimate.spent.monthCents))} left.`}{" "}
            {estimate.videoCapCents === null ? "No cap per video." : `Cap per video ${dollars(estimate.videoCapCents)}: ${dollars(estimate.spent.videoCents)} spent on this one.`}
          </p>
        </div>
      ) : (
        <p className="text-slate-400">Working out the estimate...</p>
      )}
      {overBudget ? (
        <p className="text-amber-300" role="alert" data-testid="clip-over-budget">
          Over budget: {overBudget}
        </p>
      ) : null}
      {noPicture.length ? <p className="text-amber-300">Scene {noPicture.join(", ")} has no picture yet: make it first, or start from the words.</p> : null}
      <div className="flex flex-wrap items-center gap-3">
        {running ? (
          <>
            <span className="flex items-center gap-2 text-slate-300" role="status">
              <Loader2 className="h-4 w-4 animate-spin" aria-hidden /> Making clips... (a clip takes a minute or more)
            </span>
            <Button size="sm" variant="outline" onClick={() => cancel.mutate()} disabled={cancel.isPending}>
              Cancel
            </Button>
          </>
        ) : (
          <Button onClick={() => start.mutate()} disabled={start.isPending || !estimate || cells.length === 0 || noPicture.length > 0 || Boolean(overBudget)}>
            {estimate ? `Animate ${cells.length} ${cells.length === 1 ? "scene" : "scenes"} for ${dollars(estimate.totalCents)}` : "Animate"}
          </Button>
        )}
      </div>
      {spend && spend.generations.length ? (
        <div data-testid="clip-spend">
          <p className="font-medium">Spent on this video: {dollars(spend.videoCents)}</p>
          <ul className="text-slate-400">
            {spend.generations.map((g, i) => (
              <li key={i}>
                Scene {g.cellIndex + 1}: {g.seconds} s, {g.status === UNCHARGED_CLIP_STATUS ? `failed, not charged (${dollars(0)})` : `${dollars(g.costCents)} (${g.status})`}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
