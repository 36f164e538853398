import { KeyRound } from "lucide-react";
import { useState } from "react";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { toast } from "~/hooks/use-toast";
import { useSaveConfig } from "./queries";
import { fieldsToSave } from "./secret-fields";
import { SecretInput } from "./secret-input";
import type { PublicConfig } from "./types";

export const API_KEY_INPUTS = [
  { field: "geminiApiKey", label: "Google AI (Gemini) API Key", hint: "Enter your Google AI API key", service: "writes scripts" },
  { field: "elevenLabsApiKey", label: "ElevenLabs API Key", hint: "Enter your ElevenLabs API key", service: "records voiceovers" },
  { field: "leonardoApiKey", label: "Leonardo AI API Key", hint: "Enter your Leonardo API key", service: "draws scene images" },
  { field: "sunoApiKey", label: "Suno API Key", hint: "Enter your Suno API key", service: "composes background music" },
  { field: "pexelsApiKey", label: "Pexels API Key", hint: "Enter your free Pexels API key", service: "finds stock photos and video clips for scenes (free key at pexels.com/api)" },
] as const;
type KeyField = (typeof API_KEY_INPUTS)[number]["field"];
const EMPTY: Record<KeyField, string> = { geminiApiKey: "", elevenLabsApiKey: "", leonardoApiKey: "", sunoApiKey: "", pexelsApiKey: "" };

export function ApiKeysCard({ config }: { config: PublicConfig | null | undefined }) {
  const [values, setValues] = useState(EMPTY);
  const save = useSaveConfig({ title: "API Keys Saved", description: "Your keys are stored encrypted." });

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const update = fieldsToSave(values);
    if (Object.keys(update).length === 0) {
      toast({ title: "No API Keys to Save", description: "Please enter at least one API key to save.", variant: "destructive" });
      return;
    }
    save.mutate(update, { onSuccess: () => setValues(EMPTY) });
  }

  return (
    <Card id="api-keys" className="scroll-mt-20">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <KeyRound className="h-5 w-5 text-brand" aria-hidden /> API Keys
        </CardTitle>
        <CardDescription>
          Keys for the AI services. A service without a key uses Reelsmith&apos;s offline generator instead. Saved keys are never shown again.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form className="grid gap-4" onSubmit={submit}>
          {API_KEY_INPUTS.map(({ field, label, hint, service }) => (
            <div key={field} className="grid gap-1">
              <SecretInput
                id={field}
                label={label}
                hint={hint}
                savedLength={config?.[`${field}Length`]}
                value={values[field]}
                onChange={(value) => setValues((v) => ({ ...v, [field]: value }))}
              />
              <p className="text-xs text-slate-400">Used when Reelsmith {service}.</p>
            </div>
          ))}
          <Button type="submit" disabled={save.isPending} className="justify-self-start">
            {save.isPending ? "Saving..." : "Save API Keys"}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
