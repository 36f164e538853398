// Contract: the Suno adapter against a local fake of the sunoapi.org API, and the callback parser.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createSunoMusicProvider, parseSunoCallback } from "~/providers/music/suno.server";
import { readWavInfo } from "~/providers/wav";
import { FAKE_TRACK_SECONDS, FakeSuno } from "../../fakes/suno";
import type { ProviderCall } from "~/providers/call";
import { QUICK_POLICY, expectProviderFailure, memoryLedger, testCall } from "../../fakes/contract";

const fake = new FakeSuno("suno-good-key");
const provider = (apiKey = fake.apiKey, call: ProviderCall = testCall()) =>
  createSunoMusicProvider({ apiKey, baseUrl: fake.url, callbackUrl: "http://app.test/api/suno-callback", policy: QUICK_POLICY, call });

beforeAll(() => fake.start());
afterAll(() => fake.stop());
beforeEach(() => {
  fake.reset();
  fake.failTasks = false;
});

async function pollUntilDone(taskId: string, p = provider()) {
  for (let i = 0; i < 10; i++) {
    const result = await p.poll(taskId);
    if (result.status === "completed" || result.status === "error") return result;
  }
  throw new Error("never finished");
}

describe("Suno music provider", () => {
  it("submits enough tasks for the tracks, polls them, and downloads each track with its duration", async () => {
    const p = provider();
    const { taskId } = await p.startGeneration({ prompt: "calm lofi for studying", trackCount: 3, durationSeconds: 60 });
    expect(fake.requestsTo(/^\/api\/v1\/generate$/)).toHaveLength(2);
    expect(fake.requestsTo(/^\/api\/v1\/generate$/)[0]!.json()).toMatchObject({
      prompt: "calm lofi for studying",
      instrumental: true,
      customMode: false,
      callBackUrl: "http://app.test/api/suno-callback",
    });
    const first = await p.poll(taskId);
    expect(first.status).toBe("pending");
    const done = await pollUntilDone(taskId, p);
    expect(done.status).toBe("completed");
    expect(done.tracks).toHaveLength(3);
    for (const track of done.tracks) {
      expect(track.durationSeconds).toBe(FAKE_TRACK_SECONDS);
      expect(track.mimeType).toBe("audio/wav");
      expect(readWavInfo(track.audio!).durationSeconds).toBeCloseTo(FAKE_TRACK_SECONDS, 2);
    }
  });

  it("reports a failed task with the service's reason", async () => {
    fake.failTasks = true;
    const { taskId } = await provider().startGeneration({ prompt: "x", trackCount: 1, durationSeconds: 30 });
    const result = await pollUntilDone(taskId);
    expect(result).toMatchObject({ status: "error", tracks: [] });
    expect(result.error).toMatch(/Audio generation failed/);
  });

  it("answers a 429 with one request and a retryable failure carrying the Retry-After", async () => {
    fake.trouble({ kind: "rate-limit", retryAfterSeconds: 1 });
    const error = await expectProviderFailure(provider().startGeneration({ prompt: "upbeat", trackCount: 1, durationSeconds: 30 }), "ProviderRateLimitedError", /HTTP 429/);
    expect([error.retryable, error.retryAfterMs]).toEqual([true, 1000]);
    expect(fake.requests).toHaveLength(1);
  });

  it("does not submit a paid task again after a 500: the service may have started it", async () => {
    fake.trouble({ kind: "server-error" }, 3);
    const error = await expectProviderFailure(
      provider(fake.apiKey, testCall(2)).startGeneration({ prompt: "x", trackCount: 1, durationSeconds: 30 }),
      "ProviderUnconfirmedError",
      /Suno answered HTTP 500 \(Internal error\) after the request was sent \(2 attempts\).*not paid for twice/,
    );
    expect(error.retryable).toBe(false);
    expect(fake.requests).toHaveLength(1);
  });

  it("leaves a 503 (nothing started) to the next attempt, which submits only the tasks not yet started", async () => {
    const ledger = memoryLedger();
    const before = fake.tasks.size;
    // three tracks take two tasks: the first is accepted, the second refused with 503
    fake.trouble({ kind: "server-error", status: 503 }, 1, /^\/api\/v1\/generate$/, 1);
    const error = await expectProviderFailure(
      provider(fake.apiKey, testCall(1, ledger)).startGeneration({ prompt: "calm", trackCount: 3, durationSeconds: 60 }),
      "ProviderUnavailableError",
      /Suno failed with HTTP 503 after 1 attempt/,
    );
    expect(error.retryable).toBe(true);
    expect(fake.tasks.size).toBe(before + 1);
    expect([...ledger.jobs.keys()]).toEqual(["suno:task:0"]);
    const retried = await provider(fake.apiKey, testCall(2, ledger)).startGeneration({ prompt: "calm", trackCount: 3, durationSeconds: 60 });
    expect(fake.requestsTo(/^\/api\/v1\/generate$/)).toHaveLength(3);
    expect(fake.tasks.size).toBe(before + 2);
    expect(retried.taskId).toBe(`suno:3:${ledger.jobs.get("suno:task:0")},${ledger.jobs.get("suno:task:1")}`);
  });

  it("two attempts at once, the first still waiting for Suno's answer: the task is submitted once", async () => {
    const ledger = memoryLedger();
    const before = fake.tasks.size;
    fake.trouble({ kind: "slow", delayMs: 600 }, 1, /^\/api\/v1\/generate$/);
    const first = provider(fake.apiKey, testCall(1, ledger)).startGeneration({ prompt: "twice", trackCount: 1, durationSeconds: 30 });
    await expect.poll(() => fake.requestsTo(/^\/api\/v1\/generate$/).length).toBe(1);
    const second = provider(fake.apiKey, testCall(2, ledger)).startGeneration({ prompt: "twice", trackCount: 1, durationSeconds: 30 });
    const [one, two] = await Promise.all([first, second]);
    expect(two.taskId).toBe(one.taskId);
    expect(fake.requestsTo(/^\/api\/v1\/generate$/)).toHaveLength(1);
    expect(fake.tasks.size).toBe(before + 1);
  });

  it("reads a rejected key as such and does not retry it", async () => {
    const error = await expectProviderFailure(provider("bad").startGeneration({ prompt: "x", trackCount: 1, durationSeconds: 30 }), "ProviderAuthError", /^Suno rejected the API key/);
    expect(error.retryable).toBe(false);
    expect(fake.requests).toHaveLength(1);
  });

  it("reports a malformed status answer clearly", async () => {
    const { taskId } = await provider().startGeneration({ prompt: "x", trackCount: 1, durationSeconds: 30 });
    fake.trouble({ kind: "malformed" });
    await expectProviderFailure(provider().poll(taskId), "ProviderMalformedError", /Suno sent the task status we could not read \(code:/);
  });

  it("parses the documented callback body", () => {
    const callback = parseSunoCallback({
      code: 200,
      msg: "All generated successfully.",
      data: { callbackType: "complete", task_id: "task-1", data: [{ id: "a", audio_url: "https://x/a.mp3", title: "Iron Man", duration: 198.44 }] },
    });
    expect(callback).toEqual({ taskId: "task-1", callbackType: "complete", ok: true, message: "All generated successfully.", tracks: [{ audioUrl: "https://x/a.mp3", title: "Iron Man", durationSeconds: 198.44 }] });
    expect(() => parseSunoCallback({ nope: true })).toThrow(/Not a Suno callback/);
  });
});
