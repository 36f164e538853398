// Leonardo.Ai images over its documented REST API (Bearer key): models grouped custom/featured/core, and a
// generation that is created, then polled until COMPLETE (the /api/leonardo-webhook callback is the other way to
// learn of completion; see leonardo-webhook.server.ts). The image is resized to the storyboard's exact size.
// A generation is paid for: it is created once per activity, its id kept in the call's job ledger before it is polled,
// so a retried attempt (or another worker) polls the same generation (decision 200), and claimed before the request,
// so two attempts alive at once pay for one (decision 274). Leonardo documents no
// idempotency key, so none is sent.
import sharp from "sharp";
import { z } from "zod";
import { waitWithin } from "../call";
import { ProviderError } from "../errors";
import { createHttpClient, joinUrl, type CloudAdapterOptions } from "../http.server";
import type { AspectRatio, ImageModel, ImageProvider } from "../types";
import { IMAGE_SIZES } from "./offline-scene.server";
import { startPaidJobOnce } from "../paid-start";

const PROVIDER = "Leonardo";
/** Leonardo Kino XL, the spec's default image model. */
export const DEFAULT_LEONARDO_MODEL = "aa77f04e-3eec-4034-9c07-d0f619684628";
/** Sizes Leonardo accepts (multiples of 8, at most 1536) in each aspect. */
const REQUEST_SIZES: Record<AspectRatio, { width: number; height: number }> = {
  "16:9": { width: 1360, height: 768 },
  "9:16": { width: 768, height: 1360 },
};

export type LeonardoOptions = CloudAdapterOptions & {
  /** Wait between status checks of a generation. */
  pollIntervalMs?: number;
  /** Give up on a generation that has not completed after this long. */
  pollTimeoutMs?: number;
};

const ModelSchema = z.object({ id: z.string().min(1), name: z.string(), description: z.string().nullish(), featured: z.boolean().nullish() });
const ModelsSchema = z.object({ custom_models: z.array(ModelSchema) });
const MeSchema = z.object({ user_details: z.array(z.object({ user: z.object({ id: z.string().min(1) }) })).min(1) });
const CreateSchema = z.object({ sdGenerationJob: z.object({ generationId: z.string().min(1) }) });
const GenerationSchema = z.object({
  generations_by_pk: z
    .object({
      status: z.enum(["PENDING", "COMPLETE", "FAILED"]),
      generated_images: z.array(z.object({ url: z.string().url() })).default([]),
    })
    .nullable(),
});

/** The ledger's name for the generation of this call. */
const GENERATION_JOB = "leonardo:generation";

export function createLeonardoImageProvider(options: LeonardoOptions): ImageProvider {
  const http = createHttpClient({ provider: PROVIDER, policy: options.policy, call: options.call });
  const headers = { authorization: `Bearer ${options.apiKey}`, accept: "application/json" };
  const url = (path: string) => joinUrl(options.baseUrl, path);
  const pollIntervalMs = options.pollIntervalMs ?? 2000;
  const pollTimeoutMs = options.pollTimeoutMs ?? 180_000;

  const toModel = (m: z.infer<typeof ModelSchema>, group: ImageModel["group"]): ImageModel => ({
    id: m.id,
    name: m.name,
    description: m.description ?? "",
    group,
  });

  return {
    name: "Leonardo.Ai",
    source: "cloud",

    async listModels() {
      const me = await http.getJson(url("/me"), { headers }, MeSchema, "the account details");
      const userId = me.user_details[0]!.user.id;
      const [own, platform] = await Promise.all([
        http.getJson(url(`/models/user/${encodeURIComponent(userId)}`), { headers }, ModelsSchema, "the custom model list"),
        http.getJson(url("/platformModels"), { headers }, ModelsSchema, "the platform model list"),
      ]);
      return [
        ...own.custom_models.map((m) => toModel(m, "custom_models")),
        ...platform.custom_models.filter((m) => m.featured).map((m) => toModel(m, "featured_models")),
        ...platform.custom_models.filter((m) => !m.featured).map((m) => toModel(m, "core_models")),
      ];
    },

    async generateImage({ prompt, aspectRatio, modelId }) {
      if (!prompt.trim()) throw new ProviderError(PROVIDER, "rejected", "The image prompt is empty: write one for this scene first.");
      const size = REQUEST_SIZES[aspectRatio];
      const jobs = options.call?.jobs;
      const id = await startPaidJobOnce({ provider: PROVIDER, ledgerName: GENERATION_JOB, noun: "generation", subject: "this image", call: options.call }, async () => {
        const created = await http.getJson(
          url("/generations"),
          {
            method: "POST",
            headers: { ...headers, "content-type": "application/json" },
            body: JSON.stringify({ prompt: prompt.trim().slice(0, 1500), modelId: modelId || DEFAULT_LEONARDO_MODEL, width: size.width, height: size.height, num_images: 1 }),
          },
          CreateSchema,
          "the generation job",
          { paid: true },
        );
        return created.sdGenerationJob.generationId;
      });
      const deadline = Date.now() + pollTimeoutMs;
      for (;;) {
        const { generations_by_pk: generation } = await http.getJson(url(`/generations/${encodeURIComponent(id)}`), { headers }, GenerationSchema, "the generation status");
        if (!generation) {
          await jobs?.forget(GENERATION_JOB);
          throw new ProviderError(PROVIDER, "malformed", `${PROVIDER} no longer knows generation ${id}.`);
        }
        if (generation.status === "FAILED") {
          // a failed generation is not polled again: the next attempt starts a new one
          await jobs?.forget(GENERATION_JOB);
          throw new ProviderError(PROVIDER, "unavailable", `${PROVIDER} could not generate this image (status FAILED). Try again, or reword the prompt.`);
        }
        if (generation.status === "COMPLETE") {
          const first = generation.generated_images[0];
          if (!first) throw new ProviderError(PROVIDER, "malformed", `${PROVIDER} completed generation ${id} without an image.`);
          const { data } = await http.download(first.url);
          const { width, height } = IMAGE_SIZES[aspectRatio];
          let image: Buffer;
          try {
            image = await sharp(data).resize(width, height, { fit: "cover" }).png().toBuffer();
          } catch {
            throw new ProviderError(PROVIDER, "malformed", `${PROVIDER} sent an image file we could not read.`);
          }
          return { image, mimeType: "image/png", width, height };
        }
        if (Date.now() > deadline) {
          throw new ProviderError(PROVIDER, "timeout", `${PROVIDER} did not finish the image within ${Math.round(pollTimeoutMs / 1000)} s. Try again.`);
        }
        await waitWithin(options.call, pollIntervalMs);
      }
    },
  };
}
