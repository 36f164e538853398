// Contract: the ElevenLabs adapter against a local fake of its voices and text-to-speech endpoints.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createElevenLabsSpeechProvider } from "~/providers/speech/elevenlabs.server";
import { readWavInfo, wavRms } from "~/providers/wav";
import { FAKE_SECONDS_PER_WORD, FakeElevenLabs } from "../../fakes/elevenlabs";
import { QUICK_POLICY, expectProviderFailure, testCall } from "../../fakes/contract";

const fake = new FakeElevenLabs("xi-good-key");
const provider = (apiKey = fake.apiKey, attempt = 1) => createElevenLabsSpeechProvider({ apiKey, baseUrl: fake.url, policy: QUICK_POLICY, call: testCall(attempt) });

beforeAll(() => fake.start());
afterAll(() => fake.stop());
beforeEach(() => {
  fake.reset();
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

  it("answers a 429 with one request and a retryable failure carrying the Retry-After", async () => {
    fake.trouble({ kind: "rate-limit", retryAfterSeconds: 1 });
    const error = await expectProviderFailure(provider().synthesize({ text: "hello", voiceId: "v-rachel" }), "ProviderRateLimitedError", /HTTP 429/);
    expect([error.retryable, error.retryAfterMs]).toEqual([true, 1000]);
    expect(fake.requests).toHaveLength(1);
  });

  it("leaves a 503 (refused before any speech was made) to Temporal's next attempt, saying how many ran", async () => {
    fake.trouble({ kind: "server-error", status: 503 }, 1);
    const error = await expectProviderFailure(provider(fake.apiKey, 3).synthesize({ text: "hello", voiceId: "v-rachel" }), "ProviderUnavailableError", /ElevenLabs failed with HTTP 503 after 3 attempts/);
    expect(error.retryable).toBe(true);
    expect(fake.requests).toHaveLength(1);
  });

  it("does not send speech again when its answer was lost (a 500 or a timeout): it may have been paid for", async () => {
    fake.trouble({ kind: "server-error", status: 500 }, 1);
    const failed = await expectProviderFailure(provider().synthesize({ text: "hello", voiceId: "v-rachel" }), "ProviderUnconfirmedError", /ElevenLabs answered HTTP 500/);
    expect(failed.retryable).toBe(false);
    fake.trouble({ kind: "slow", delayMs: 2500 }, 1);
    const slow = await expectProviderFailure(
      provider().synthesize({ text: "hello", voiceId: "v-rachel" }),
      "ProviderUnconfirmedError",
      /ElevenLabs did not answer within 2 s after the request was sent \(1 attempt\), so it may have started the generation\. It was not sent again/,
    );
    expect(slow.retryable).toBe(false);
    expect(fake.requestsTo(/with-timestamps$/)).toHaveLength(2);
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
