// Cloud-like waits for the offline providers (issue 53, decisions 255 and 295): with FAKE_PROVIDER_LATENCY_MS set,
// each picture, voiceover, script chunk and music request of an offline provider answers that many milliseconds after
// it was asked, as a cloud service would (a few seconds per picture or voiceover), its offline work inside that time.
// Benchmarks (`bench:journey`, `bench:long`) set it to measure a pipeline whose stages mostly wait on the network;
// unset or 0, nothing changes. The text provider's scene split and metadata wait a quarter of it, as a short model call.
import { setTimeout as sleep } from "node:timers/promises";
import type { ImageProvider, MusicProvider, SpeechProvider, TextProvider } from "./types";

/** The wait from the environment, in milliseconds (0: none); at most a minute. */
export function cloudLikeLatencyMs(env: Record<string, string | undefined> = process.env): number {
  const ms = Number(env.FAKE_PROVIDER_LATENCY_MS ?? 0);
  return Number.isFinite(ms) && ms > 0 ? Math.min(60_000, Math.round(ms)) : 0;
}

/** The provider inside a cloud-like wrapper (a key only this module holds). */
const WAITLESS = Symbol("the provider without its cloud-like waits");

function delayed<T extends object>(provider: T, ms: number, methods: Partial<Record<keyof T, number>>): T {
  if (ms <= 0) return provider;
  return new Proxy(provider, {
    get(target, key, receiver) {
      if (key === WAITLESS) return target;
      const value = Reflect.get(target, key, receiver) as unknown;
      const share = methods[key as keyof T];
      if (typeof value !== "function" || share === undefined) return value;
      return async (...args: unknown[]) => {
        // the wait counts from the request, as a service's latency does: the stand-in's own work is inside it, and
        // only a stand-in slower than the service answers later (decision 295)
        const answerAt = performance.now() + ms * share;
        const result = await (value as (...a: unknown[]) => unknown).apply(target, args);
        const left = answerAt - performance.now();
        if (left > 0) await sleep(left);
        return result;
      };
    },
  });
}

export const withCloudLikeSpeech = (p: SpeechProvider, ms = cloudLikeLatencyMs()) => delayed(p, ms, { synthesize: 1 });
export const withCloudLikeImages = (p: ImageProvider, ms = cloudLikeLatencyMs()) => delayed(p, ms, { generateImage: 1 });
export const withCloudLikeMusic = (p: MusicProvider, ms = cloudLikeLatencyMs()) => delayed(p, ms, { startGeneration: 1 });
export const withCloudLikeText = (p: TextProvider, ms = cloudLikeLatencyMs()) =>
  delayed(p, ms, { writeScriptChunk: 1, expandScriptChunk: 1, splitIntoScenes: 0.25, writeUploadMetadata: 0.25, proofreadScript: 0.25 });

/**
 * The same provider without the cloud-like waits: the offline writer's own redraws while a script is fitted to its
 * time (workflows/activities/script.ts) never leave the machine, and a cloud model is not redrawn at all, so only
 * its first draft stands for a model call (decision 294). Any other provider is returned as it is.
 */
export function withoutCloudLikeWaits<T extends object>(provider: T): T {
  return ((provider as Record<symbol, unknown>)[WAITLESS] as T | undefined) ?? provider;
}
