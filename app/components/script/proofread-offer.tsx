// Proofreading offered, never forced (issue 33): the creator asks for a proofread copy, reads it beside their own,
// and takes it or keeps their words. Nothing is saved here.
import { useMutation } from "@tanstack/react-query";
import { SpellCheck } from "lucide-react";
import { Button } from "~/components/ui/button";
import { apiRequest, serverMessage } from "~/lib/api-client";
import { providerPhrase } from "~/lib/provenance";
import { scriptSections } from "~/lib/own-script";

type Suggestion = { text: string; changed: boolean; by: string; breaksKept: boolean };

export function ProofreadOffer(props: { text: string; title: string; language: string; onUse: (text: string) => void }) {
  const ask = useMutation({ mutationFn: (text: string) => apiRequest<Suggestion>("POST", "/api/ai/proofread", { text, title: props.title, language: props.language }) });
  // a suggestion for words the creator has changed since is not shown
  const stale = ask.variables !== props.text;
  const suggestion = ask.data;
  return (
    <div className="grid gap-2">
      <div className="flex flex-wrap items-center gap-3">
        <Button type="button" variant="outline" size="sm" onClick={() => ask.mutate(props.text)} disabled={ask.isPending || !scriptSections(props.text).length}>
          <SpellCheck className="h-4 w-4" aria-hidden /> {ask.isPending ? "Proofreading..." : "Suggest proofreading"}
        </Button>
        <span className="text-xs text-slate-400">Optional: your words are used as written unless you take a suggestion.</span>
      </div>
      {ask.isError ? (
        <p role="alert" className="text-sm text-red-300">
          {serverMessage(ask.error)}
        </p>
      ) : null}
      {suggestion && !stale ? (
        <div role="region" aria-label="Proofreading suggestion" className="grid gap-2 rounded-lg border border-slate-700 bg-slate-950 p-3 text-sm">
          {suggestion.changed ? (
            <>
              <p className="text-slate-300">
                Suggested by {providerPhrase(suggestion.by)}
                {suggestion.breaksKept ? "" : ". It moved some scene breaks: check them before you take it"}:
              </p>
              <p className="max-h-48 overflow-y-auto whitespace-pre-wrap rounded border border-slate-800 p-2 text-slate-200">{suggestion.text}</p>
              <div className="flex flex-wrap gap-2">
                <Button
                  type="button"
                  size="sm"
                  onClick={() => {
                    props.onUse(suggestion.text);
                    ask.reset();
                  }}
                >
                  Use the suggestion
                </Button>
                <Button type="button" size="sm" variant="ghost" onClick={() => ask.reset()}>
                  Keep my words
                </Button>
              </div>
            </>
          ) : (
            <p className="text-slate-300">{providerPhrase(suggestion.by)} found nothing to change.</p>
          )}
        </div>
      ) : null}
    </div>
  );
}
