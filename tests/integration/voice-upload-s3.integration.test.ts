// Issue 48, decision 210: the owner adds a Piper voice in Settings by upload (POST /api/voices: licence, config, then
// the .onnx streamed to storage). With STORAGE=s3 (the real versitygw) the voice lands in the bucket, and a worker on
// another host, whose voices folder has never seen it, lists it with its licence and speaks with it after one
// download. A plain creator is refused (403) and nothing is stored; a config that is not a Piper voice's is refused.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { storeMediaInTestBucket } from "../support/object-store";

const OWNER = "voice-owner@reelsmith.test";
process.env.OWNER_EMAIL = OWNER;
// this file's own data folder: its copy of the stored voices is what a fresh worker host would have
process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "voice-upload-"));
const bucket = await storeMediaInTestBucket();
const { prisma } = await import("~/core/db.server");
const { action } = await import("~/routes/settings/api.voices");
const { loader: voicesLoader } = await import("~/routes/settings/api.elevenlabs.voices");
const { storedVoicesDir, syncStoredVoices } = await import("~/core/stored-voices.server");
const { createOfflineSpeechProvider } = await import("~/providers/speech/offline.server");
const { machineVoicesDir } = await import("~/providers/speech/piper-voices.server");
const { callRoute } = await import("../support/routes");
const { createTestUser, sessionCookieFor } = await import("../support/auth");

afterAll(async () => {
  fs.rmSync(process.env.DATA_DIR!, { recursive: true, force: true });
  await prisma.$disconnect();
});

const MODEL = path.join(machineVoicesDir(), "en_US-joe-medium.onnx");
const LICENCE = "Voice data CC0 (NabuCasa voice-datasets), model MIT: uploaded by the owner for this test.";
const NAME = "en_US-uploaded-medium";

async function upload(userId: string, fields: { licence?: string; config?: string; modelName?: string }) {
  const form = new FormData();
  if (fields.licence !== undefined) form.append("licence", fields.licence);
  if (fields.config !== undefined) form.append("config", fields.config);
  // the model read from disk as it is sent, as a browser sends a chosen file
  form.append("model", await fs.openAsBlob(MODEL), fields.modelName ?? `${NAME}.onnx`);
  const request = new Request("http://localhost/api/voices", { method: "POST", body: form, headers: { Cookie: await sessionCookieFor(userId) } });
  return callRoute(action as never, request);
}

const listVoices = async (userId: string) =>
  (await (await callRoute(voicesLoader as never, new Request("http://localhost/api/elevenlabs/voices", { headers: { Cookie: await sessionCookieFor(userId) } }))).json()) as {
    voices: { id: string; name: string; neural?: boolean; licence?: string }[];
  };

describe("adding a neural voice by upload, with media in a bucket", () => {
  const config = fs.readFileSync(`${MODEL}.json`, "utf8");

  it("a plain creator is refused, and nothing is stored", async () => {
    const creator = await createTestUser();
    const refused = await upload(creator.id, { licence: LICENCE, config });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toBe("Only the owner account can add voices.");
    expect(await bucket.keys()).toEqual([]);
  });

  it("refuses a config that is not a Piper voice's, and a voice with no licence, storing nothing", async () => {
    const owner = await createTestUser(OWNER);
    const bad = await upload(owner.id, { licence: LICENCE, config: JSON.stringify({ audio: { sample_rate: 22050 } }) });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ field: "config", message: expect.stringContaining("not a Piper voice config") });
    const noLicence = await upload(owner.id, { licence: " ", config });
    expect(noLicence.status).toBe(400);
    expect(await noLicence.json()).toMatchObject({ field: "licence" });
    expect(await bucket.keys()).toEqual([]);
  });

  it("the owner's voice goes to the bucket and every voice list shows it with its licence", async () => {
    const owner = await prisma.user.findUniqueOrThrow({ where: { email: OWNER } });
    const added = await upload(owner.id, { licence: LICENCE, config });
    expect(added.status).toBe(201);
    expect(await added.json()).toEqual({ voice: { id: `piper:${NAME}`, name: NAME, bytes: fs.statSync(MODEL).size } });
    expect((await bucket.keys()).sort()).toEqual([`voices/${NAME}.licence.txt`, `voices/${NAME}.onnx`, `voices/${NAME}.onnx.json`]);

    // any signed-in creator's voice picker lists it, neural, with the licence the owner gave
    const creator = await createTestUser();
    const listed = (await listVoices(creator.id)).voices.find((v) => v.id === `piper:${NAME}`);
    expect(listed).toMatchObject({ name: "Joe, medium (neural, offline)", neural: true, licence: LICENCE });
  });

  it("a worker that has never seen it downloads it on first use, lists it and speaks with it", async () => {
    // a fresh host: no copy of the stored voices
    fs.rmSync(storedVoicesDir(), { recursive: true, force: true });
    await syncStoredVoices({ force: true });
    expect(fs.statSync(path.join(storedVoicesDir(), `${NAME}.onnx`)).size).toBe(fs.statSync(MODEL).size);
    const speech = createOfflineSpeechProvider();
    const voice = (await speech.listVoices()).find((v) => v.id === `piper:${NAME}`);
    expect(voice).toMatchObject({ neural: true, licence: LICENCE, language: "en" });
    const spoken = await speech.synthesize({ text: "The lighthouse keeper climbs the stairs.", voiceId: `piper:${NAME}`, language: "en" });
    expect(spoken.voiceId).toBe(`piper:${NAME}`);
    expect(spoken.provider).toBe("Offline neural voice (Piper)");
    expect(spoken.durationSeconds).toBeGreaterThan(1);
    expect(spoken.words).toHaveLength(6);
  }, 120_000);

  it("a voice removed from the bucket leaves the worker's list at its next check", async () => {
    const { mediaBackend } = await import("~/core/storage.server");
    await mediaBackend().deletePrefix(`voices/${NAME}`);
    await syncStoredVoices({ force: true });
    expect(fs.existsSync(path.join(storedVoicesDir(), `${NAME}.onnx`))).toBe(false);
    expect((await createOfflineSpeechProvider().listVoices()).some((v) => v.id === `piper:${NAME}`)).toBe(false);
  });
});
