// Contract: the Pexels adapter against a local fake of its API (search, CDN), failures as people should read them.
import { fileTypeFromBuffer } from "file-type";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createPexelsProvider } from "~/providers/image/pexels.server";
import { FakePexels } from "../../fakes/pexels";
import { QUICK_POLICY, expectProviderFailure, testCall } from "../../fakes/contract";

const fake = new FakePexels("pexels-good-key");
const provider = (apiKey = fake.apiKey) => createPexelsProvider({ apiKey, baseUrl: fake.url, policy: QUICK_POLICY, call: testCall() });
const portrait = { prompt: "lighthouse, coast — scene 1 of \"Sea\", cinematic photograph", aspectRatio: "9:16" as const, size: { width: 1080, height: 1920 } };

beforeAll(() => fake.start());
afterAll(() => fake.stop());
beforeEach(() => {
  fake.reset();
});

describe("Pexels stock media provider", () => {
  it("searches photos with the key as the Authorization header, the prompt's subjects and the format's orientation", async () => {
    const photo = await provider().searchPhoto(portrait);
    const search = fake.requestsTo(/^\/v1\/search$/)[0]!;
    expect(search.headers.authorization).toBe("pexels-good-key");
    expect(Object.fromEntries(search.query)).toEqual({ query: "lighthouse coast", orientation: "portrait", size: "small", per_page: "15", page: "1" });
    expect(photo.credit).toMatchObject({ provider: "Pexels", kind: "photo", author: "Ana Lima", pageUrl: expect.stringMatching(/^https:\/\/www\.pexels\.com\/photo\//) });
    // a 2400x3600 photo: only the original covers a 1080x1920 scene
    expect([photo.width, photo.height]).toEqual([2400, 3600]);
    const { data } = await provider().download(photo.downloadUrl);
    expect((await fileTypeFromBuffer(data))?.mime).toBe("image/jpeg");
  });

  it("skips photos other scenes use, and clips longer than a minute", async () => {
    const first = await provider().searchPhoto(portrait);
    const second = await provider().searchPhoto({ ...portrait, exclude: [first.id] });
    expect(second.id).not.toBe(first.id);
    expect(second.credit.author).toBe("Kenji Sato");
  });

  it("searches videos and picks the Full HD file in the scene's orientation", async () => {
    const clip = await provider().searchClip({ ...portrait, aspectRatio: "16:9", size: { width: 1920, height: 1080 } });
    const search = fake.requestsTo(/^\/videos\/search$/)[0]!;
    expect(Object.fromEntries(search.query)).toMatchObject({ orientation: "landscape", size: "medium" });
    expect([clip.width, clip.height]).toEqual([1920, 1080]);
    expect(clip.downloadUrl).toMatch(/-1920x1080\.mp4$/);
    expect(clip.credit).toMatchObject({ kind: "video", author: "Mira Costa" });
  });

  it("tries shorter searches before saying that nothing was found", async () => {
    fake.emptyWords.add("zzyzx");
    await expectProviderFailure(
      provider().searchPhoto({ ...portrait, prompt: "zzyzx lighthouse coast" }),
      "ProviderRejectedError",
      /^Pexels found no photo for "zzyzx lighthouse coast" \(nor for "zzyzx lighthouse", "zzyzx"\)\. Reword this scene's image prompt/,
    );
    expect(fake.requestsTo(/^\/v1\/search$/).map((r) => r.query.get("query"))).toEqual(["zzyzx lighthouse coast", "zzyzx lighthouse", "zzyzx"]);
  });

  it("says the key was rejected on 401, without retrying", async () => {
    const error = await expectProviderFailure(provider("wrong-key").searchPhoto(portrait), "ProviderAuthError", /^Pexels rejected the API key\. Check the key saved in Settings/);
    expect(error.retryable).toBe(false);
    expect(fake.requestsTo(/^\/v1\/search$/)).toHaveLength(1);
  });

  it("says Pexels is limiting requests on a 429, after one request, and leaves the retry to Temporal", async () => {
    fake.trouble({ kind: "rate-limit" }, 1);
    const error = await expectProviderFailure(provider().searchClip(portrait), "ProviderRateLimitedError", /^Pexels is limiting requests \(HTTP 429\) after 1 attempt\./);
    expect([error.retryable, error.retryAfterMs]).toEqual([true, undefined]);
    expect(fake.requestsTo(/^\/videos\/search$/)).toHaveLength(1);
    await provider().searchClip(portrait);
  });

  it("says when the hourly allowance renews once it is used up, without retrying (X-Ratelimit-* headers)", async () => {
    const reset = Math.floor(Date.now() / 1000) + 40 * 60;
    fake.trouble({ kind: "rate-limit", headers: { "x-ratelimit-limit": "200", "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(reset) } }, 5);
    const renews = new Date(reset * 1000).toISOString().slice(11, 16);
    const error = await expectProviderFailure(provider().searchPhoto(portrait), "ProviderRateLimitedError", new RegExp(`^The Pexels request allowance is used up until ${renews} UTC \\(HTTP 429, after 1 attempt\\)\\. Try again after that time\\.$`));
    expect(fake.requestsTo(/^\/v1\/search$/)).toHaveLength(1);
    expect(error.retryable).toBe(false);
  });
});
