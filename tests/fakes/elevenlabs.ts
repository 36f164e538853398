// A local fake of the ElevenLabs voices and text-to-speech API.
// Shapes from (found with the docs search):
//   https://elevenlabs.io/docs/api-reference/text-to-speech/convert (cited by cljdoc.org llm.sdk.providers.elevenlabs.tts):
//     POST /v1/text-to-speech/:voice_id with the xi-api-key header, JSON body { text, model_id }, ?output_format=...,
//     the answer is the audio bytes (pcm_* formats: raw 16-bit little-endian mono PCM)
//   https://skills.sh/vm0-ai/vm0-skills/elevenlabs and https://mintlify.com/elevenlabs/elevenlabs-python/voices:
//     GET /v1/voices -> { voices: [{ voice_id, name, category (premade|cloned|generated|professional), labels }] }
//   POST /v1/text-to-speech/:voice_id/with-timestamps (same body and output_format; as the issue quotes ElevenLabs'
//     docs): JSON { audio_base64, alignment: { characters, character_start_times_seconds, character_end_times_seconds },
//     normalized_alignment } with the audio bytes base64-encoded and one start and end time per character of the text
//   https://www.mintlify.com/elevenlabs/elevenlabs-python/guides/error-handling: 401 when the key is missing or invalid
//     (body { detail: { status: "invalid_api_key", message } })
import { FakeApi, tonePcm, type FakeRequest, type FakeResponse, type Route } from "./fake-api";

export const FAKE_VOICES = [
  { voice_id: "v-rachel", name: "Rachel", category: "premade", labels: { gender: "female", age: "young", accent: "american" } },
  { voice_id: "v-george", name: "George", category: "premade", labels: { gender: "male", age: "middle aged", accent: "british" } },
  { voice_id: "v-clone", name: "My Clone", category: "cloned", labels: {} },
  { voice_id: "v-pro", name: "Narrator Pro", category: "professional", labels: { gender: "male", accent: "irish" } },
];

/** Seconds of speech the fake makes per word. */
export const FAKE_SECONDS_PER_WORD = 0.4;

/** The fake's character alignment: each word takes FAKE_SECONDS_PER_WORD, spread evenly over its characters. */
export function fakeAlignment(text: string) {
  const characters = [...text];
  const starts: number[] = [];
  const ends: number[] = [];
  let word = -1;
  let inWord = false;
  let position = 0;
  let length = 1;
  for (const [i, c] of characters.entries()) {
    if (/\s/.test(c)) {
      inWord = false;
      const at = (word + 1) * FAKE_SECONDS_PER_WORD;
      starts.push(at);
      ends.push(at);
      continue;
    }
    if (!inWord) {
      inWord = true;
      word++;
      position = 0;
      length = characters.slice(i).findIndex((x) => /\s/.test(x));
      if (length === -1) length = characters.length - i;
    }
    const step = FAKE_SECONDS_PER_WORD / length;
    starts.push(Math.round((word * FAKE_SECONDS_PER_WORD + position * step) * 1000) / 1000);
    ends.push(Math.round((word * FAKE_SECONDS_PER_WORD + (position + 1) * step) * 1000) / 1000);
    position++;
  }
  return { characters, character_start_times_seconds: starts, character_end_times_seconds: ends };
}

export class FakeElevenLabs extends FakeApi {
  protected keyOf(req: FakeRequest) {
    return req.headers["xi-api-key"] as string | undefined;
  }

  protected rejectedKey(): FakeResponse {
    return { status: 401, json: { detail: { status: "invalid_api_key", message: "Invalid API key" } } };
  }

  protected routes(): Route[] {
    return [
      { method: "GET", pattern: /^\/v1\/voices$/, handle: () => ({ json: { voices: FAKE_VOICES } }) },
      {
        method: "POST",
        pattern: /^\/v1\/text-to-speech\/([^/]+)$/,
        handle: (req, [voiceId]) => {
          if (!FAKE_VOICES.some((v) => v.voice_id === voiceId)) {
            return { status: 404, json: { detail: { status: "voice_not_found", message: `A voice with the voice_id ${voiceId} was not found.` } } };
          }
          const { text } = req.json() as { text: string };
          const format = req.query.get("output_format") ?? "mp3_44100_128";
          const seconds = text.trim().split(/\s+/).length * FAKE_SECONDS_PER_WORD;
          const pcm = /^pcm_(\d+)$/.exec(format);
          if (pcm) return { body: tonePcm(seconds, Number(pcm[1])), contentType: "audio/pcm" };
          return { body: Buffer.from("ID3fake-mp3"), contentType: "audio/mpeg" };
        },
      },
      {
        method: "POST",
        pattern: /^\/v1\/text-to-speech\/([^/]+)\/with-timestamps$/,
        handle: (req, [voiceId]) => {
          if (!FAKE_VOICES.some((v) => v.voice_id === voiceId)) {
            return { status: 404, json: { detail: { status: "voice_not_found", message: `A voice with the voice_id ${voiceId} was not found.` } } };
          }
          const { text } = req.json() as { text: string };
          const format = req.query.get("output_format") ?? "mp3_44100_128";
          const seconds = text.trim().split(/\s+/).length * FAKE_SECONDS_PER_WORD;
          const pcm = /^pcm_(\d+)$/.exec(format);
          const audio = pcm ? tonePcm(seconds, Number(pcm[1])) : Buffer.from("ID3fake-mp3");
          const alignment = fakeAlignment(text);
          return { json: { audio_base64: audio.toString("base64"), alignment, normalized_alignment: alignment } };
        },
      },
    ];
  }
}
