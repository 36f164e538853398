// Issue 48: the voice picker's "Play sample" on the real worker (the web runs no voices), kept in media storage once
// per voice; and /api/v1/voices with each voice's neural flag and licence.
import type { Client } from "@temporalio/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { voiceSampleKey } from "~/lib/voice-samples";
import { loader as voiceSampleLoader } from "~/routes/settings/api.voice-sample";
import { createApiToken } from "~/server/api-tokens.server";
import { prisma } from "~/core/db.server";
import { mediaBackend } from "~/core/storage.server";
import { voiceSampleWorkflowId } from "../../workflows/shared/voice-sample";
import { apiV1Client, openApiValidator } from "../support/api-v1-client";
import { createTestUser, sessionCookieFor } from "../support/auth";
import { callRoute } from "../support/routes";
import { startTestWorker } from "../support/temporal";

let stopWorker: () => Promise<void>;
let temporal: Client;
let cookie: string;
let token: string;

beforeAll(async () => {
  const worker = await startTestWorker();
  stopWorker = worker.stop;
  temporal = worker.client;
  const user = await createTestUser();
  cookie = await sessionCookieFor(user.id);
  token = (await createApiToken(user.id, { name: "voices", scope: "full", expiresInDays: 7 })).token;
  // every run of this file makes its samples anew
  await mediaBackend().deletePrefix("voice-samples/");
}, 120_000);
afterAll(async () => {
  await stopWorker?.();
  await prisma.$disconnect();
});

const sample = (voiceId: string, init: RequestInit = {}) =>
  callRoute(
    voiceSampleLoader as never,
    new Request(`http://localhost/api/voice-sample?voiceId=${encodeURIComponent(voiceId)}`, { ...init, headers: { Cookie: cookie, ...(init.headers as Record<string, string>) } }),
  );

/** Seconds of sound in a PCM WAV: its data chunk over its byte rate. */
function wavSeconds(wav: Buffer): number {
  let byteRate = 0;
  for (let at = 12; at + 8 <= wav.length; ) {
    const id = wav.subarray(at, at + 4).toString("ascii");
    const size = wav.readUInt32LE(at + 4);
    if (id === "fmt ") byteRate = wav.readUInt32LE(at + 16);
    if (id === "data") return Math.min(size, wav.length - at - 8) / byteRate;
    at += 8 + size + (size % 2);
  }
  throw new Error("no data chunk");
}

describe("voice samples", () => {
  it("reads the neural voice's sample on the worker once, then serves the stored WAV (with Range)", async () => {
    const voiceId = "piper:en_US-joe-medium";
    const first = await sample(voiceId);
    expect(first.status).toBe(200);
    expect(first.headers.get("Content-Type")).toBe("audio/wav");
    const wav = Buffer.from(await first.arrayBuffer());
    expect(wav.subarray(0, 4).toString("ascii")).toBe("RIFF");
    const seconds = wavSeconds(wav);
    // "Hello! This is how I sound when I read your script aloud." at a narrator's pace: a few seconds
    expect(seconds).toBeGreaterThan(2);
    expect(seconds).toBeLessThan(8);
    const run = await temporal.workflow.getHandle(voiceSampleWorkflowId(voiceId)).describe();
    expect(run.status.name).toBe("COMPLETED");
    const stored = (await mediaBackend().stat(voiceSampleKey(voiceId)))!;
    expect(stored.bytes).toBe(wav.length);

    // a later play is the stored file: the same bytes, no second run
    const again = await sample(voiceId);
    expect(Buffer.from(await again.arrayBuffer()).equals(wav)).toBe(true);
    expect((await temporal.workflow.getHandle(voiceSampleWorkflowId(voiceId)).describe()).runId).toBe(run.runId);
    expect((await mediaBackend().stat(voiceSampleKey(voiceId)))!.version).toBe(stored.version);

    const part = await sample(voiceId, { headers: { Range: "bytes=0-43" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("Content-Range")).toBe(`bytes 0-43/${wav.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(wav.subarray(0, 44))).toBe(true);
  }, 180_000);

  it("reads an eSpeak NG voice's sample in its own language", async () => {
    const french = await sample("espeak:fr+f3");
    expect(french.status).toBe(200);
    expect(wavSeconds(Buffer.from(await french.arrayBuffer()))).toBeGreaterThan(2);
  }, 120_000);

  it("has no sample for a voice that is not installed, a cloud voice, or a visitor", async () => {
    const missing = await sample("piper:xx_XX-nobody-low");
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { message: string }).message).toContain("not one of the offline voices installed here");
    expect((await sample("21m00Tcm4TlvDq8ikWAM")).status).toBe(404);
    const visitor = await callRoute(voiceSampleLoader as never, new Request("http://localhost/api/voice-sample?voiceId=rms"));
    expect(visitor.status).toBe(401);
  }, 120_000);
});

describe("/api/v1/voices", () => {
  it("says which voices are neural and each one's licence, as its OpenAPI schema documents", async () => {
    const api = await apiV1Client(token);
    const { check } = await openApiValidator();
    const answer = await api.GET("/api/v1/voices");
    expect(answer.response.status).toBe(200);
    check("GET", "/api/v1/voices", 200, answer.data);
    const joe = answer.data!.voices.find((v) => v.id === "piper:en_US-joe-medium")!;
    expect(joe).toMatchObject({ neural: true, language: "en" });
    expect(joe.licence).toContain("Voice data CC0");
    const rms = answer.data!.voices.find((v) => v.id === "rms")!;
    expect(rms).toMatchObject({ neural: false, licence: null });
  });
});
