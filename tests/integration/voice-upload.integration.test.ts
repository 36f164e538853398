// Issue 48, decision 210, with media in the local folder (the default): the owner's uploaded voice is stored there
// and read where it is (no copy), listed with its licence at once; the web server lets a voice model's body through
// up to 200 MB on its route only.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const OWNER = "local-voice-owner@reelsmith.test";
process.env.OWNER_EMAIL = OWNER;
process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "voice-upload-local-"));
process.env.STORAGE = "local";
const { prisma } = await import("~/core/db.server");
const { action } = await import("~/routes/settings/api.voices");
const { storedVoicesDir } = await import("~/core/stored-voices.server");
const { mediaBackend, mediaRoot } = await import("~/core/storage.server");
const { createOfflineSpeechProvider } = await import("~/providers/speech/offline.server");
const { machineVoicesDir } = await import("~/providers/speech/piper-voices.server");
const { declaredBodyLimit, MAX_DECLARED_BODY_BYTES } = await import("~/server/host/web-app.server");
const { callRoute } = await import("../support/routes");
const { createTestUser, sessionCookieFor } = await import("../support/auth");

afterAll(async () => {
  fs.rmSync(process.env.DATA_DIR!, { recursive: true, force: true });
  await prisma.$disconnect();
});

const MODEL = path.join(machineVoicesDir(), "en_US-joe-medium.onnx");

describe("adding a neural voice by upload, media in the local folder", () => {
  it("stores the voice in the media folder and lists it from there with its licence", async () => {
    const owner = await createTestUser(OWNER);
    const form = new FormData();
    form.append("licence", "CC0, for the local test.");
    form.append("config", fs.readFileSync(`${MODEL}.json`, "utf8"));
    form.append("model", await fs.openAsBlob(MODEL), "en_GB-local-medium.onnx");
    const answer = await callRoute(action as never, new Request("http://localhost/api/voices", { method: "POST", body: form, headers: { Cookie: await sessionCookieFor(owner.id) } }));
    expect(answer.status).toBe(201);
    expect(mediaBackend().kind).toBe("local");
    expect(storedVoicesDir()).toBe(path.join(mediaRoot(), "voices"));
    expect(fs.statSync(path.join(mediaRoot(), "voices", "en_GB-local-medium.onnx")).size).toBe(fs.statSync(MODEL).size);
    const voice = (await createOfflineSpeechProvider().listVoices()).find((v) => v.id === "piper:en_GB-local-medium");
    expect(voice).toMatchObject({ neural: true, licence: "CC0, for the local test.", language: "en" });
  });

  it("lets a voice model's body through the web server's gate on its route only", () => {
    expect(declaredBodyLimit("/api/voices")).toBeGreaterThan(200 * 1024 * 1024);
    expect(declaredBodyLimit("/api/config")).toBe(MAX_DECLARED_BODY_BYTES);
  });

  it("answers another method with 405 naming POST", async () => {
    const owner = await prisma.user.findUniqueOrThrow({ where: { email: OWNER } });
    const answer = await callRoute(action as never, new Request("http://localhost/api/voices", { method: "PUT", headers: { Cookie: await sessionCookieFor(owner.id) } }));
    expect(answer.status).toBe(405);
    expect(answer.headers.get("Allow")).toBe("POST");
  });
});
