// Which source the project's scene images come from, shown on the storyboard and remembered per project.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "~/hooks/use-toast";
import { apiGet, apiRequest, serverMessage } from "~/lib/api-client";
import { IMAGE_SOURCE_NAMES, IMAGE_SOURCES, type ImageSourceValue } from "~/lib/image-source";

type ImageSourceState = { imageSource: ImageSourceValue | null; effective: ImageSourceValue; leonardoKeySaved: boolean };

export function ImageSourcePicker() {
  const queryClient = useQueryClient();
  const state = useQuery({ queryKey: ["image-source"], queryFn: () => apiGet<ImageSourceState>("/api/image-source") });
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
  return (
    <label className="flex items-center gap-2 text-sm text-slate-300">
      Image source
      <select
        className="rounded-md border border-slate-700 bg-slate-900 px-2 py-1 text-slate-100"
        value={data.effective}
        disabled={save.isPending}
        onChange={(e) => save.mutate(e.target.value as ImageSourceValue)}
      >
        {IMAGE_SOURCES.map((source) => (
          <option key={source} value={source} disabled={source === "leonardo" && !data.leonardoKeySaved}>
            {IMAGE_SOURCE_NAMES[source]}
            {source === "leonardo" && !data.leonardoKeySaved ? " (save a key in Settings)" : ""}
          </option>
        ))}
      </select>
    </label>
  );
}
