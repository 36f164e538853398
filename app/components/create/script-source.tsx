// /create's choice (issue 33): Reelsmith writes the script, or the creator brings their own words. With no text
// model set (issue 48) the creator's words come first and the template draft is offered only as a labelled sample:
// its sentences show the steps, they are not words to publish.
import { Link } from "@remix-run/react";
import { FileText, PenLine, Sparkles } from "lucide-react";

export type ScriptSource = "write" | "own";

const OPTIONS: { value: ScriptSource; name: string; hint: string; Icon: typeof PenLine }[] = [
  { value: "write", name: "Write it for me", hint: "Reelsmith writes it for you, fitted to the duration.", Icon: Sparkles },
  { value: "own", name: "Use my own script", hint: "Type, paste or load your words. They are read exactly as written.", Icon: PenLine },
];

/** With no text model: the creator's words first, the template's draft labelled as the sample it is. */
const OPTIONS_WITHOUT_MODEL: typeof OPTIONS = [
  { value: "own", name: "Use my own script", hint: "Fill the outline below, or type, paste or load your words. They are read exactly as written.", Icon: PenLine },
  {
    value: "write",
    name: "Sample draft (template)",
    hint: "No text model is set: a template fills in sample sentences to show the steps. They are not meant for publishing.",
    Icon: FileText,
  },
];

export function ScriptSourcePicker({ value, onChange, modelSet = true }: { value: ScriptSource; onChange: (next: ScriptSource) => void; modelSet?: boolean }) {
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-2 text-sm font-medium">Script</legend>
      <div className="grid gap-3 sm:grid-cols-2">
        {(modelSet ? OPTIONS : OPTIONS_WITHOUT_MODEL).map(({ value: option, name, hint, Icon }) => (
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
      {modelSet ? null : (
        <p className="text-xs text-slate-400">
          To have drafts written, add a Gemini key, or a model server running on your own machine (free, no cloud key), in{" "}
          <Link to="/settings" className="text-violet-300 underline underline-offset-2 hover:text-violet-200">
            Settings
          </Link>
          .
        </p>
      )}
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
