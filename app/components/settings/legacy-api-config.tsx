// The older, light-theme API Configuration page: the same keys (pre-filled with mask dots for saved ones),
// voice loading by category, model loading, watermark and logo upload/removal, and a polled error log.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { toast } from "~/hooks/use-toast";
import { apiGet, apiRequest, serverMessage } from "~/lib/api-client";
import { FILE_LIMITS, POLLING_MS, RECENT_ERRORS_SHOWN } from "~/lib/constants";
import type { VoiceCategory } from "~/providers/types";
import { API_KEY_INPUTS } from "./api-keys-card";
import { flattenModels, modelLabel } from "./model-options";
import { CONFIG_KEY, readAsDataUrl, useConfig, useSaveConfig } from "./queries";
import { MASK_DOT, fieldsToSave } from "./secret-fields";
import type { ErrorLogEntry, ModelsResponse, PublicConfig, VoicesResponse } from "./types";
import { groupVoices, voiceLabel } from "./voice-options";

const LOGO_TYPES = ["image/svg+xml", "image/png", "image/jpeg"];
const input = "w-full rounded border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 placeholder:text-slate-400";
const button = "rounded bg-blue-600 px-4 py-2 text-sm font-medium text-white hover:bg-blue-700 disabled:opacity-50";
const section = "rounded-lg border border-slate-200 bg-white p-6 shadow-sm";

const masked = (length: number | null | undefined) => (length === 0 || length === undefined ? "" : MASK_DOT.repeat(length ?? 8));

async function logClientError(type: string, message: string) {
  await apiRequest("POST", "/api/error-logs", { type, message }).catch(() => undefined);
}

export function LegacyApiConfig({ isOwner }: { isOwner: boolean }) {
  const config = useConfig();
  return (
    <div className="min-h-screen bg-slate-50 text-slate-900" style={{ colorScheme: "light" }}>
      <main className="mx-auto grid max-w-3xl grid-cols-1 gap-6 px-4 py-10">
        <h1 className="text-3xl font-bold">API Configuration</h1>
        <KeysSection config={config.data} />
        <VoicesSection config={config.data} />
        <ModelsSection config={config.data} />
        <WatermarkSection config={config.data} />
        {isOwner ? <LogoSection config={config.data} /> : null}
        <ErrorLogSection />
      </main>
    </div>
  );
}

function KeysSection({ config }: { config: PublicConfig | null | undefined }) {
  const fromConfig = (c: PublicConfig | null | undefined) => ({
    geminiApiKey: masked(c?.geminiApiKeyLength),
    elevenLabsApiKey: masked(c?.elevenLabsApiKeyLength),
    leonardoApiKey: masked(c?.leonardoApiKeyLength),
    sunoApiKey: masked(c?.sunoApiKeyLength),
    pexelsApiKey: masked(c?.pexelsApiKeyLength),
    googleOAuthClientSecret: masked(c?.googleOAuthClientSecretLength),
    googleOAuthClientId: c?.googleOAuthClientId ?? "",
  });
  const [values, setValues] = useState(() => fromConfig(config));
  useEffect(() => setValues(fromConfig(config)), [config]);
  const save = useSaveConfig({ title: "API Keys Saved", description: "Your keys are stored encrypted." });

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const update = fieldsToSave(values);
    if (update.googleOAuthClientId === (config?.googleOAuthClientId ?? "")) delete update.googleOAuthClientId;
    if (Object.keys(update).length === 0) {
      toast({ title: "No API Keys to Save", description: "Please enter at least one API key to save.", variant: "destructive" });
      return;
    }
    save.mutate(update);
  }

  const fields = [
    ...API_KEY_INPUTS.map(({ field, label }) => ({ field, label, secret: true })),
    { field: "googleOAuthClientId" as const, label: "Google OAuth Client ID", secret: false },
    { field: "googleOAuthClientSecret" as const, label: "Google OAuth Client Secret", secret: true },
  ];
  return (
    <form className={`${section} grid gap-4`} onSubmit={submit}>
      <h2 className="text-xl font-semibold">API Keys</h2>
      {fields.map(({ field, label, secret }) => (
        <label key={field} className="grid gap-1 text-sm font-medium">
          {label}
          <input
            className={input}
            type={secret ? "password" : "text"}
            autoComplete="off"
            name={`legacy-${field}`}
            value={values[field]}
            onFocus={(e) => secret && /^•+$/.test(e.target.value) && e.target.select()}
            onChange={(e) => setValues((v) => ({ ...v, [field]: e.target.value }))}
          />
        </label>
      ))}
      <button className={`${button} justify-self-start`} type="submit" disabled={save.isPending}>
        {save.isPending ? "Saving..." : "Save Configuration"}
      </button>
    </form>
  );
}

const CATEGORIES: { value: VoiceCategory; label: string }[] = [
  { value: "premade", label: "Premade" },
  { value: "cloned", label: "Voice Clones" },
  { value: "generated", label: "Generated" },
  { value: "professional", label: "Professional" },
];

