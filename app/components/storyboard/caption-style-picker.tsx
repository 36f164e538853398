// The project's caption style, chosen on the storyboard: preset (boxed, outlined, word highlight, none), position and
// size. Saved at once (PUT /api/caption-style) and shown live in the preview below it; the next render uses it.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "~/hooks/use-toast";
import { apiGet, apiRequest, serverMessage } from "~/lib/api-client";
import {
  CAPTION_POSITION_LABELS,
  CAPTION_POSITIONS,
  CAPTION_PRESET_LABELS,
  CAPTION_PRESETS,
  CAPTION_SIZE_LABELS,
  CAPTION_SIZES,
  type CaptionStyle,
} from "~/lib/caption-style";
import { cn } from "~/lib/utils";

export type CaptionStyleState = { chosen: boolean; style: CaptionStyle };

export function useCaptionStyle() {
  const queryClient = useQueryClient();
  const state = useQuery({
    queryKey: ["caption-style"],
    queryFn: () => apiGet<CaptionStyleState>("/api/caption-style"),
  });
  const save = useMutation({
    mutationFn: (style: CaptionStyle) =>
      apiRequest<CaptionStyleState>("PUT", "/api/caption-style", style),
    onMutate: (style) => {
      // the preview follows the choice at once; a refused save puts the previous style back
      const previous = queryClient.getQueryData<CaptionStyleState>([
        "caption-style",
      ]);
      queryClient.setQueryData<CaptionStyleState>(["caption-style"], {
        chosen: true,
        style,
      });
      return { previous };
    },
    onSuccess: (data) => queryClient.setQueryData(["caption-style"], data),
    onError: (error, _style, context) => {
      if (context?.previous)
        queryClient.setQueryData(["caption-style"], context.previous);
      toast({
        title: "Caption style not saved",
        description: serverMessage(error),
        variant: "destructive",
      });
    },
  });
  return {
    style: state.data?.style ?? null,
    save: (style: CaptionStyle) => save.mutate(style),
    saving: save.isPending,
  };
}

const selectClass =
  "rounded-md border border-slate-700 bg-slate-900 px-2 py-1 text-slate-100 disabled:opacity-50";

export function CaptionStylePicker({
  style,
  onChange,
}: {
  style: CaptionStyle;
  onChange: (style: CaptionStyle) => void;
}) {
  const off = style.preset === "none";
  return (
    <div
      role="group"
      aria-label="Caption style"
      className="flex flex-wrap items-center gap-x-5 gap-y-3 text-sm text-slate-300"
    >
      <label className="flex items-center gap-2">
        Captions
        <select
          className={selectClass}
          value={style.preset}
          onChange={(e) =>
            onChange({
              ...style,
              preset: e.target.value as CaptionStyle["preset"],
            })
          }
        >
          {CAPTION_PRESETS.map((preset) => (
            <option key={preset} value={preset}>
              {CAPTION_PRESET_LABELS[preset]}
            </option>
          ))}
        </select>
      </label>
      <label className="flex items-center gap-2">
        Position
        <select
          className={selectClass}
          value={style.position}
          disabled={off}
          onChange={(e) =>
            onChange({
              ...style,
              position: e.target.value as CaptionStyle["position"],
            })
          }
        >
          {CAPTION_POSITIONS.map((position) => (
            <option key={position} value={position}>
              {CAPTION_POSITION_LABELS[position]}
            </option>
          ))}
        </select>
      </label>
      <div className="flex items-center gap-2">
        <span id="caption-size-label">Size</span>
        <div
          role="radiogroup"
          aria-labelledby="caption-size-label"
          className="flex overflow-hidden rounded-md border border-slate-700"
        >
          {CAPTION_SIZES.map((size) => (
            <button
              key={size}
              type="button"
              role="radio"
              aria-checked={style.size === size}
              aria-label={`Size ${CAPTION_SIZE_LABELS[size]}`}
              disabled={off}
              onClick={() => onChange({ ...style, size })}
              className={cn(
                "min-w-9 px-3 py-1 font-medium disabled:opacity-50",
                style.size === size
                  ? "bg-brand text-white"
                  : "bg-slate-900 text-slate-300 hover:bg-slate-800"
              )}
            >
              {CAPTION_SIZE_LABELS[size]}
            </button>
          ))}
        </div>
      </div>
    </div>
  );
}
