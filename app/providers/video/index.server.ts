// The clip provider for a creator's request (issue 50): Veo with their Gemini key, Runway with their Runway key.
import { getEnv } from "~/core/env.server";
import type { ProviderTuning } from "../index.server";
import { clipPrice } from "~/lib/clip-prices";
import { createRunwayClipProvider } from "./runway.server";
import type { ClipProvider, ClipProviderId } from "./types";
import { createVeoClipProvider } from "./veo.server";

export type ClipKeys = { geminiApiKey?: string; runwayApiKey?: string };

/** Says which key is missing, in the words of Settings. */
export class ClipKeyMissing extends Error {
  constructor(provider: ClipProviderId) {
    super(provider === "veo" ? "AI clips with Veo use your Gemini API key: save it in Settings (API Keys) first." : "AI clips with Runway use your Runway API key: save it in Settings (AI clips) first.");
    this.name = "ClipKeyMissing";
  }
}

export function clipProviderFor(provider: ClipProviderId, keys: ClipKeys, tuning: ProviderTuning & { model?: string; pollIntervalMs?: number } = {}): ClipProvider {
  const env = getEnv();
  const model = clipPrice(provider, tuning.model).model;
  const common = { policy: tuning.policy, call: tuning.call, model, pollIntervalMs: tuning.pollIntervalMs };
  if (provider === "veo") {
    if (!keys.geminiApiKey?.trim()) throw new ClipKeyMissing("veo");
    return createVeoClipProvider({ ...common, apiKey: keys.geminiApiKey.trim(), baseUrl: env.GEMINI_BASE_URL });
  }
  if (!keys.runwayApiKey?.trim()) throw new ClipKeyMissing("runway");
  return createRunwayClipProvider({ ...common, apiKey: keys.runwayApiKey.trim(), baseUrl: env.RUNWAY_BASE_URL });
}
