// Contract: the Gemini adapter (official SDK) against a local fake of generateContent.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createGeminiTextProvider } from "~/providers/text/gemini.server";
import { countWords } from "~/providers/text/language";
import { FakeGemini } from "../../fakes/gemini";
import { QUICK_POLICY, expectProviderFailure, testCall } from "../../fakes/contract";

const fake = new FakeGemini("gemini-good-key");
const chunk = { title: "Tides", topic: "why the sea rises and falls", chunkIndex: 0, totalChunks: 1, targetWords: 120, seed: "s" };
const provider = (apiKey = fake.apiKey, attempt = 1) =>
  createGeminiTextProvider({ apiKey, baseUrl: fake.url, model: "gemini-2.5-flash", policy: QUICK_POLICY, call: testCall(attempt) });

beforeAll(() => fake.start());
afterAll(() => fake.stop());
beforeEach(() => {
  fake.reset();
});

describe("Gemini text provider", () => {
  it("writes a chunk through generateContent with the key, and strips markdown headings", async () => {
    const text = await provider().writeScriptChunk(chunk);
    expect(countWords(text)).toBeGreaterThan(100);
    expect(text).not.toContain("##");
    const [request] = fake.requests;
    expect(request!.path).toBe("/v1beta/models/gemini-2.5-flash:generateContent");
    expect(request!.headers["x-goog-api-key"]).toBe("gemini-good-key");
    expect(fake.prompts[0]).toContain("about 120 words");
  });

  it("splits scenes locally and takes one image prompt per scene from a JSON answer", async () => {
    const script = "One sentence here. Two sentence here. Three sentence here. Four sentence here. Five sentence here.";
    const scenes = await provider().splitIntoScenes({ title: "T", script, resolution: "16:9", durationSeconds: 30, sceneCount: 3, seed: "s" });
    expect(scenes).toHaveLength(3);
    expect(scenes.map((s) => s.voiceoverText).join(" ")).toBe(script);
    expect(scenes[2]!.imagePrompt).toContain("scene 3");
  });

  it("answers a 429 with one request and a retryable failure carrying the Retry-After for Temporal's next attempt", async () => {
    fake.trouble({ kind: "rate-limit", retryAfterSeconds: 1 });
    const error = await expectProviderFailure(provider().proofreadScript({ title: "T", text: "Hello there. General words." }), "ProviderRateLimitedError", /HTTP 429/);
    expect([error.retryable, error.retryAfterMs]).toEqual([true, 1000]);
    expect(fake.requests).toHaveLength(1);
    // the next attempt (Temporal's) goes through
    expect((await provider(fake.apiKey, 2).proofreadScript({ title: "T", text: "Hello there. General words." })).length).toBeGreaterThan(0);
  });

  it("makes one request for a 500 and says how many attempts ran", async () => {
    fake.trouble({ kind: "server-error" }, 3);
    const error = await expectProviderFailure(provider(fake.apiKey, 3).writeScriptChunk(chunk), "ProviderUnavailableError", /Gemini failed with HTTP 500 after 3 attempts/);
    expect(error.retryable).toBe(true);
    expect(fake.requests).toHaveLength(1);
  });

  it("reads a rejected key as such and does not retry it", async () => {
    const error = await expectProviderFailure(provider("wrong-key").writeScriptChunk(chunk), "ProviderAuthError", /^Gemini rejected the API key/);
    expect(error.retryable).toBe(false);
    expect(fake.requests).toHaveLength(1);
  });

  it("reports an answer without candidates clearly", async () => {
    fake.trouble({ kind: "malformed" });
    const error = await expectProviderFailure(provider().writeScriptChunk(chunk), "ProviderMalformedError", /Gemini sent an answer with no candidates/);
    expect(error.retryable).toBe(false);
  });

  it("times out a slow answer and says so", async () => {
    fake.trouble({ kind: "slow", delayMs: 2500 }, 3);
    await expectProviderFailure(provider().writeScriptChunk(chunk), "ProviderTimeoutError", /Gemini did not answer within 2 s \(1 attempt\)/);
    expect(fake.requests).toHaveLength(1);
  });
});
