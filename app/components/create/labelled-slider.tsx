import * as Slider from "@radix-ui/react-slider";

/**
 * A slider of the create form: its label with the current value on the right, the track, and the two ends named
 * underneath. The duration and voice-speed sliders are this one shape with their own ranges and words.
 */
export function LabelledSlider(props: {
  /** id of the label element, which names the slider for assistive technology */
  labelId: string;
  label: string;
  valueText: string;
  thumbLabel: string;
  min: number;
  max: number;
  step: number;
  value: number;
  onChange: (v: number) => void;
  minText: string;
  maxText: string;
}) {
  return (
    <div className="grid gap-2">
      <div className="flex items-center justify-between text-sm">
        <span id={props.labelId} className="font-medium">
          {props.label}
        </span>
        <output aria-live="polite" className="text-slate-300">
          {props.valueText}
        </output>
      </div>
      <Slider.Root
        className="relative flex h-5 w-full touch-none select-none items-center"
        min={props.min}
        max={props.max}
        step={props.step}
        value={[props.value]}
        onValueChange={([v]) => v !== undefined && props.onChange(v)}
        aria-labelledby={props.labelId}
      >
        <Slider.Track className="relative h-2 grow rounded-full bg-slate-700">
          <Slider.Range className="absolute h-full rounded-full bg-brand" />
        </Slider.Track>
        <Slider.Thumb
          aria-label={props.thumbLabel}
          className="block h-5 w-5 rounded-full border-2 border-brand bg-white focus:outline-none focus-visible:ring-2 focus-visible:ring-brand"
        />
      </Slider.Root>
      <div className="flex justify-between text-xs text-slate-400">
        <span>{props.minText}</span>
        <span>{props.maxText}</span>
      </div>
    </div>
  );
}
