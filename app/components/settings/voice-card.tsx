import { useQuery } from "@tanstack/react-query";
import { Mic } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Label } from "~/components/ui/label";
import { Select, SelectContent, SelectGroup, SelectItem, SelectLabel, SelectTrigger, SelectValue } from "~/components/ui/select";
import { apiGet, serverMessage } from "~/lib/api-client";
import { useSaveConfig } from "./queries";
import type { DefaultVoicesResponse, PublicConfig, VoicesResponse } from "./types";
import { groupVoices, voiceLabel } from "./voice-options";
import { VoiceSampleButton } from "./voice-sample-button";
import { groupVoicesByLanguage } from "~/lib/voices";

export function OfflineBadge({ children }: { children: React.ReactNode }) {
  return <span className="rounded-full border border-amber-600 bg-amber-950 px-2 py-0.5 text-xs font-medium text-amber-300">{children}</span>;
}

export function VoiceCard({ config }: { config: PublicConfig | null | undefined }) {
  const voices = useQuery({ queryKey: ["voices", "all"], queryFn: () => apiGet<VoicesResponse>("/api/elevenlabs/voices") });
  const defaults = useQuery({ queryKey: ["default-voices"], queryFn: () => apiGet<DefaultVoicesResponse>("/api/elevenlabs/default-voices") });
  const [voiceId, setVoiceId] = useState<string>("");
  const save = useSaveConfig({ title: "Voice Settings Saved", description: "New voiceovers use this voice." });

  useEffect(() => {
    if (config?.elevenLabsVoiceId) setVoiceId(config.elevenLabsVoiceId);
  }, [config?.elevenLabsVoiceId]);

  // The spec's category groups, and inside each the voices by language (issue 24; decision 091).
  const groups = groupVoices(voices.data?.voices ?? []).map((g) => ({ ...g, languages: groupVoicesByLanguage(g.voices) }));
  const offline = voices.data?.source === "offline";

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Mic className="h-5 w-5 text-brand" aria-hidden /> Voice Settings
          {offline ? <OfflineBadge>Offline voices</OfflineBadge> : null}
        </CardTitle>
        <CardDescription>
          Choose the voice that narrates your videos (grouped by language; a project in another language uses a voice of its
          language). Custom voices (clones, generated and professional voices) are loaded from your ElevenLabs account once its API key is
          saved.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="grid gap-2">
          <Label htmlFor="voice-select">Narration voice</Label>
          <Select value={voiceId} onValueChange={setVoiceId} disabled={voices.isLoading}>
            <SelectTrigger id="voice-select" aria-label="Narration voice">
              <SelectValue placeholder={voices.isLoading ? "Loading..." : "Select Voice"} />
            </SelectTrigger>
            <SelectContent>
              {groups.map((g) => (
                <SelectGroup key={g.group}>
                  <SelectLabel data-voice-heading>{g.heading}</SelectLabel>
                  {g.languages.map((l) => (
                    <SelectGroup key={l.language} aria-label={l.heading}>
                      {g.languages.length > 1 ? <SelectLabel data-voice-heading className="pl-6 text-xs uppercase tracking-wide text-brand">{l.heading}</SelectLabel> : null}
                      {l.voices.map((v) => (
                        <SelectItem key={v.id} value={v.id}>
                          {voiceLabel(v)}
                        </SelectItem>
                      ))}
                    </SelectGroup>
                  ))}
                </SelectGroup>
              ))}
            </SelectContent>
          </Select>
          {voiceId ? <VoiceSampleButton voiceId={voiceId} voiceName={voices.data?.voices.find((v) => v.id === voiceId)?.name} /> : null}
          {voices.isError ? <p className="text-sm text-red-400">{serverMessage(voices.error)}</p> : null}
          {(() => {
            // the chosen voice's licence beside the picker (neural voices carry one; decision 205)
            const chosen = voices.data?.voices.find((v) => v.id === voiceId);
            return chosen?.licence ? (
              <p className="text-xs text-slate-400" data-voice-licence>
                Licence of {chosen.name}: {chosen.licence}
              </p>
            ) : null;
          })()}
          {offline ? (
            <p className="text-xs text-amber-300">No ElevenLabs API key is saved: these are the offline voices that ship with Reelsmith.</p>
          ) : null}
          {defaults.data?.voices.length ? (
            <p className="text-xs text-slate-400">Ready-made voices: {defaults.data.voices.join(", ")}.</p>
          ) : null}
        </div>
        <Button
          className="justify-self-start"
          disabled={!voiceId || save.isPending}
          onClick={() => save.mutate({ elevenLabsVoiceId: voiceId })}
        >
          {save.isPending ? "Saving..." : "Save Voice Settings"}
        </Button>
      </CardContent>
    </Card>
  );
}
