// The narration part of /create (issue 24): the language, the voice (grouped by language; "Automatic" picks the
// language's default) and the voice speed.
import { useQuery } from "@tanstack/react-query";
import { useDeferredValue } from "react";
import { apiGet, serverMessage } from "~/lib/api-client";
import { LANGUAGES, languageLabel, offlineWriterLanguages, offlineWriterWrites } from "~/lib/languages";
import { defaultVoiceFor, groupVoicesByLanguage, neuralVoiceFor, speaksLanguage } from "~/lib/voices";
import { VOICE_SPEED, formatVoiceSpeed } from "~/lib/voice-speed";
import type { Voice } from "~/providers/types";
import { voiceLabel } from "~/components/settings/voice-options";
import { VoiceSampleButton } from "~/components/settings/voice-sample-button";
import { LabelledSlider } from "./labelled-slider";

export type VoicesResponse = { voices: Voice[]; source: "cloud" | "offline"; provider: string };

export const VOICES_QUERY_KEY = ["voices", "all"] as const;

/** The voices of the creator's speech service; `initial`, when the page's loader sent them, is shown at once. */
export function useVoiceList(initial?: VoicesResponse | null) {
  return useQuery({
    queryKey: VOICES_QUERY_KEY,
    queryFn: () => apiGet<VoicesResponse>("/api/elevenlabs/voices"),
    // a list sent with the page is this minute's: no second request for it as the page starts
    ...(initial ? { initialData: initial, staleTime: 60_000 } : {}),
  });
}

const selectClass = "w-full rounded-md border border-slate-700 bg-slate-950 px-3 py-2 outline-none focus:border-brand";

export function NarrationFields(props: {
  language: string;
  voiceId: string;
  voiceSpeed: number;
  savedVoiceId?: string | null;
  /** The voices, when the page's loader sent them (the offline ones): the select is drawn with the page. */
  initialVoices?: VoicesResponse | null;
  onLanguage: (code: string) => void;
  onVoice: (id: string) => void;
  onSpeed: (speed: number) => void;
}) {
  const voices = useVoiceList(props.initialVoices);
  const list = voices.data?.voices ?? [];
  // Every voice of every language is an <option> (a few hundred): the arrived list is drawn as a deferred update,
  // which React splits into short tasks, so it does not hold the page for one long task (issue 36). Until it is
  // drawn, the select still says "Loading voices...".
  const shown = useDeferredValue(voices.data?.voices);
  const loading = voices.isLoading || (voices.data !== undefined && shown === undefined);
  const automatic = defaultVoiceFor(props.language, shown ?? [], [props.savedVoiceId]);
  const automaticName = shown?.find((v) => v.id === automatic)?.name;
  const groups = groupVoicesByLanguage(shown ?? [], props.language);
  const offline = voices.data?.source === "offline";
  // the voice that will speak (chosen, else automatic): its licence is shown beside the picker (decision 205)
  const speaking = shown?.find((v) => v.id === (props.voiceId || automatic));
  const neural = neuralVoiceFor(props.language, shown ?? []);

  function chooseLanguage(code: string) {
    props.onLanguage(code);
    // A chosen voice that cannot speak the new language goes back to the automatic one.
    const chosen = list.find((v) => v.id === props.voiceId);
    if (chosen && !speaksLanguage(chosen, code)) props.onVoice("");
  }

  return (
    <fieldset className="grid gap-4 rounded-lg border border-slate-800 p-4">
      <legend className="px-1 text-sm font-medium">Narration</legend>
      <div className="grid gap-2">
        <label htmlFor="create-language" className="text-sm font-medium">
          Language
        </label>
        <select id="create-language" name="language" value={props.language} onChange={(e) => chooseLanguage(e.target.value)} className={selectClass}>
          {LANGUAGES.map((l) => (
            <option key={l.code} value={l.code}>
              {languageLabel(l.code)}
            </option>
          ))}
        </select>
        {!offlineWriterWrites(props.language) ? (
          <span className="text-xs text-amber-300">
            The offline script writer writes {offlineWriterLanguages()} only: for a {LANGUAGES.find((l) => l.code === props.language)?.name} script,
            save a Gemini API key or an OpenAI-compatible model in Settings.
          </span>
        ) : null}
      </div>
      <div className="grid gap-2">
        <label htmlFor="create-voice" className="text-sm font-medium">
          Voice
        </label>
        <select
          id="create-voice"
          name="voiceId"
          value={props.voiceId}
          onChange={(e) => props.onVoice(e.target.value)}
          className={selectClass}
          disabled={loading}
        >
          <option value="">{loading ? "Loading voices..." : `Automatic${automaticName ? `: ${automaticName}` : ""}`}</option>
          {groups.map((g) => (
            <optgroup key={g.language} label={g.heading}>
              {g.voices.map((v) => (
                <option key={v.id} value={v.id}>
                  {voiceLabel(v)}
                  {v.gender && !v.name.includes(v.gender) ? ` · ${v.gender}` : ""}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
        {speaking ? <VoiceSampleButton voiceId={speaking.id} voiceName={speaking.name} /> : null}
        {voices.isError ? <span className="text-sm text-red-400">{serverMessage(voices.error)}</span> : null}
        {speaking?.licence ? (
          <span className="text-xs text-slate-400" data-voice-licence>
            Licence of {speaking.name}: {speaking.licence}
          </span>
        ) : null}
        <span className="text-xs text-slate-400">
          {!offline
            ? `${voices.data?.provider ?? "Your voice service"} voices speak every language with its multilingual model.`
            : neural
              ? `Offline voices: ${neural.name} is the neural voice for ${languageLabel(props.language)}; Flite speaks English, eSpeak NG the other languages.`
              : "Offline voices: Flite speaks English, eSpeak NG the other languages."}
        </span>
        {offline && shown && !neural ? (
          <span className="text-xs text-amber-300" data-no-neural-voice>
            No neural voice is installed for {languageLabel(props.language)}: the voiceovers use {automaticName ?? "the offline voice"}, which is
            less natural. An owner can add a Piper voice (its .onnx and .onnx.json) to the voices folder.
          </span>
        ) : null}
      </div>
      <VoiceSpeedSlider value={props.voiceSpeed} onChange={props.onSpeed} />
    </fieldset>
  );
}

export function VoiceSpeedSlider({ value, onChange }: { value: number; onChange: (v: number) => void }) {
  return (
    <LabelledSlider
      labelId="voice-speed-label"
      label="Voice speed"
      valueText={formatVoiceSpeed(value)}
      thumbLabel="Voice speed"
      min={VOICE_SPEED.min}
      max={VOICE_SPEED.max}
      step={VOICE_SPEED.step}
      value={value}
      onChange={(v) => onChange(Math.round(v * 100) / 100)}
      minText={`${formatVoiceSpeed(VOICE_SPEED.min)} slower`}
      maxText={`${formatVoiceSpeed(VOICE_SPEED.max)} faster`}
    />
  );
}