function VoicesSection({ config }: { config: PublicConfig | null | undefined }) {
  const [category, setCategory] = useState<VoiceCategory>("premade");
  const [requested, setRequested] = useState<VoiceCategory | null>(null);
  const [voiceId, setVoiceId] = useState("");
  useEffect(() => setVoiceId(config?.elevenLabsVoiceId ?? ""), [config?.elevenLabsVoiceId]);
  const voices = useQuery({
    queryKey: ["voices", requested],
    queryFn: () => apiGet<VoicesResponse>(`/api/elevenlabs/voices?category=${requested}`),
    enabled: requested !== null,
  });
  const save = useSaveConfig({ title: "Voice Settings Saved", description: "New voiceovers use this voice." });

  useEffect(() => {
    if (!voices.isError) return;
    const message = serverMessage(voices.error);
    toast({ title: "Failed to load voices/models", description: message, variant: "destructive" });
    void logClientError("voice_list", `Failed to load ${requested} voices: ${message}`);
  }, [voices.isError, voices.error, requested]);

  function load() {
    if (config && config.elevenLabsApiKeyLength === 0) {
      toast({ title: "API Key Required", description: "Save your ElevenLabs API key first to load the voices of your account." });
      return;
    }
    if (requested === category) void voices.refetch();
    else setRequested(category);
  }

  const groups = groupVoices(voices.data?.voices ?? []);
  return (
    <section className={`${section} grid gap-4`}>
      <h2 className="text-xl font-semibold">Voice</h2>
      <div className="flex flex-wrap items-end gap-2">
        <label className="grid gap-1 text-sm font-medium">
          Voice category
          <select className={input} value={category} onChange={(e) => setCategory(e.target.value as VoiceCategory)}>
            {CATEGORIES.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className={button} onClick={load} disabled={voices.isFetching}>
          {voices.isFetching ? "Loading..." : "Load Voices"}
        </button>
      </div>
      <label className="grid gap-1 text-sm font-medium">
        Voice
        <select className={input} value={voiceId} onChange={(e) => setVoiceId(e.target.value)}>
          <option value="">{config?.elevenLabsVoiceId ? `Saved voice (${config.elevenLabsVoiceId})` : "Select a voice"}</option>
          {groups.map((g) => (
            <optgroup key={g.group} label={g.heading}>
              {g.voices.map((v) => (
                <option key={v.id} value={v.id}>
                  {voiceLabel(v)}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </label>
      <button
        type="button"
        className={`${button} justify-self-start`}
        disabled={!voiceId || save.isPending}
        onClick={() => save.mutate({ elevenLabsVoiceId: voiceId })}
      >
        {save.isPending ? "Saving..." : "Save Voice"}
      </button>
    </section>
  );
}

function ModelsSection({ config }: { config: PublicConfig | null | undefined }) {
  const [requested, setRequested] = useState(false);
  const [modelId, setModelId] = useState("");
  useEffect(() => setModelId(config?.leonardoModelId ?? ""), [config?.leonardoModelId]);
  const models = useQuery({ queryKey: ["image-models", "legacy"], queryFn: () => apiGet<ModelsResponse>("/api/leonardo/models"), enabled: requested });
  const save = useSaveConfig({ title: "Model Settings Saved", description: "New scene images use this model." });

  useEffect(() => {
    if (!models.isError) return;
    const message = serverMessage(models.error);
    toast({ title: "Failed to load voices/models", description: message, variant: "destructive" });
    void logClientError("model_list", `Failed to load image models: ${message}`);
  }, [models.isError, models.error]);

  function load() {
    if (config && config.leonardoApiKeyLength === 0) {
      toast({ title: "API Key Required", description: "Save your Leonardo API key first to load its models." });
      return;
    }
    if (requested) void models.refetch();
    else setRequested(true);
  }

  const list = flattenModels(models.data);
  return (
    <section className={`${section} grid gap-4`}>
      <h2 className="text-xl font-semibold">Image Model</h2>
      <div className="flex flex-wrap items-end gap-2">
        <label className="grid flex-1 gap-1 text-sm font-medium">
          Model
          <select className={input} value={modelId} onChange={(e) => setModelId(e.target.value)}>
            <option value="">{config?.leonardoModelId ? `Saved model (${config.leonardoModelId})` : "Select Model"}</option>
            {list.map((m) => (
              <option key={m.id} value={m.id}>
                {modelLabel(m)}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className={button} onClick={load} disabled={models.isFetching}>
          {models.isFetching ? "Loading..." : "Load Models"}
        </button>
      </div>
      <button
        type="button"
        className={`${button} justify-self-start`}
        disabled={!modelId || save.isPending}
        onClick={() => save.mutate({ leonardoModelId: modelId })}
      >
        {save.isPending ? "Saving..." : "Save Model"}
      </button>
    </section>
  );
}

function useDataUrlUpload<T>(path: string, onDone: (result: T) => void) {
  return useMutation({
    mutationFn: async (file: File) => apiRequest<T>("POST", path, { imageData: await readAsDataUrl(file), fileName: file.name }),
    onSuccess: onDone,
    onError: (error) => toast({ title: "Upload failed", description: serverMessage(error), variant: "destructive" }),
  });
}

function WatermarkSection({ config }: { config: PublicConfig | null | undefined }) {
  const queryClient = useQueryClient();
  const upload = useDataUrlUpload<{ watermarkImageUrl: string }>("/api/upload-watermark", ({ watermarkImageUrl }) => {
    queryClient.setQueryData<PublicConfig | null>(CONFIG_KEY, (c) => (c ? { ...c, watermarkImageUrl } : c));
    toast({ title: "Watermark Uploaded", description: "It will appear bottom-right on your generated thumbnails." });
  });

  function choose(file: File | undefined) {
    if (!file) return;
    if (!file.type.startsWith("image/")) {
      toast({ title: "Invalid file type", description: "The watermark must be an image file.", variant: "destructive" });
      return;
    }
    if (file.size > FILE_LIMITS.legacyWatermarkBytes) {
      toast({ title: "File too large", description: "The watermark must be 5 MB or smaller.", variant: "destructive" });
      return;
    }
    upload.mutate(file);
  }

  return (
    <section className={`${section} grid gap-3`}>
      <h2 className="text-xl font-semibold">Watermark</h2>
      <input type="file" accept="image/*" aria-label="Watermark image" disabled={upload.isPending} onChange={(e) => choose(e.target.files?.[0])} />
      {config?.watermarkImageUrl ? <img src={config.watermarkImageUrl} alt="Watermark preview" className="h-16 w-fit object-contain" /> : null}
    </section>
  );
}

function LogoSection({ config }: { config: PublicConfig | null | undefined }) {
  const queryClient = useQueryClient();
  const apply = (customLogoUrl: string | null) => queryClient.setQueryData<PublicConfig | null>(CONFIG_KEY, (c) => (c ? { ...c, customLogoUrl } : c));
  const upload = useDataUrlUpload<{ customLogoUrl: string }>("/api/upload-logo", ({ customLogoUrl }) => {
    apply(customLogoUrl);
    toast({ title: "Logo Uploaded", description: "Every visitor now sees it." });
  });
  const remove = useMutation({
    mutationFn: () => apiRequest<{ success: boolean }>("DELETE", "/api/upload-logo"),
    onSuccess: () => {
      apply(null);
      toast({ title: "Logo Removed", description: "The header shows the product name again." });
    },
    onError: (error) => toast({ title: "Removal failed", description: serverMessage(error), variant: "destructive" }),
  });

  function choose(file: File | undefined) {
    if (!file) return;
    if (!LOGO_TYPES.includes(file.type)) {
      toast({ title: "Invalid file type", description: "The logo must be an SVG, PNG, JPG or JPEG image.", variant: "destructive" });
      return;
    }
    if (file.size > FILE_LIMITS.logoBytes) {
      toast({ title: "File too large", description: "The logo must be 2 MB or smaller.", variant: "destructive" });
      return;
    }
    upload.mutate(file);
  }

  return (
    <section className={`${section} grid gap-3`}>
      <h2 className="text-xl font-semibold">Logo</h2>
      <input type="file" accept=".svg,.png,.jpg,.jpeg" aria-label="Logo image" disabled={upload.isPending} onChange={(e) => choose(e.target.files?.[0])} />
      {config?.customLogoUrl ? (
        <div className="flex items-center gap-4">
          <img src={config.customLogoUrl} alt="Logo preview" className="h-12 object-contain" />
          <button type="button" className="rounded border border-red-300 px-3 py-1 text-sm text-red-700" onClick={() => remove.mutate()} disabled={remove.isPending}>
            Remove Logo
          </button>
        </div>
      ) : null}
    </section>
  );
}

function ErrorLogSection() {
  const logs = useQuery({
    queryKey: ["error-logs", "legacy"],
    queryFn: () => apiGet<ErrorLogEntry[]>("/api/error-logs"),
    refetchInterval: POLLING_MS.errorLogs,
  });
  const entries = (logs.data ?? []).slice(0, RECENT_ERRORS_SHOWN);
  return (
    <section className={`${section} grid gap-3`}>
      <h2 className="text-xl font-semibold">Error Log</h2>
      {logs.isLoading ? (
        <p className="text-sm text-slate-500">Loading error logs...</p>
      ) : entries.length === 0 ? (
        <p className="text-sm text-slate-500">No errors logged yet. Try generating video content to see errors here.</p>
      ) : (
        <ul className="grid max-h-96 gap-2 overflow-y-auto">
          {entries.map((e) => (
            <li key={e.id} className="rounded border border-slate-200 p-2 text-sm">
              <span className="font-mono text-xs text-red-700">{e.type}</span> <span className="text-xs text-slate-500">{new Date(e.timestamp).toLocaleString()}</span>
              <p>{e.message}</p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
