// /create's choice (issue 33): Reelsmith writes the script, or the creator brings their own words.
import { PenLine, Sparkles } from "lucide-react";

export type ScriptSource = "write" | "own";

const OPTIONS: { value: ScriptSource; name: string; hint: string; Icon: typeof PenLine }[] = [
  { value: "write", name: "Write it for me", hint: "Reelsmith writes it for you, fitted to the duration.", Icon: Sparkles },
  { value: "own", name: "Use my own script", hint: "Type, paste or load your words. They are read exactly as written.", Icon: PenLine },
];

export function ScriptSourcePicker({ value, onChange }: { value: ScriptSource; onChange: (next: ScriptSource) => void }) {
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-2 text-sm font-medium">Script</legend>
      <div className="grid gap-3 sm:grid-cols-2">
        {OPTIONS.map(({ value: option, name, hint, Icon }) => (
          <label
            key={option}
            className={`flex cursor-pointer gap-3 rounded-lg border p-3 text-sm has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand ${value === option ? "border-brand bg-brand/10" : "border-slate-700"}`}
          >
            <input type="radio" name="scriptSource" value={option} checked={value === option} onChange={() => onChange(option)} className="sr-only" />
            <Icon className="mt-0.5 h-5 w-5 shrink-0 text-violet-300" aria-hidden />
            <span>
              <span className="block font-semibold">{name}</span>
              <span className="text-slate-400">{hint}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** The topic a video made from the creator's words gets when they leave it empty: its opening words. */
export function topicFromScript(script: string): string {
  const words = script.replace(/^\s*-{3,}\s*$/gm, " ").replace(/\s+/g, " ").trim();
  if (words.length <= 300) return words;
  const cut = words.slice(0, 300);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), 200))}...`;
}
