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
import { waitWithin } from "../call";
import { ProviderError } from "../errors";
import { createHttpClient, joinUrl, type CloudAdapterOptions } from "../http.server";
import { AI_CLIP_MAKERS } from "~/lib/clip-prices";
import type { ClipProvider } from "./types";

const PROVIDER = AI_CLIP_MAKERS.veo;
export const VEO_OPERATION_JOB = "veo:operation";

export type VeoOptions = CloudAdapterOptions & { model: string; pollIntervalMs?: number; pollTimeoutMs?: number };

const isGeminiKeyError = (status: number, body: string) => status === 400 && /API_KEY_INVALID|API key not valid|API key expired/i.test(body);

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
      const jobs = options.call?.jobs;
      let name = await jobs?.recall(VEO_OPERATION_JOB);
      if (!name) {
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
        name = started.name;
        await jobs?.remember(VEO_OPERATION_JOB, name);
      }
      // the spend is recorded for the job (once: by its id), whether this attempt started it or resumes it
      await onJobStarted?.(name);
      const deadline = Date.now() + pollTimeoutMs;
      for (;;) {
        const operation = await http
          .getJson(url(`/v1beta/${name.split("/").map(encodeURIComponent).join("/")}`), { headers }, OperationSchema, "the video operation")
          .catch(async (e: unknown) => {
            if (e instanceof ProviderError && e.status === 404) {
              // the service no longer knows the operation: forgotten, so the next attempt may start a new one
              await jobs?.forget(VEO_OPERATION_JOB);
              throw new ProviderError(PROVIDER, "malformed", `${PROVIDER} no longer knows operation ${name}.`);
            }
            throw e;
          });
        if (operation.error) {
          await jobs?.forget(VEO_OPERATION_JOB);
          throw new ProviderError(PROVIDER, "rejected", `${PROVIDER} could not make this clip: ${operation.error.message ?? `error ${operation.error.code}`}. Reword the prompt, then try again.`);
        }
        if (operation.done) {
          const result = operation.response?.generateVideoResponse;
          const sample = result?.generatedSamples[0];
          if (!sample) {
            await jobs?.forget(VEO_OPERATION_JOB);
            const reasons = result?.raiMediaFilteredReasons?.join(" ");
            throw new ProviderError(PROVIDER, "rejected", `${PROVIDER} made no video${reasons ? `: ${reasons}` : ""}. Reword the prompt, then try again.`);
          }
          const { data, contentType } = await http.download(sample.video.uri, { headers: { "x-goog-api-key": options.apiKey } });
          return { video: data, mimeType: contentType.startsWith("video/") ? contentType : "video/mp4", jobId: name };
        }
        if (Date.now() > deadline) {
          throw new ProviderError(PROVIDER, "timeout", `${PROVIDER} did not finish the clip within ${Math.round(pollTimeoutMs / 60_000)} minutes. Try again.`);
        }
        await waitWithin(options.call, pollIntervalMs);
      }
    },
  };
}
