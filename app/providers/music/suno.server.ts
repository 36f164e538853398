// Suno-style music over the sunoapi.org REST API (Bearer key): submit a generation (two tracks per task), poll
// its record, then fetch each track's audio. More than two tracks take several tasks; our task id lists them.
// The service also POSTs results to callBackUrl (see parseSunoCallback); polling alone is enough to finish.
// Each submitted task is paid for: its id goes into the call's job ledger as soon as it is known, so a retried
// attempt submits only the tasks not yet started (decision 200), each claimed before its request, so two attempts
// alive at once submit it once (decision 274). sunoapi.org documents no idempotency key.
import { z } from "zod";
import { ProviderError } from "../errors";
import { createHttpClient, joinUrl, type CloudAdapterOptions } from "../http.server";
import type { MusicProvider, MusicTaskStatus, MusicTrackResult } from "../types";
import { startPaidJobOnce } from "../paid-start";

const PROVIDER = "Suno";
export const SUNO_MODEL = "V4_5";
const TRACKS_PER_TASK = 2;
/** Prompts in non-custom mode are limited (500 characters); stay under it. */
const MAX_PROMPT_CHARS = 480;
const TASK_PREFIX = "suno:";

export type SunoOptions = CloudAdapterOptions & { callbackUrl: string };

const Envelope = <T extends z.ZodType>(data: T) => z.object({ code: z.number(), msg: z.string().nullish(), data: data.nullish() });
const SubmitSchema = Envelope(z.object({ taskId: z.string().min(1) }));
const TrackSchema = z.object({
  id: z.string().nullish(),
  audioUrl: z.string().nullish(),
  title: z.string().nullish(),
  duration: z.number().nullish(),
});
const RecordSchema = Envelope(
  z.object({
    taskId: z.string(),
    status: z.string(),
    response: z.object({ sunoData: z.array(TrackSchema).nullish() }).nullish(),
    errorMessage: z.string().nullish(),
  }),
);

const FAILED = new Set(["CREATE_TASK_FAILED", "GENERATE_AUDIO_FAILED", "CALLBACK_EXCEPTION", "SENSITIVE_WORD_ERROR"]);

/** sunoapi.org also reports failures in the body's `code`; map them like HTTP statuses. */
function checkEnvelope(body: { code: number; msg?: string | null }) {
  if (body.code === 200) return;
  const msg = body.msg ?? "no message";
  if (body.code === 401) throw new ProviderError(PROVIDER, "auth", `${PROVIDER} rejected the API key. Check the key saved in Settings (API Keys).`, 401);
  if (body.code === 429 || body.code === 430) {
    throw new ProviderError(PROVIDER, "rate_limited", `${PROVIDER} is limiting requests (${msg}). Wait a few minutes, then try again.`, body.code);
  }
  if (body.code >= 500) throw new ProviderError(PROVIDER, "unavailable", `${PROVIDER} failed (code ${body.code}: ${msg}). Try again later.`, body.code);
  throw new ProviderError(PROVIDER, "rejected", `${PROVIDER} refused the request (code ${body.code}: ${msg}).`, body.code);
}

export function encodeSunoTask(trackCount: number, taskIds: string[]): string {
  return `${TASK_PREFIX}${trackCount}:${taskIds.join(",")}`;
}

export function decodeSunoTask(taskId: string): { trackCount: number; taskIds: string[] } {
  const match = /^suno:(\d+):(.+)$/.exec(taskId);
  if (!match) throw new ProviderError(PROVIDER, "rejected", `Unknown Suno task "${taskId.slice(0, 40)}".`);
  return { trackCount: Number(match[1]), taskIds: match[2]!.split(",").filter(Boolean) };
}

