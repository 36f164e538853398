// Contract: the ElevenLabs adapter against a local fake of its voices and text-to-speech endpoints.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createElevenLabsSpeechProvider } from "~/providers/speech/elevenlabs.server";
import { readWavInfo, wavRms } from "~/providers/wav";
import { FAKE_SECONDS_PER_WORD, FakeElevenLabs } from "../../fakes/elevenlabs";
import { QUICK_RETRY, expectProviderFailure, retryLog } from "../../fakes/contract";

const fake = new FakeElevenLabs("xi-good-key");
let log = retryLog();
const provider = (apiKey = fake.apiKey) => createElevenLabsSpeechProvider({ apiKey, baseUrl: fake.url, retry: QUICK_RETRY, onRetry: log.onRetry });

beforeAll(() => fake.start());
afterAll(() => fake.stop());
beforeEach(() => {
  fake.requests.length = 0;
  log = retryLog();
});

describe("ElevenLabs speech provider", () => {
  it("lists voices with category, gender, age and accent, filtered by category", async () => {
    const all = await provider().listVoices();
    expect(all).toHaveLength(4);
    expect(all[0]).toEqual({ id: "v-rachel", name: "Rachel", category: "premade", gender: "female", age: "young", accent: "american" });
    const cloned = await provider().listVoices("cloned");
    expect(cloned.map((v) => v.name)).toEqual(["My Clone"]);
    expect(fake.requests[0]!.headers["xi-api-key"]).toBe("xi-good-key");
  });

  it("applies the voice speed: its own voice_settings.speed up to 1.2, the rest by time-stretching (issue 24)", async () => {
    const normal = await provider().synthesize({ text: "five words are spoken here", voiceId: "v-george" });
    expect(fake.requests[0]!.json()).not.toHaveProperty("voice_settings");
    const slower = await provider().synthesize({ text: "five words are spoken here", voiceId: "v-george", speed: 0.8 });
    expect(fake.requests[1]!.json()).toMatchObject({ voice_settings: { speed: 0.8 } });
    // the fake speaks at one pace whatever the setting: the audio is as the service sent it, not stretched again
    expect(slower.durationSeconds).toBeCloseTo(normal.durationSeconds, 3);
    const fastest = await provider().synthesize({ text: "five words are spoken here", voiceId: "v-george", speed: 1.3 });
    expect(fake.requests[2]!.json()).toMatchObject({ voice_settings: { speed: 1.2 } });
    expect(fastest.durationSeconds).toBeCloseTo(normal.durationSeconds / (1.3 / 1.2), 1);
    expect(fastest).toMatchObject({ voiceId: "v-george", provider: "ElevenLabs" });
    expect(readWavInfo(fastest.audio).sampleRate).toBe(24_000);
  });

  it("synthesises with the chosen voice into a WAV whose duration is exact", async () => {
    const result = await provider().synthesize({ text: "five words are spoken here", voiceId: "v-george" });
    expect(result.mimeType).toBe("audio/wav");
    expect(result.durationSeconds).toBeCloseTo(5 * FAKE_SECONDS_PER_WORD, 3);
    expect(readWavInfo(result.audio).sampleRate).toBe(24_000);
    expect(wavRms(result.audio)).toBeGreaterThan(0.05);
    const request = fake.requests[0]!;
    expect(request.path).toBe("/v1/text-to-speech/v-george/with-timestamps");
    expect(request.query.get("output_format")).toBe("pcm_24000");
    expect(request.json()).toMatchObject({ text: "five words are spoken here", model_id: "eleven_multilingual_v2" });
  });

  it("returns the words' timings from the with-timestamps alignment", async () => {
    const result = await provider().synthesize({ text: "Bees dance, then rest.", voiceId: "v-rachel" });
    expect(result.words).toEqual([
      { text: "Bees", start: 0, end: 0.4 },
      { text: "dance,", start: 0.4, end: 0.8 },
      { text: "then", start: 0.8, end: 1.2 },
      { text: "rest.", start: 1.2, end: 1.6 },
    ]);
    expect(result.durationSeconds).toBeCloseTo(4 * FAKE_SECONDS_PER_WORD, 3);
  });

  it("waits out a 429's Retry-After, then succeeds", async () => {
    fake.trouble({ kind: "rate-limit", retryAfterSeconds: 1 });
    expect(await provider().listVoices()).toHaveLength(4);
    expect(fake.requests).toHaveLength(2);
    expect(log.notices[0]!.delayMs).toBe(1000);
  });

  it("gives up after the last attempt when the service keeps failing with 503", async () => {
    fake.trouble({ kind: "server-error", status: 503 }, 3);
    await expectProviderFailure(provider().synthesize({ text: "hello", voiceId: "v-rachel" }), "ProviderUnavailableError", /ElevenLabs failed with HTTP 503 after 3 attempt/);
    expect(fake.requests).toHaveLength(3);
  });

  it("reads a rejected key as 'ElevenLabs rejected the API key' without retrying", async () => {
    const error = await expectProviderFailure(provider("bad").synthesize({ text: "hello", voiceId: "v-rachel" }), "ProviderAuthError", /^ElevenLabs rejected the API key/);
    expect(error.retryable).toBe(false);
    expect(fake.requests).toHaveLength(1);
  });

  it("reports JSON where audio was expected, and a malformed voice list, clearly", async () => {
    fake.trouble({ kind: "malformed" });
    await expectProviderFailure(provider().synthesize({ text: "hello", voiceId: "v-rachel" }), "ProviderMalformedError", /ElevenLabs answered without the expected audio_base64: \{"unexpected":"shape"\}/);
    fake.trouble({ kind: "malformed" });
    await expectProviderFailure(provider().listVoices(), "ProviderMalformedError", /ElevenLabs sent a voice list we could not read \(voices:/);
  });

  it("passes on the service's own reason for a refused request", async () => {
    await expectProviderFailure(provider().synthesize({ text: "hello", voiceId: "nobody" }), "ProviderRejectedError", /HTTP 404.*voice_id nobody was not found/);
  });
});
