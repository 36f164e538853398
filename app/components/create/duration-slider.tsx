import * as Slider from "@radix-ui/react-slider";
import { DURATION_RULES, type ResolutionValue } from "~/lib/video-format";
import { formatDuration } from "~/lib/video-details";

/** The duration slider: range and step follow the chosen format. */
export function DurationSlider({ resolution, value, onChange }: { resolution: ResolutionValue; value: number; onChange: (v: number) => void }) {
  const rules = DURATION_RULES[resolution];
  return (
    <div className="grid gap-2">
      <div className="flex items-center justify-between text-sm">
        <span id="duration-label" className="font-medium">
          Duration
        </span>
        <output aria-live="polite" className="text-slate-300">
          {formatDuration(value)}
        </output>
      </div>
      <Slider.Root
        className="relative flex h-5 w-full touch-none select-none items-center"
        min={rules.min}
        max={rules.max}
        step={rules.step}
        value={[value]}
        onValueChange={([v]) => v !== undefined && onChange(v)}
        aria-labelledby="duration-label"
      >
        <Slider.Track className="relative h-2 grow rounded-full bg-slate-700">
          <Slider.Range className="absolute h-full rounded-full bg-brand" />
        </Slider.Track>
        <Slider.Thumb aria-label="Duration in seconds" className="block h-5 w-5 rounded-full border-2 border-brand bg-white focus:outline-none focus-visible:ring-2 focus-visible:ring-brand" />
      </Slider.Root>
      <div className="flex justify-between text-xs text-slate-400">
        <span>{formatDuration(rules.min)}</span>
        <span>{formatDuration(rules.max)}</span>
      </div>
    </div>
  );
}
