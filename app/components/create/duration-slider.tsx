import { DURATION_RULES, type ResolutionValue } from "~/lib/video-format";
import { formatDuration } from "~/lib/video-details";
import { LabelledSlider } from "./labelled-slider";

/** The duration slider: range and step follow the chosen format. */
export function DurationSlider({ resolution, value, onChange }: { resolution: ResolutionValue; value: number; onChange: (v: number) => void }) {
  const rules = DURATION_RULES[resolution];
  return (
    <LabelledSlider
      labelId="duration-label"
      label="Duration"
      valueText={formatDuration(value)}
      thumbLabel="Duration in seconds"
      min={rules.min}
      max={rules.max}
      step={rules.step}
      value={value}
      onChange={onChange}
      minText={formatDuration(rules.min)}
      maxText={formatDuration(rules.max)}
    />
  );
}
