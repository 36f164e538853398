import { CheckCircle2, Circle } from "lucide-react";

export type RenderChecklistState = { scriptGenerated: boolean; storyboardCreated: boolean; allMediaGenerated: boolean };

const ITEMS: [keyof RenderChecklistState, string][] = [
  ["scriptGenerated", "Script Generated"],
  ["storyboardCreated", "Storyboard Created"],
  ["allMediaGenerated", "All Media Generated"],
];

export function RenderChecklist({ state }: { state: RenderChecklistState }) {
  return (
    <ul className="space-y-2" aria-label="Render checklist">
      {ITEMS.map(([key, label]) => (
        <li key={key} className="flex items-center gap-2" data-done={state[key]}>
          {state[key] ? (
            <CheckCircle2 className="h-5 w-5 text-emerald-400" aria-label="done" />
          ) : (
            <Circle className="h-5 w-5 text-slate-400" aria-label="not done" />
          )}
          <span className={state[key] ? "text-slate-100" : "text-slate-400"}>{label}</span>
        </li>
      ))}
    </ul>
  );
}
