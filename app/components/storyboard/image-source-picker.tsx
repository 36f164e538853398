// Which source the project's scene images come from, shown on the storyboard and remembered per project:
// offline illustrations, Leonardo, Pexels photos or Pexels clips. Sources needing a key the creator has not
// saved cannot be chosen, and say where to add it.
import { Link } from "@remix-run/react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "~/hooks/use-toast";
import { apiGet, apiRequest, serverMessage } from "~/lib/api-client";
import { IMAGE_SOURCE_KEY, IMAGE_SOURCE_NAMES, IMAGE_SOURCES, type ImageSourceValue } from "~/lib/image-source";

export type ImageSourceState = { imageSource: ImageSourceValue | null; effective: ImageSourceValue; leonardoKeySaved: boolean; pexelsKeySaved: boolean };

/** The service whose key a source needs and the creator has not saved; undefined when it can be chosen. */
export function missingKeyFor(source: ImageSourceValue, state: Pick<ImageSourceState, "leonardoKeySaved" | "pexelsKeySaved">): "Leonardo" | "Pexels" | undefined {
  const needs = IMAGE_SOURCE_KEY[source];
  if (needs === "Leonardo" && !state.leonardoKeySaved) return needs;
  if (needs === "Pexels" && !state.pexelsKeySaved) return needs;
  return undefined;
}

/** `initial`: the page loader's reading, so the picker is drawn with the page (nothing below it moves). */
export function ImageSourcePicker({ initial }: { initial?: ImageSourceState }) {
  const queryClient = useQueryClient();
  const state = useQuery({ queryKey: ["image-source"], queryFn: () => apiGet<ImageSourceState>("/api/image-source"), initialData: initial });
  const save = useMutation({
    mutationFn: (imageSource: ImageSourceValue) => apiRequest<ImageSourceState>("PUT", "/api/image-source", { imageSource }),
    onSuccess: (data) => {
      queryClient.setQueryData(["image-source"], data);
      toast({ title: "Image source saved", description: `New scene images come from: ${IMAGE_SOURCE_NAMES[data.effective]}.` });
    },
    onError: (error) => toast({ title: "Update failed", description: serverMessage(error), variant: "destructive" }),
  });
  const data = state.data;
  if (!data) return null;
  const missing = [...new Set(IMAGE_SOURCES.map((s) => missingKeyFor(s, data)).filter((k) => k !== undefined))];
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-300">
      <label className="flex flex-wrap items-center gap-2">
        Image source
        <select
          className="max-w-full rounded-md border border-slate-700 bg-slate-900 px-2 py-1 text-slate-100"
          value={data.effective}
          disabled={save.isPending}
          onChange={(e) => save.mutate(e.target.value as ImageSourceValue)}
        >
          {IMAGE_SOURCES.map((source) => {
            const needs = missingKeyFor(source, data);
            return (
              <option key={source} value={source} disabled={!!needs}>
                {needs ? `${IMAGE_SOURCE_NAMES[source].replace(/ \(your key\)$/, "")} (needs your ${needs} key)` : IMAGE_SOURCE_NAMES[source]}
              </option>
            );
          })}
        </select>
      </label>
      {missing.length ? (
        <span className="text-xs text-slate-400">
          {missing.join(" and ")} {missing.length > 1 ? "need keys" : "needs a key"}:{" "}
          <Link to="/settings" className="text-violet-300 underline">
            add {missing.length > 1 ? "them" : "it"} in Settings
          </Link>
          {missing.includes("Pexels") ? " (Pexels keys are free)." : "."}
        </span>
      ) : null}
    </div>
  );
}
