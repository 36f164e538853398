// Contract: the Leonardo adapter against a local fake of its REST API, and the webhook reader.
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createLeonardoImageProvider } from "~/providers/image/leonardo.server";
import { readLeonardoWebhook } from "~/providers/image/leonardo-webhook.server";
import { FakeLeonardo } from "../../fakes/leonardo";
import { QUICK_RETRY, expectProviderFailure, retryLog } from "../../fakes/contract";

const fake = new FakeLeonardo("leo-good-key");
let log = retryLog();
const provider = (apiKey = fake.apiKey) =>
  createLeonardoImageProvider({ apiKey, baseUrl: fake.url, retry: QUICK_RETRY, onRetry: log.onRetry, pollIntervalMs: 20, pollTimeoutMs: 5000 });

beforeAll(() => fake.start());
afterAll(() => fake.stop());
beforeEach(() => {
  fake.requests.length = 0;
  fake.failGenerations = false;
  log = retryLog();
});

describe("Leonardo image provider", () => {
  it("groups the creator's models as custom and the platform's as featured or core", async () => {
    const models = await provider().listModels();
    expect(models.map((m) => [m.name, m.group])).toEqual([
      ["My Style", "custom_models"],
      ["Leonardo Kino XL", "featured_models"],
      ["Leonardo Phoenix", "featured_models"],
      ["SDXL 1.0", "core_models"],
    ]);
    expect(fake.requestsTo(/^\/models\/user\/user-1$/)).toHaveLength(1);
  });

  it("creates a generation, polls until COMPLETE, and returns the image at the storyboard's size", async () => {
    const result = await provider().generateImage({ prompt: "a lighthouse at dusk", aspectRatio: "9:16", modelId: "m-phoenix" });
    expect([result.width, result.height]).toEqual([1080, 1920]);
    const meta = await sharp(result.image).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["png", 1080, 1920]);
    const create = fake.requestsTo(/^\/generations$/)[0]!;
    expect(create.headers.authorization).toBe("Bearer leo-good-key");
    expect(create.json()).toMatchObject({ prompt: "a lighthouse at dusk", modelId: "m-phoenix", width: 768, height: 1360, num_images: 1 });
    expect(fake.requestsTo(/^\/generations\/gen-/).length).toBeGreaterThanOrEqual(2);
  });

  it("waits out a 429's Retry-After while polling, then succeeds", async () => {
    fake.trouble({ kind: "rate-limit", retryAfterSeconds: 1 }, 1, /^\/generations\/gen-/);
    const result = await provider().generateImage({ prompt: "retry me", aspectRatio: "16:9" });
    expect(result.width).toBe(1920);
    expect(log.notices).toHaveLength(1);
    expect(log.notices[0]!.delayMs).toBe(1000);
  });

  it("gives up after the last attempt when the service keeps failing with 500", async () => {
    fake.trouble({ kind: "server-error" }, 3);
    await expectProviderFailure(provider().listModels(), "ProviderUnavailableError", /Leonardo failed with HTTP 500 after 3 attempt/);
    expect(fake.requests).toHaveLength(3);
  });

  it("reads a rejected key as such and does not retry it", async () => {
    const error = await expectProviderFailure(provider("nope").generateImage({ prompt: "x", aspectRatio: "16:9" }), "ProviderAuthError", /^Leonardo rejected the API key/);
    expect(error.retryable).toBe(false);
    expect(fake.requests).toHaveLength(1);
  });

  it("reports a malformed generation job clearly", async () => {
    fake.trouble({ kind: "malformed" });
    await expectProviderFailure(
      provider().generateImage({ prompt: "x", aspectRatio: "16:9" }),
      "ProviderMalformedError",
      /Leonardo sent the generation job we could not read \(sdGenerationJob/,
    );
  });

  it("says when Leonardo could not make the image", async () => {
    fake.failGenerations = true;
    await expectProviderFailure(provider().generateImage({ prompt: "x", aspectRatio: "16:9" }), "ProviderUnavailableError", /could not generate this image/);
  });
});

describe("Leonardo webhook", () => {
  const secret = "a-shared-secret-of-length";
  const post = (body: unknown, token?: string) =>
    new Request("http://app/api/leonardo-webhook", {
      method: "POST",
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });

  it("accepts the documented event with the shared secret", async () => {
    const event = await readLeonardoWebhook(post(fake.webhookPayload("gen-9"), secret), secret);
    expect(event).toEqual({ type: "image_generation.complete", generationId: "gen-9", status: "COMPLETE", imageUrls: [`${fake.url}/cdn/gen-9.jpg`] });
  });

  it("refuses a call without the secret, or with a body that is not an event", async () => {
    await expect(readLeonardoWebhook(post(fake.webhookPayload("gen-9"), "guess"), secret)).rejects.toMatchObject({ status: 401 });
    await expect(readLeonardoWebhook(post(fake.webhookPayload("gen-9")), secret)).rejects.toMatchObject({ status: 401 });
    await expect(readLeonardoWebhook(post({ hello: 1 }, secret), secret)).rejects.toMatchObject({ status: 400 });
  });
});
