// ElevenLabs voices and text-to-speech over its documented REST API (xi-api-key header).
// Speech is requested as raw 16-bit PCM and wrapped in WAV here, so its duration is exact without decoding MP3.
// It comes from the with-timestamps endpoint (JSON: audio_base64 and a per-character alignment), so captions can
// follow the words as they are spoken.
// The multilingual model speaks the project's language from the text itself. The voice speed goes into
// voice_settings.speed within its documented 0.7-1.2; beyond that (1.2-1.3) the rest is time-stretched.
// Speech is paid per character and made in one synchronous POST with no job to poll and no documented idempotency
// key: a POST that was sent and whose answer was lost (a timeout, a dropped connection, a 5xx other than 503) is not
// sent again (decision 200); one refused before any work (429, 503, no connection) is retried by Temporal.
import { z } from "zod";
import { ProviderError } from "../errors";
import { createHttpClient, joinUrl, type CloudAdapterOptions } from "../http.server";
import type { SpeechProvider, Voice, VoiceCategory } from "../types";
import { wordTimingsFromAlignment } from "~/lib/timeline/word-timings";
import { pcm16ToWav, readWavInfo } from "../wav";
import { speedPlan } from "~/lib/voice-speed";
import { timeStretchWav } from "./tempo.server";

const PROVIDER = "ElevenLabs";
/** "George", one of ElevenLabs' default voices, used until the creator picks one. */
export const DEFAULT_ELEVENLABS_VOICE = "JBFqnCBsd6RMkjVDRZzb";
export const ELEVENLABS_MODEL = "eleven_multilingual_v2";
const PCM_RATE = 24_000;

const VOICE_CATEGORIES: readonly VoiceCategory[] = ["premade", "cloned", "generated", "professional"];

const VoicesSchema = z.object({
  voices: z.array(
    z.object({
      voice_id: z.string().min(1),
      name: z.string(),
      category: z.string().nullish(),
      labels: z.record(z.string(), z.string().nullish()).nullish(),
      verified_languages: z.array(z.object({ language: z.string().nullish() }).passthrough()).nullish(),
    }),
  ),
});

const TimestampedSpeechSchema = z.object({
  audio_base64: z.string().min(1),
  alignment: z
    .object({
      characters: z.array(z.string()),
      character_start_times_seconds: z.array(z.number()),
      character_end_times_seconds: z.array(z.number()),
    })
    .nullish(),
});

export function createElevenLabsSpeechProvider(options: CloudAdapterOptions): SpeechProvider {
  const http = createHttpClient({ provider: PROVIDER, policy: options.policy, call: options.call });
  const headers = { "xi-api-key": options.apiKey };

  return {
    name: "ElevenLabs",
    source: "cloud",

    async listVoices(category) {
      const data = await http.getJson(joinUrl(options.baseUrl, "/v1/voices"), { headers }, VoicesSchema, "a voice list");
      const voices: Voice[] = [];
      for (const v of data.voices) {
        const voiceCategory = VOICE_CATEGORIES.find((c) => c === v.category) ?? "premade";
        if (category && voiceCategory !== category) continue;
        voices.push({
          id: v.voice_id,
          name: v.name,
          category: voiceCategory,
          gender: v.labels?.gender ?? undefined,
          age: v.labels?.age ?? undefined,
          accent: v.labels?.accent ?? undefined,
          // A voice labelled with one language is listed under it; the others speak any (multilingual model).
          language: v.labels?.language ?? (v.verified_languages?.length === 1 ? (v.verified_languages[0]!.language ?? undefined) : undefined),
        });
      }
      return voices;
    },

    async synthesize({ text, voiceId, speed }) {
      if (!text.trim()) throw new ProviderError(PROVIDER, "rejected", "There is no text to speak: the voiceover is empty.");
      const voice = voiceId || DEFAULT_ELEVENLABS_VOICE;
      const plan = speedPlan("elevenlabs", speed ?? 1);
      const url = `${joinUrl(options.baseUrl, `/v1/text-to-speech/${encodeURIComponent(voice)}/with-timestamps`)}?output_format=pcm_${PCM_RATE}`;
      const body = await http.text(
        url,
        {
          method: "POST",
          headers: { ...headers, "content-type": "application/json", accept: "application/json" },
          body: JSON.stringify({ text, model_id: ELEVENLABS_MODEL, ...(plan.native !== 1 ? { voice_settings: { speed: plan.native } } : {}) }),
        },
        { paid: true },
      );
      let data: z.infer<typeof TimestampedSpeechSchema>;
      try {
        data = TimestampedSpeechSchema.parse(JSON.parse(body));
      } catch {
        throw new ProviderError(PROVIDER, "malformed", `${PROVIDER} answered without the expected audio_base64: ${body.slice(0, 160)}`);
      }
      const pcm = Buffer.from(data.audio_base64, "base64");
      if (pcm.length < 2) throw new ProviderError(PROVIDER, "malformed", `${PROVIDER} returned no audio for the voiceover.`);
      const spoken = pcm16ToWav(pcm.subarray(0, pcm.length - (pcm.length % 2)), PCM_RATE);
      const audio = await timeStretchWav(spoken, plan.tempo, PROVIDER);
      // timings that do not spell the text (a provider's own normalisation) are left out: captions then estimate them
      const measured = data.alignment ? wordTimingsFromAlignment(text, data.alignment) : null;
      // a time-stretch moves every word by the same factor
      const words = measured && plan.tempo !== 1 ? measured.map((w) => ({ ...w, start: w.start / plan.tempo, end: w.end / plan.tempo })) : measured;
      return {
        audio,
        mimeType: "audio/wav",
        durationSeconds: readWavInfo(audio).durationSeconds,
        voiceId: voice,
        provider: PROVIDER,
        ...(words ? { words } : {}),
      };
    },
  };
}
