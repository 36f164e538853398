// Contract: the Suno adapter against a local fake of the sunoapi.org API, and the callback parser.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createSunoMusicProvider, parseSunoCallback } from "~/providers/music/suno.server";
import { readWavInfo } from "~/providers/wav";
import { FAKE_TRACK_SECONDS, FakeSuno } from "../../fakes/suno";
import { QUICK_RETRY, expectProviderFailure, retryLog } from "../../fakes/contract";

const fake = new FakeSuno("suno-good-key");
let log = retryLog();
const provider = (apiKey = fake.apiKey) =>
  createSunoMusicProvider({ apiKey, baseUrl: fake.url, callbackUrl: "http://app.test/api/suno-callback", retry: QUICK_RETRY, onRetry: log.onRetry });

beforeAll(() => fake.start());
afterAll(() => fake.stop());
beforeEach(() => {
  fake.requests.length = 0;
  fake.failTasks = false;
  log = retryLog();
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

  it("waits out a 429's Retry-After, then succeeds", async () => {
    fake.trouble({ kind: "rate-limit", retryAfterSeconds: 1 });
    const { taskId } = await provider().startGeneration({ prompt: "upbeat", trackCount: 1, durationSeconds: 30 });
    expect(taskId).toMatch(/^suno:1:task-/);
    expect(log.notices[0]!.delayMs).toBe(1000);
  });

  it("gives up after the last attempt when the service keeps failing with 500", async () => {
    fake.trouble({ kind: "server-error" }, 3);
    await expectProviderFailure(provider().startGeneration({ prompt: "x", trackCount: 1, durationSeconds: 30 }), "ProviderUnavailableError", /Suno failed with HTTP 500 after 3 attempt/);
    expect(fake.requests).toHaveLength(3);
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
