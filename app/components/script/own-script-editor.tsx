// The creator's own script (issue 33): typed, pasted or loaded from a .txt or .md file, with its length as the
// chosen voice reads it. A blank line or a `---` line is a scene break that is kept. Nothing here changes a word.
import { FileUp } from "lucide-react";
import { useId, useRef, useState } from "react";
import { Button } from "~/components/ui/button";
import { Textarea } from "~/components/ui/textarea";
import { OWN_SCRIPT_MAX_CHARS, OWN_SCRIPT_MESSAGES, looksBinary, scriptSections } from "~/lib/own-script";
import type { ResolutionValue } from "~/lib/video-format";
import { ProofreadOffer } from "./proofread-offer";
import { ScriptLength } from "./script-length";

/** Reads a chosen file as UTF-8 text; refuses a binary file or one over the script's limit, in words to act on. */
export async function readScriptFile(file: File): Promise<{ text: string } | { problem: string }> {
  // a 100,000-character script is at most 400 kB of UTF-8
  if (file.size > OWN_SCRIPT_MAX_CHARS * 4) return { problem: OWN_SCRIPT_MESSAGES.tooLong };
  const text = new TextDecoder("utf-8").decode(await file.arrayBuffer());
  if (looksBinary(text)) return { problem: OWN_SCRIPT_MESSAGES.binary };
  if (text.length > OWN_SCRIPT_MAX_CHARS) return { problem: OWN_SCRIPT_MESSAGES.tooLong };
  return { text: text.replace(/^\uFEFF/, "") };
}

export function OwnScriptEditor(props: {
  value: string;
  onChange: (text: string) => void;
  durationSeconds: number;
  resolution: ResolutionValue;
  language: string;
  voiceId: string | null;
  voiceSpeed: number;
  /** the video's title, for the proofreader */
  title: string;
  /** the textarea's label */
  label?: string;
  rows?: number;
}) {
  const id = useId();
  const file = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [loaded, setLoaded] = useState<string | null>(null);
  const parts = scriptSections(props.value).length;

  async function load(chosen: File | undefined) {
    if (!chosen) return;
    const result = await readScriptFile(chosen);
    if (file.current) file.current.value = "";
    if ("problem" in result) {
      setProblem(`${chosen.name}: ${result.problem}`);
      return;
    }
    setProblem(null);
    setLoaded(chosen.name);
    props.onChange(result.text);
  }

  return (
    <div className="grid gap-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <label htmlFor={`${id}-text`} className="text-sm font-medium">
          {props.label ?? "Your script"}
        </label>
        <Button type="button" variant="outline" size="sm" onClick={() => file.current?.click()}>
          <FileUp className="h-4 w-4" aria-hidden /> Load a .txt or .md file
        </Button>
        <input
          ref={file}
          type="file"
          accept=".txt,.md,.markdown,text/plain,text/markdown"
          className="sr-only"
          tabIndex={-1}
          aria-label="Script file (.txt or .md)"
          onChange={(e) => void load(e.target.files?.[0])}
        />
      </div>
      <Textarea
        id={`${id}-text`}
        name="script"
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        rows={props.rows ?? 12}
        maxLength={OWN_SCRIPT_MAX_CHARS}
        aria-describedby={`${id}-hint`}
        placeholder={"Type or paste the words the video should say.\n\nA blank line, or a line with ---, starts a new scene."}
        className="font-mono text-sm leading-relaxed"
      />
      <p id={`${id}-hint`} className="text-xs text-slate-400">
        Read exactly as written: a blank line or a line with <code className="whitespace-nowrap rounded bg-slate-800 px-1">---</code> starts a new scene
        {parts > 1 ? ` (${parts} parts now, each at least one scene)` : ""}.{loaded ? ` Loaded from ${loaded}.` : ""}
      </p>
      {problem ? (
        <p role="alert" className="text-sm text-red-300">
          {problem}
        </p>
      ) : null}
      <ScriptLength
        text={props.value}
        durationSeconds={props.durationSeconds}
        resolution={props.resolution}
        language={props.language}
        voiceId={props.voiceId}
        voiceSpeed={props.voiceSpeed}
      />
      <ProofreadOffer text={props.value} title={props.title} language={props.language} onUse={props.onChange} />
    </div>
  );
}
