// The providers for one creator: each kind uses the cloud service whose key they saved, the offline one otherwise.
import { getEnv } from "~/core/env.server";
import type { ProviderCall } from "./call";
import type { RequestPolicy } from "./http.server";
import { createLeonardoImageProvider } from "./image/leonardo.server";
import { withCloudLikeImages, withCloudLikeMusic, withCloudLikeSpeech, withCloudLikeText } from "./cloud-like-latency";
import { createOfflineImageProvider } from "./image/offline-scene.server";
import { createPexelsProvider, type StockMediaProvider } from "./image/pexels.server";
import { createOfflineMusicProvider } from "./music/offline.server";
import { createSunoMusicProvider } from "./music/suno.server";
import { createElevenLabsSpeechProvider } from "./speech/elevenlabs.server";
import { createOfflineSpeechProvider } from "./speech/offline.server";
import { createGeminiTextProvider } from "./text/gemini.server";
import { createOpenAICompatibleTextProvider } from "./text/openai-compatible.server";
import { createOfflineTextProvider } from "./text/offline";
import type { ImageProvider, MusicProvider, ProviderKeys, SpeechProvider, TextProvider } from "./types";

/**
 * How the providers' requests behave: `call` is the attempt they work for (an activity's cancellation, deadline,
 * heartbeat and job ledger: workflows/activities/providers.ts), `policy` the time limits (tests shorten them).
 */
export type ProviderTuning = { policy?: Partial<RequestPolicy>; call?: ProviderCall };

export type Providers = { text: TextProvider; speech: SpeechProvider; image: ImageProvider; music: MusicProvider };

/** Where Suno posts results; the route that receives them reads them with parseSunoCallback. */
export const SUNO_CALLBACK_PATH = "/api/suno-callback";

const present = (key: string | undefined): key is string => typeof key === "string" && key.trim().length > 0;

/**
 * The text provider: a Chat Completions server the creator configured (base URL and model) first, since naming a
 * model is a more deliberate choice than having a Gemini key; then Gemini; then the offline writer.
 * See docs/decisions/110-openai-compatible-text-provider.md.
 */
export function textProviderFor(keys: ProviderKeys, tuning: ProviderTuning = {}): TextProvider {
  const env = getEnv();
  const common = { policy: tuning.policy, call: tuning.call };
  const chat = keys.openaiCompatible;
  if (chat && present(chat.baseUrl) && present(chat.model)) {
    return createOpenAICompatibleTextProvider({ ...common, baseUrl: chat.baseUrl, model: chat.model.trim(), apiKey: chat.apiKey, allowPrivateNetwork: chat.allowPrivateNetwork });
  }
  if (present(keys.geminiApiKey)) {
    return createGeminiTextProvider({ ...common, apiKey: keys.geminiApiKey.trim(), baseUrl: env.GEMINI_BASE_URL, model: env.GEMINI_MODEL });
  }
  return withCloudLikeText(createOfflineTextProvider());
}

export function providersFor(keys: ProviderKeys, tuning: ProviderTuning = {}): Providers {
  const env = getEnv();
  const common = { policy: tuning.policy, call: tuning.call };
  return {
    text: textProviderFor(keys, tuning),
    speech: present(keys.elevenLabsApiKey)
      ? createElevenLabsSpeechProvider({ ...common, apiKey: keys.elevenLabsApiKey.trim(), baseUrl: env.ELEVENLABS_BASE_URL })
      : withCloudLikeSpeech(createOfflineSpeechProvider()),
    image: present(keys.leonardoApiKey)
      ? createLeonardoImageProvider({ ...common, apiKey: keys.leonardoApiKey.trim(), baseUrl: env.LEONARDO_BASE_URL })
      : withCloudLikeImages(createOfflineImageProvider()),
    music: present(keys.sunoApiKey)
      ? createSunoMusicProvider({ ...common, apiKey: keys.sunoApiKey.trim(), baseUrl: env.SUNO_BASE_URL, callbackUrl: `${env.PUBLIC_URL}${SUNO_CALLBACK_PATH}` })
      : withCloudLikeMusic(createOfflineMusicProvider()),
  };
}

/** Pexels stock photos and clips with the creator's key; null without one (there is no offline stock library). */
export function stockMediaFor(keys: ProviderKeys, tuning: ProviderTuning = {}): StockMediaProvider | null {
  if (!present(keys.pexelsApiKey)) return null;
  return createPexelsProvider({ policy: tuning.policy, call: tuning.call, apiKey: keys.pexelsApiKey.trim(), baseUrl: getEnv().PEXELS_BASE_URL });
}

export { NON_RETRYABLE_PROVIDER_ERRORS, ProviderError, isProviderError } from "./errors";
