// The render's quality: 720p on the free plan; HD 1080p and 4K 2160p for premium (spec section 6, "HD/4K").
import { Link } from "@remix-run/react";
import { cn } from "~/lib/utils";
import { RENDER_HEIGHT_LABELS, RENDER_HEIGHTS, type RenderHeight } from "~/lib/video-format";

export function QualityPicker({ value, maxHeight, disabled, onChange }: { value: RenderHeight; maxHeight: number; disabled?: boolean; onChange: (h: RenderHeight) => void }) {
  return (
    <fieldset className="space-y-2" disabled={disabled}>
      <legend className="text-sm font-medium text-slate-300">Quality</legend>
      <div className="flex flex-wrap gap-2" role="radiogroup" aria-label="Quality">
        {RENDER_HEIGHTS.map((height) => {
          const locked = height > maxHeight;
          return (
            <label
              key={height}
              className={cn(
                "flex cursor-pointer items-center gap-2 rounded-lg border px-3 py-2 text-sm",
                value === height ? "border-brand bg-brand/15 text-white" : "border-slate-700 text-slate-300",
                locked && "cursor-not-allowed opacity-50",
              )}
            >
              <input type="radio" name="quality" className="accent-violet-500" checked={value === height} disabled={locked} onChange={() => onChange(height)} />
              {RENDER_HEIGHT_LABELS[height]}
              {locked ? <span className="text-xs text-slate-400">(Premium)</span> : null}
            </label>
          );
        })}
      </div>
      {maxHeight < 1080 ? (
        <p className="text-xs text-slate-400">
          HD and 4K renders are part of Premium.{" "}
          <Link to="/subscription" className="text-violet-300 underline">
            Upgrade
          </Link>
        </p>
      ) : (
        <p className="text-xs text-slate-400">4K takes about four times as long as HD to render.</p>
      )}
    </fieldset>
  );
}
