// The video's transition between scenes (issue 50, decision 225), chosen on the storyboard: a cut, a crossfade, a
// slide or a zoom, and its length. The live preview redraws with it at once (the same query), and the render uses it.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "~/hooks/use-toast";
import { apiGet, apiRequest, serverMessage } from "~/lib/api-client";
import { TRANSITION_CHOICES, TRANSITION_NAMES, type TransitionChoice, type VideoTransitions } from "~/lib/transitions";

const KEY = ["transitions"];

/** The video's transitions; `initial` (the page's loader) shows them at first paint, so nothing moves when they load. */
export function useTransitions(initial?: VideoTransitions) {
  return useQuery({ queryKey: KEY, queryFn: () => apiGet<VideoTransitions>("/api/transitions"), ...(initial ? { initialData: initial } : {}) });
}

export function TransitionPicker({ initial }: { initial?: VideoTransitions }) {
  const queryClient = useQueryClient();
  const state = useTransitions(initial);
  const save = useMutation({
    mutationFn: (body: Partial<Pick<VideoTransitions, "kind" | "seconds">>) => apiRequest<VideoTransitions>("PUT", "/api/transitions", body),
    onSuccess: (data) => queryClient.setQueryData(KEY, data),
    onError: (error) => toast({ title: "Update failed", description: serverMessage(error), variant: "destructive" }),
  });
  const data = state.data;
  if (!data) return null;
  return (
    <div className="flex flex-wrap items-center gap-3 text-sm text-slate-300">
      <label className="flex items-center gap-2">
        Between scenes
        <select
          className="rounded-md border border-slate-700 bg-slate-900 px-2 py-1 text-slate-100"
          value={data.kind}
          disabled={save.isPending}
          onChange={(e) => save.mutate({ kind: e.target.value as TransitionChoice })}
        >
          {TRANSITION_CHOICES.map((kind) => (
            <option key={kind} value={kind}>
              {TRANSITION_NAMES[kind]}
            </option>
          ))}
        </select>
      </label>
      {data.kind !== "none" ? (
        <label className="flex items-center gap-2">
          lasting
          <select
            className="rounded-md border border-slate-700 bg-slate-900 px-2 py-1 text-slate-100"
            value={String(data.seconds)}
            disabled={save.isPending}
            onChange={(e) => save.mutate({ seconds: Number(e.target.value) })}
          >
            {[0.3, 0.5, 0.8, 1].map((s) => (
              <option key={s} value={String(s)}>
                {s} s
              </option>
            ))}
          </select>
        </label>
      ) : null}
    </div>
  );
}
