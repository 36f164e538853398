// Google Veo through the Gemini API with the creator's Gemini key (issue 50, decision 223). Documented flow
// (https://ai.google.dev/gemini-api/docs/video, REST tab):
//   POST {base}/v1beta/models/{model}:predictLongRunning, header x-goog-api-key,
//     { instances: [{ prompt, image?: { bytesBase64Encoded, mimeType } }], parameters: { aspectRatio, durationSeconds } }
//     -> a long-running operation { name: "models/{model}/operations/{id}" }
//   GET {base}/v1beta/{operation name} -> { name, done?, error?: { code, message },
//     response?: { generateVideoResponse: { generatedSamples: [{ video: { uri } }], raiMediaFilteredReasons? } } }
//   GET {video uri} with the same key header -> the MP4 (the file is kept by the service for 2 days).
// The operation's name is kept in the call's ledger before it is polled (decision 200): a retried attempt, or a new
// worker after one was killed, polls the same operation and never starts (and pays for) a second one.
import { z } from "zod";
import { ProviderError } from "../errors";
import { createHttpClient, joinUrl, type CloudAdapterOptions } from "../http.server";
import { AI_CLIP_MAKERS } from "~/lib/clip-prices";
import { runPaidJob } from "./paid-job";
import type { ClipProvider } from "./types";
import { isGeminiKeyError } from "../gemini-key-error";

const PROVIDER = AI_CLIP_MAKERS.veo;
export const VEO_OPERATION_JOB = "veo:operation";

export type VeoOptions = CloudAdapterOptions & { model: string; pollIntervalMs?: number; pollTimeoutMs?: number };


const StartedSchema = z.object({ name: z.string().min(1) });
const OperationSchema = z.object({
  name: z.string().optional(),
  done: z.boolean().optional(),
  error: z.object({ code: z.number().optional(), message: z.string().optional() }).optional(),
  response: z
    .object({
      generateVideoResponse: z
        .object({
          generatedSamples: z.array(z.object({ video: z.object({ uri: z.string().min(1) }) })).default([]),
          raiMediaFilteredReasons: z.array(z.string()).optional(),
        })
        .optional(),
    })
    .optional(),
});

export function createVeoClipProvider(options: VeoOptions): ClipProvider {
  const http = createHttpClient({ provider: PROVIDER, policy: options.policy, call: options.call, isAuthFailure: isGeminiKeyError });
  const headers = { "x-goog-api-key": options.apiKey, accept: "application/json" };
  const url = (path: string) => joinUrl(options.baseUrl, path);
  const pollIntervalMs = options.pollIntervalMs ?? 10_000;
  const pollTimeoutMs = options.pollTimeoutMs ?? 8 * 60_000;

  return {
    id: "veo",
    name: PROVIDER,
    model: options.model,
    textToVideo: true,
    async generateClip(request, onJobStarted) {
      if (!request.prompt.trim()) throw new ProviderError(PROVIDER, "rejected", "The scene has no prompt to make a clip from: write one first.");
      const { value, id } = await runPaidJob<Awaited<ReturnType<typeof http.download>>>({
        provider: PROVIDER,
        ledgerName: VEO_OPERATION_JOB,
        noun: "operation",
        call: options.call,
        intervalMs: pollIntervalMs,
        timeoutMs: pollTimeoutMs,
        start: async () => {
          const instance: Record<string, unknown> = { prompt: request.prompt.trim().slice(0, 1800) };
          if (request.image) instance.image = { bytesBase64Encoded: request.image.data.toString("base64"), mimeType: request.image.mimeType };
          const started = await http.getJson(
            url(`/v1beta/models/${encodeURIComponent(options.model)}:predictLongRunning`),
            {
              method: "POST",
              headers: { ...headers, "content-type": "application/json" },
              body: JSON.stringify({ instances: [instance], parameters: { aspectRatio: request.aspectRatio, durationSeconds: request.seconds } }),
            },
            StartedSchema,
            "the video operation",
            { paid: true },
          );
          return started.name;
        },
        // the spend is recorded for the job (once: by its id), whether this attempt started it or resumes it
        onStarted: onJobStarted,
        check: async (name) => {
          const operation = await http.getJson(url(`/v1beta/${name.split("/").map(encodeURIComponent).join("/")}`), { headers }, OperationSchema, "the video operation");
          if (operation.error) {
            return { failed: new ProviderError(PROVIDER, "rejected", `${PROVIDER} could not make this clip: ${operation.error.message ?? `error ${operation.error.code}`}. Reword the prompt, then try again.`), uncharged: true };
          }
          if (!operation.done) return { done: false };
          const result = operation.response?.generateVideoResponse;
          const sample = result?.generatedSamples[0];
          if (!sample) {
            const reasons = result?.raiMediaFilteredReasons?.join(" ");
            return { failed: new ProviderError(PROVIDER, "rejected", `${PROVIDER} made no video${reasons ? `: ${reasons}` : ""}. Reword the prompt, then try again.`), uncharged: true };
          }
          return { done: true, value: await http.download(sample.video.uri, { headers: { "x-goog-api-key": options.apiKey } }) };
        },
      });
      return { video: value.data, mimeType: value.contentType.startsWith("video/") ? value.contentType : "video/mp4", jobId: id };
    },
  };
}
