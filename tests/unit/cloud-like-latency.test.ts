import { describe, expect, it } from "vitest";
import { cloudLikeLatencyMs, withCloudLikeImages, withCloudLikeText, withoutCloudLikeWaits } from "~/providers/cloud-like-latency";
import { createOfflineTextProvider } from "~/providers/text/offline";
import type { ImageProvider } from "~/providers/types";

const image = { name: "Offline illustrator", source: "offline", listModels: async () => [], generateImage: async () => ({ image: Buffer.from("png"), mimeType: "image/png" }) } as unknown as ImageProvider;

describe("cloud-like waits for the offline providers (FAKE_PROVIDER_LATENCY_MS)", () => {
  it("reads the wait from the environment, none when unset or not a positive number, at most a minute", () => {
    expect(cloudLikeLatencyMs({})).toBe(0);
    expect(cloudLikeLatencyMs({ FAKE_PROVIDER_LATENCY_MS: "2500" })).toBe(2500);
    expect(cloudLikeLatencyMs({ FAKE_PROVIDER_LATENCY_MS: "-3" })).toBe(0);
    expect(cloudLikeLatencyMs({ FAKE_PROVIDER_LATENCY_MS: "soon" })).toBe(0);
    expect(cloudLikeLatencyMs({ FAKE_PROVIDER_LATENCY_MS: "999999" })).toBe(60_000);
  });

  it("a picture answers after the wait, with the same result; the provider is otherwise itself", async () => {
    const slow = withCloudLikeImages(image, 150);
    const started = performance.now();
    const result = await slow.generateImage({ prompt: "a lighthouse", aspectRatio: "16:9" });
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(String(result.image)).toBe("png");
    expect(slow.source).toBe("offline");
    const quick = performance.now();
    await slow.listModels();
    expect(performance.now() - quick).toBeLessThan(100);
    expect(withCloudLikeImages(image, 0)).toBe(image);
  });

  it("the wait counts from the request: a stand-in slower than the wait answers as soon as its work is done (decision 295)", async () => {
    let workDone = 0;
    const slowStandIn = {
      ...image,
      generateImage: async () => {
        await new Promise((resolve) => setTimeout(resolve, 1200));
        workDone = performance.now();
        return { image: Buffer.from("png"), mimeType: "image/png" };
      },
    } as unknown as ImageProvider;
    const result = await withCloudLikeImages(slowStandIn, 1000).generateImage({ prompt: "a lighthouse", aspectRatio: "16:9" });
    expect(String(result.image)).toBe("png");
    // a wait after the work would add the whole second here
    expect(performance.now() - workDone).toBeLessThan(500);
  });

  it("a script chunk answers after the wait; the writer without the waits is the offline one, answering at once (decision 294)", async () => {
    const offline = createOfflineTextProvider();
    const request = { title: "Why the Sea Is Salty", topic: "Where the salt in the oceans comes from", chunkIndex: 0, totalChunks: 1, targetWords: 60, seed: "s" };
    const cloudLike = withCloudLikeText(offline, 1500);
    let started = performance.now();
    const slowly = await cloudLike.writeScriptChunk(request);
    expect(performance.now() - started).toBeGreaterThanOrEqual(1490);
    expect(slowly).toBe(await offline.writeScriptChunk(request));

    const waitless = withoutCloudLikeWaits(cloudLike);
    expect(waitless).toBe(offline);
    started = performance.now();
    expect(await waitless.writeScriptChunk(request)).toBe(slowly);
    // a template costs milliseconds: well under the wait, however busy the machine
    expect(performance.now() - started).toBeLessThan(1000);
    // a provider with no waits is left as it is
    expect(withoutCloudLikeWaits(offline)).toBe(offline);
  });
});
