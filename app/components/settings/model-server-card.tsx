// The script writer a creator already runs: any server speaking the Chat Completions API (OpenAI, Ollama,
// LM Studio, vLLM, OpenRouter...). Base URL and model are plain settings; the optional key is saved encrypted like
// the other keys. Test Connection lists the server's models, so the model can be picked rather than typed.
import { useMutation } from "@tanstack/react-query";
import { Bot } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { toast } from "~/hooks/use-toast";
import { apiRequest, serverMessage } from "~/lib/api-client";
import { normalizeBaseUrl, OPENAI_COMPATIBLE_EXAMPLES } from "~/lib/openai-compatible";
import { useSaveConfig } from "./queries";
import { SecretInput } from "./secret-input";
import type { PublicConfig } from "./types";

type ModelList = { baseUrl: string; models: string[] };

export function ModelServerCard({ config }: { config: PublicConfig | null | undefined }) {
  const [baseUrl, setBaseUrl] = useState("");
  const [model, setModel] = useState("");
  const [apiKey, setApiKey] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const listId = useId();
  const configured = !!config?.openaiBaseUrl && !!config.openaiModel;
  const save = useSaveConfig({ title: "Model Server Saved", description: "New scripts are written by this model." });
  const remove = useSaveConfig({ title: "Model Server Removed", description: "Scripts are written as before (Gemini with its key, else offline)." });
  const test = useMutation({
    mutationFn: () => apiRequest<ModelList>("POST", "/api/openai-compatible/models", { baseUrl: baseUrl.trim() || undefined, apiKey: apiKey.trim() || undefined }),
    onSuccess: (list) =>
      toast({
        title: "Connection Works",
        description: list.models.length ? `The server offers ${list.models.length} model${list.models.length === 1 ? "" : "s"}.` : "The server answered but lists no models.",
      }),
  });

  useEffect(() => {
    setBaseUrl(config?.openaiBaseUrl ?? "");
    setModel(config?.openaiModel ?? "");
  }, [config?.openaiBaseUrl, config?.openaiModel]);

  function submit(e: React.FormEvent) {
    e.preventDefault();
    setProblem(null);
    if (!baseUrl.trim() || !model.trim()) {
      setProblem("Enter both the base URL and the model name.");
      return;
    }
    try {
      normalizeBaseUrl(baseUrl);
    } catch (error) {
      setProblem((error as Error).message);
      return;
    }
    save.mutate({ openaiBaseUrl: baseUrl.trim(), openaiModel: model.trim(), ...(apiKey.trim() ? { openaiApiKey: apiKey.trim() } : {}) }, { onSuccess: () => setApiKey("") });
  }

  const models = test.data?.models ?? [];
  return (
    <Card id="model-server" className="scroll-mt-20">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Bot className="h-5 w-5 text-brand" aria-hidden /> OpenAI-Compatible Model
          {configured ? <span className="rounded bg-emerald-500/15 px-2 py-0.5 text-xs font-normal text-emerald-300">Writes your scripts</span> : null}
        </CardTitle>
        <CardDescription>
          Use a model you already run or pay for: OpenAI, Ollama, LM Studio, vLLM, OpenRouter or any server with the Chat Completions API. When set, it
          writes scripts, scene prompts and upload metadata instead of Gemini.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form className="grid gap-4" onSubmit={submit} noValidate>
          <div className="grid gap-2">
            <Label htmlFor="openai-base-url">Base URL</Label>
            <Input
              id="openai-base-url"
              inputMode="url"
              autoComplete="off"
              spellCheck={false}
              placeholder="http://127.0.0.1:11434/v1"
              value={baseUrl}
              onChange={(e) => setBaseUrl(e.target.value)}
            />
            <div className="flex flex-wrap gap-1.5" aria-label="Examples">
              {OPENAI_COMPATIBLE_EXAMPLES.map((example) => (
                <button
                  key={example.name}
                  type="button"
                  className="rounded border border-slate-700 px-2 py-0.5 text-xs text-slate-300 hover:border-brand hover:text-white"
                  onClick={() => {
                    setBaseUrl(example.baseUrl);
                    setModel(example.model);
                  }}
                >
                  {example.name}
                </button>
              ))}
            </div>
          </div>
          <div className="grid gap-2">
            <Label htmlFor="openai-model">Model</Label>
            <Input
              id="openai-model"
              autoComplete="off"
              spellCheck={false}
              placeholder="llama3.2, gpt-4o-mini, qwen2.5:7b..."
              list={listId}
              value={model}
              onChange={(e) => setModel(e.target.value)}
            />
            <datalist id={listId}>
              {models.map((m) => (
                <option key={m} value={m} />
              ))}
            </datalist>
          </div>
          <div className="grid gap-1">
            <SecretInput
              id="openai-api-key"
              label="API Key (optional)"
              hint="Only if the server asks for one"
              savedLength={config?.openaiApiKeyLength}
              value={apiKey}
              onChange={setApiKey}
            />
            <p className="text-xs text-slate-400">Local servers (Ollama, LM Studio) need no key. Saved keys are stored encrypted and never shown again.</p>
          </div>
          {problem ? <p className="text-sm text-red-400">{problem}</p> : null}
          {test.isError ? <p className="text-sm text-red-400">{serverMessage(test.error)}</p> : null}
          {test.isSuccess ? (
            <div className="text-sm text-slate-300">
              <p className="text-emerald-300">Connected to {test.data.baseUrl}.</p>
              {models.length ? (
                <ul className="mt-1 flex flex-wrap gap-1.5" aria-label="Models on the server">
                  {models.slice(0, 30).map((m) => (
                    <li key={m}>
                      <button type="button" className="rounded bg-slate-800 px-2 py-0.5 text-xs hover:bg-slate-700" onClick={() => setModel(m)}>
                        {m}
                      </button>
                    </li>
                  ))}
                  {models.length > 30 ? <li className="text-xs text-slate-400">and {models.length - 30} more (type to search)</li> : null}
                </ul>
              ) : null}
            </div>
          ) : null}
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? "Saving..." : "Save Model Server"}
            </Button>
            <Button type="button" variant="outline" disabled={test.isPending || (!baseUrl.trim() && !configured)} onClick={() => test.mutate()}>
              {test.isPending ? "Testing..." : "Test Connection"}
            </Button>
            {configured ? (
              <Button
                type="button"
                variant="outline"
                disabled={remove.isPending}
                onClick={() => remove.mutate({ openaiBaseUrl: null, openaiModel: null, openaiApiKey: null }, { onSuccess: () => setApiKey("") })}
              >
                {remove.isPending ? "Removing..." : "Remove"}
              </Button>
            ) : null}
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
