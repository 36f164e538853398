// Honest about the offline writer (issue 33): its script is a template draft, meant to be edited or replaced. The
// notice offers both ways side by side: the creator's own words, or a model (an OpenAI-compatible server, Gemini).
import { Link } from "@remix-run/react";
import { Bot, FileWarning, PenLine } from "lucide-react";
import { Button } from "~/components/ui/button";

export function TemplateDraftNotice({ onEdit }: { onEdit: () => void }) {
  return (
    <section aria-labelledby="template-draft-heading" className="mb-6 grid gap-4 rounded-xl border border-amber-700 bg-amber-950/60 p-4 sm:p-5">
      <div className="flex items-start gap-3">
        <FileWarning className="mt-0.5 h-5 w-5 shrink-0 text-amber-400" aria-hidden />
        <div>
          <h2 id="template-draft-heading" className="font-semibold text-white">
            This is a template draft
          </h2>
          <p className="mt-1 text-sm text-amber-100">
            It is meant to be edited or replaced before you publish. The offline writer filled templates with your title and topic; no AI read them, so
            the sentences are generic and some will not fit. Use your own words, or let a model write it.
          </p>
        </div>
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="grid content-between gap-3 rounded-lg border border-amber-800/70 bg-slate-950/60 p-4">
          <p className="text-sm text-slate-200">
            <PenLine className="mr-1 inline h-4 w-4 text-violet-300" aria-hidden /> Write or paste your words. Scenes break where you leave a blank line or a
            line with ---.
          </p>
          <Button onClick={onEdit} className="justify-self-start">
            Edit or Replace the Script
          </Button>
        </div>
        <div className="grid content-between gap-3 rounded-lg border border-amber-800/70 bg-slate-950/60 p-4">
          <p className="text-sm text-slate-200">
            <Bot className="mr-1 inline h-4 w-4 text-violet-300" aria-hidden /> Connect a model in Settings: an OpenAI-compatible server (OpenAI, Ollama, LM
            Studio...) or a Gemini key. Then make a new video and it writes the script.
          </p>
          <div className="flex flex-wrap gap-2">
            <Button asChild variant="outline" size="sm">
              <Link to="/settings#model-server">OpenAI-compatible model</Link>
            </Button>
            <Button asChild variant="outline" size="sm">
              <Link to="/settings#api-keys">Gemini key</Link>
            </Button>
          </div>
        </div>
      </div>
    </section>
  );
}