export function createSunoMusicProvider(options: SunoOptions): MusicProvider {
  const http = createHttpClient({ provider: PROVIDER, policy: options.policy, call: options.call });
  const headers = { authorization: `Bearer ${options.apiKey}`, accept: "application/json" };

  async function submit(prompt: string, index: number): Promise<string> {
    const job = `suno:task:${index}`;
    return startPaidJobOnce({ provider: PROVIDER, ledgerName: job, noun: "task", subject: "this music", call: options.call }, async () => {
      const body = await http.getJson(
        joinUrl(options.baseUrl, "/api/v1/generate"),
        {
          method: "POST",
          headers: { ...headers, "content-type": "application/json" },
          body: JSON.stringify({ prompt, customMode: false, instrumental: true, model: SUNO_MODEL, callBackUrl: options.callbackUrl }),
        },
        SubmitSchema,
        "the generation task",
        { paid: true },
      );
      checkEnvelope(body);
      if (!body.data) throw new ProviderError(PROVIDER, "malformed", `${PROVIDER} accepted the request but sent no task id.`);
      return body.data.taskId;
    });
  }

  async function record(taskId: string) {
    const body = await http.getJson(
      `${joinUrl(options.baseUrl, "/api/v1/generate/record-info")}?taskId=${encodeURIComponent(taskId)}`,
      { headers },
      RecordSchema,
      "the task status",
    );
    checkEnvelope(body);
    if (!body.data) throw new ProviderError(PROVIDER, "malformed", `${PROVIDER} sent no details for task ${taskId}.`);
    return body.data;
  }

  return {
    name: "Suno",
    source: "cloud",

    async startGeneration({ prompt, trackCount }) {
      const text = prompt.trim().slice(0, MAX_PROMPT_CHARS);
      if (!text) throw new ProviderError(PROVIDER, "rejected", "Please enter a music prompt to generate tracks.");
      const count = Math.min(5, Math.max(1, Math.round(trackCount)));
      const taskIds: string[] = [];
      for (let i = 0; i < Math.ceil(count / TRACKS_PER_TASK); i++) taskIds.push(await submit(text, i));
      return { taskId: encodeSunoTask(count, taskIds) };
    },

    async poll(taskId) {
      const { trackCount, taskIds } = decodeSunoTask(taskId);
      const records = await Promise.all(taskIds.map(record));
      const failed = records.find((r) => FAILED.has(r.status));
      if (failed) return { status: "error", tracks: [], error: `${PROVIDER} could not make the music: ${failed.errorMessage ?? failed.status}.` };
      if (!records.every((r) => r.status === "SUCCESS")) {
        const status: MusicTaskStatus = records.every((r) => r.status === "PENDING") ? "pending" : "processing";
        return { status, tracks: [] };
      }
      const found = records.flatMap((r) => r.response?.sunoData ?? []).slice(0, trackCount);
      if (found.length < trackCount) {
        throw new ProviderError(PROVIDER, "malformed", `${PROVIDER} finished with ${found.length} track(s) where ${trackCount} were asked for.`);
      }
      const tracks: MusicTrackResult[] = [];
      for (const [i, t] of found.entries()) {
        if (!t.audioUrl || !t.duration) throw new ProviderError(PROVIDER, "malformed", `${PROVIDER} finished track ${i + 1} without its audio URL or duration.`);
        const { data, contentType } = await http.download(t.audioUrl);
        tracks.push({ title: t.title?.trim() || "Untitled Track", audioUrl: t.audioUrl, audio: data, mimeType: contentType.split(";")[0]!, durationSeconds: t.duration });
      }
      return { status: "completed", tracks };
    },
  };
}

const CallbackSchema = z.object({
  code: z.number(),
  msg: z.string().nullish(),
  data: z.object({
    callbackType: z.string(),
    task_id: z.string().min(1),
    data: z.array(z.object({ audio_url: z.string().nullish(), title: z.string().nullish(), duration: z.number().nullish() })).nullish(),
  }),
});

export type SunoCallback = { taskId: string; callbackType: string; ok: boolean; message: string; tracks: { audioUrl?: string; title?: string; durationSeconds?: number }[] };

/** Parses the body sunoapi.org POSTs to callBackUrl; throws a ProviderError naming what is wrong. */
export function parseSunoCallback(body: unknown): SunoCallback {
  const parsed = CallbackSchema.safeParse(body);
  if (!parsed.success) throw new ProviderError(PROVIDER, "malformed", `Not a ${PROVIDER} callback (${parsed.error.issues[0]?.message ?? "unexpected shape"}).`);
  const { code, msg, data } = parsed.data;
  return {
    taskId: data.task_id,
    callbackType: data.callbackType,
    ok: code === 200 && data.callbackType !== "error",
    message: msg ?? "",
    tracks: (data.data ?? []).map((t) => ({ audioUrl: t.audio_url ?? undefined, title: t.title ?? undefined, durationSeconds: t.duration ?? undefined })),
  };
}
