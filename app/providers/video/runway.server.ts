// Runway's developer API (issue 50, decision 223): the second clip service, image-to-video with gen4_turbo.
// Documented flow (https://docs.dev.runwayml.com/api/, headers "Authorization: Bearer <key>" and
// "X-Runway-Version: 2024-11-06"):
//   POST {base}/v1/image_to_video { model, promptImage (an HTTPS URL or a data URI), promptText (<= 1000 chars),
//     ratio ("1280:720" | "720:1280" | ...), duration (5 | 10) } -> { id }
//   GET {base}/v1/tasks/{id} -> { id, status: PENDING | THROTTLED | RUNNING | SUCCEEDED | FAILED | CANCELLED,
//     output?: [url], failure?, failureCode? }   (404 for a task deleted or unknown)
//   DELETE {base}/v1/tasks/{id} cancels a running task.
//   The output URLs are temporary (they expire within 24-48 h): downloaded at once.
// The task id is kept in the call's ledger before it is polled (decision 200). Runway documents no idempotency key.
import { z } from "zod";
import { givenUpOnPurpose } from "../call";
import { ProviderError } from "../errors";
import { createHttpClient, joinUrl, type CloudAdapterOptions } from "../http.server";
import type { AspectRatio } from "../types";
import { AI_CLIP_MAKERS } from "~/lib/clip-prices";
import { runPaidJob } from "./paid-job";
import type { ClipProvider } from "./types";

const PROVIDER = AI_CLIP_MAKERS.runway;
export const RUNWAY_TASK_JOB = "runway:task";
export const RUNWAY_API_VERSION = "2024-11-06";
/** The ratios gen4_turbo takes, in our two aspects. */
const RATIOS: Record<AspectRatio, string> = { "16:9": "1280:720", "9:16": "720:1280" };

export type RunwayOptions = CloudAdapterOptions & { model: string; pollIntervalMs?: number; pollTimeoutMs?: number };

const StartedSchema = z.object({ id: z.string().min(1) });
const TaskSchema = z.object({
  id: z.string(),
  status: z.enum(["PENDING", "THROTTLED", "RUNNING", "SUCCEEDED", "FAILED", "CANCELLED"]),
  output: z.array(z.string().min(1)).nullish(),
  failure: z.string().nullish(),
  failureCode: z.string().nullish(),
});

export function createRunwayClipProvider(options: RunwayOptions): ClipProvider {
  const http = createHttpClient({ provider: PROVIDER, policy: options.policy, call: options.call });
  const headers = { authorization: `Bearer ${options.apiKey}`, "x-runway-version": RUNWAY_API_VERSION, accept: "application/json" };
  const url = (path: string) => joinUrl(options.baseUrl, path);
  const pollIntervalMs = options.pollIntervalMs ?? 5000;
  const pollTimeoutMs = options.pollTimeoutMs ?? 8 * 60_000;

  return {
    id: "runway",
    name: PROVIDER,
    model: options.model,
    textToVideo: false,
    async generateClip(request, onJobStarted) {
      if (!request.image) throw new ProviderError(PROVIDER, "rejected", `${PROVIDER} ${options.model} starts from the scene's picture: make the picture first, or choose Veo to start from the words.`);
      const taskUrl = (id: string) => url(`/v1/tasks/${encodeURIComponent(id)}`);
      const { value, id } = await runPaidJob<Awaited<ReturnType<typeof http.download>>>({
        provider: PROVIDER,
        ledgerName: RUNWAY_TASK_JOB,
        noun: "task",
        call: options.call,
        intervalMs: pollIntervalMs,
        timeoutMs: pollTimeoutMs,
        start: async () => {
          const started = await http.getJson(
            url("/v1/image_to_video"),
            {
              method: "POST",
              headers: { ...headers, "content-type": "application/json" },
              body: JSON.stringify({
                model: options.model,
                promptImage: `data:${request.image!.mimeType};base64,${request.image!.data.toString("base64")}`,
                promptText: request.prompt.trim().slice(0, 1000),
                ratio: RATIOS[request.aspectRatio],
                duration: request.seconds,
              }),
            },
            StartedSchema,
            "the generation task",
            { paid: true },
          );
          return started.id;
        },
        // the spend is recorded for the job (once: by its id), whether this attempt started it or resumes it
        onStarted: onJobStarted,
        check: async (id) => {
          const task = await http.getJson(taskUrl(id), { headers }, TaskSchema, "the task status");
          if (task.status === "FAILED" || task.status === "CANCELLED") {
            const why = task.failure ? `: ${task.failure}${task.failureCode ? ` (${task.failureCode})` : ""}` : ` (status ${task.status})`;
            // a FAILED task's credits are returned (decision 270); a task cancelled mid-way is not documented so
            return { failed: new ProviderError(PROVIDER, "rejected", `${PROVIDER} could not make this clip${why}. Reword the prompt, then try again.`), uncharged: task.status === "FAILED" };
          }
          if (task.status !== "SUCCEEDED") return { done: false };
          const output = task.output?.[0];
          if (!output) throw new ProviderError(PROVIDER, "malformed", `${PROVIDER} finished task ${id} without a video.`);
          return { done: true, value: await http.download(output) };
        },
        // cancelled by the creator, or its run closed (givenUpOnPurpose): the task is cancelled at Runway too, so
        // it stops running; a worker shutting down, a timeout, this attempt superseded by a newer one (NOT_FOUND with
        // the run still open) or a plain failure leaves it to the ledger and the attempt that polls the same (paid)
        // task instead of buying another
        onPollFailure: async (id) => {
          if (!(await givenUpOnPurpose(options.call))) return;
          await fetch(taskUrl(id), { method: "DELETE", headers, signal: AbortSignal.timeout(5000) }).catch(() => {});
          await options.call?.jobs?.forget(RUNWAY_TASK_JOB);
        },
      });
      return { video: value.data, mimeType: value.contentType.startsWith("video/") ? value.contentType : "video/mp4", jobId: id };
    },
  };
}
