// The video's transition between scenes (issue 50, decision 225), chosen on the storyboard: a cut, a crossfade, a
// slide or a zoom, and its length; and, under "Per scene", how each scene after the first comes in, where it should
// differ from the video's (decision 245). The live preview redraws with it at once (the same query), and the render uses it.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "~/hooks/use-toast";
import { apiGet, apiRequest, serverMessage } from "~/lib/api-client";
import { FOLLOW_VIDEO, TRANSITION_CHOICES, TRANSITION_NAMES, type TransitionChoice, type VideoTransitions } from "~/lib/transitions";

const KEY = ["transitions"];

/** The video's transitions; `initial` (the page's loader) shows them at first paint, so nothing moves when they load. */
export function useTransitions(initial?: VideoTransitions) {
  return useQuery({ queryKey: KEY, queryFn: () => apiGet<VideoTransitions>("/api/transitions"), ...(initial ? { initialData: initial } : {}) });
}

const selectClass = "rounded-md border border-slate-700 bg-slate-900 px-2 py-1 text-slate-100";

/**
 * One transition's list: every transition by name, and first, for a scene (`followVideo`), "The video's (<its name>)",
 * which follows the video's choice.
 */
function TransitionSelect({
  label,
  value,
  followVideo,
  disabled,
  onChoose,
}: {
  label?: string;
  value: TransitionChoice | typeof FOLLOW_VIDEO;
  followVideo?: TransitionChoice;
  disabled: boolean;
  onChoose: (kind: TransitionChoice | typeof FOLLOW_VIDEO) => void;
}) {
  return (
    <select className={selectClass} aria-label={label} value={value} disabled={disabled} onChange={(e) => onChoose(e.target.value as TransitionChoice | typeof FOLLOW_VIDEO)}>
      {followVideo ? <option value={FOLLOW_VIDEO}>The video's ({TRANSITION_NAMES[followVideo]})</option> : null}
      {TRANSITION_CHOICES.map((kind) => (
        <option key={kind} value={kind}>
          {TRANSITION_NAMES[kind]}
        </option>
      ))}
    </select>
  );
}

export function TransitionPicker({ initial, sceneCount = 0 }: { initial?: VideoTransitions; sceneCount?: number }) {
  const queryClient = useQueryClient();
  const state = useTransitions(initial);
  const save = useMutation({
    mutationFn: (body: Partial<Pick<VideoTransitions, "kind" | "seconds">> & { perScene?: Record<string, TransitionChoice | typeof FOLLOW_VIDEO> }) =>
      apiRequest<VideoTransitions>("PUT", "/api/transitions", body),
    onSuccess: (data) => queryClient.setQueryData(KEY, data),
    onError: (error) => toast({ title: "Update failed", description: serverMessage(error), variant: "destructive" }),
  });
  const data = state.data;
  if (!data) return null;
  return (
    <div className="flex flex-wrap items-center gap-3 text-sm text-slate-300">
      <label className="flex items-center gap-2">
        Between scenes
        <TransitionSelect value={data.kind} disabled={save.isPending} onChoose={(kind) => save.mutate({ kind: kind as TransitionChoice })} />
      </label>
      {data.kind !== "none" ? (
        <label className="flex items-center gap-2">
          lasting
          <select
            className={selectClass}
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
      {sceneCount > 1 ? (
        <details className="group open:basis-full">
          <summary className="cursor-pointer select-none text-slate-300 hover:text-slate-100">
            Per scene{Object.keys(data.perScene).length > 0 ? ` (${Object.keys(data.perScene).length} set)` : ""}
          </summary>
          <ul className="mt-2 grid max-h-64 max-w-3xl grid-cols-1 gap-2 overflow-y-auto rounded-md border border-slate-800 bg-slate-950/60 p-3 sm:grid-cols-2">
            {Array.from({ length: sceneCount - 1 }, (_, i) => i + 1).map((index) => (
              <li key={index}>
                <label className="flex items-center justify-between gap-2">
                  <span>Scene {index + 1} comes in with</span>
                  <TransitionSelect
                    label={`Scene ${index + 1}'s transition`}
                    value={data.perScene[String(index)] ?? FOLLOW_VIDEO}
                    followVideo={data.kind}
                    disabled={save.isPending}
                    onChoose={(kind) => save.mutate({ perScene: { [String(index)]: kind } })}
                  />
                </label>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}
