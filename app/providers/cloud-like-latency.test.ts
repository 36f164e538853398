import { describe, expect, it } from "vitest";
import { cloudLikeLatencyMs, withCloudLikeText, withoutCloudLikeWaits } from "./cloud-like-latency";
import { createOfflineTextProvider } from "./text/offline";

const request = { title: "Why the Sea Is Salty", topic: "Where the salt in the oceans comes from", chunkIndex: 0, totalChunks: 1, targetWords: 60, seed: "s" };

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

describe("cloud-like waits for the offline providers", () => {
  it("reads the wait from FAKE_PROVIDER_LATENCY_MS, none when unset or not a number, at most a minute", () => {
    expect(cloudLikeLatencyMs({})).toBe(0);
    expect(cloudLikeLatencyMs({ FAKE_PROVIDER_LATENCY_MS: "soon" })).toBe(0);
    expect(cloudLikeLatencyMs({ FAKE_PROVIDER_LATENCY_MS: "3000" })).toBe(3000);
    expect(cloudLikeLatencyMs({ FAKE_PROVIDER_LATENCY_MS: "900000" })).toBe(60_000);
  });

  it("answers a script chunk the wait later with the same words, and the writer without the waits answers at once", async () => {
    const offline = createOfflineTextProvider();
    const cloudLike = withCloudLikeText(offline, 1500);
    const slow = await timed(() => cloudLike.writeScriptChunk(request));
    expect(slow.ms).toBeGreaterThanOrEqual(1490);
    expect(slow.value).toBe(await offline.writeScriptChunk(request));
    expect(cloudLike.source).toBe("offline");

    const waitless = withoutCloudLikeWaits(cloudLike);
    expect(waitless).toBe(offline);
    const fast = await timed(() => waitless.writeScriptChunk(request));
    // a template costs milliseconds: well under the wait, however busy the machine
    expect(fast.ms).toBeLessThan(1000);
    expect(fast.value).toBe(slow.value);
  });

  it("leaves a provider with no waits as it is", () => {
    const offline = createOfflineTextProvider();
    expect(withCloudLikeText(offline, 0)).toBe(offline);
    expect(withoutCloudLikeWaits(offline)).toBe(offline);
  });
});
