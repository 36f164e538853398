// Secrets at rest: a ciphertext moved to another user's row, or to another field, fails to decrypt; texts
// saved before the binding are upgraded; secrets.json and media files are private to the server's user;
// provider errors and the error log never carry a key.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { ProviderError } from "~/providers/errors";
import { prisma } from "~/core/db.server";
import { SecretDecryptionError, decryptSecret } from "~/core/encryption.server";
import { getEnv, loadGeneratedSecrets, looseModeOf, parseEnv } from "~/core/env.server";
import { listErrorLogs, logError } from "~/core/error-log.server";
import { getProviderKeys, upgradeLegacySecrets } from "~/core/settings.server";
import { mediaFilePath, saveMedia } from "~/core/storage.server";
import { seedUser } from "./seed";

afterAll(async () => {
  await prisma.$disconnect();
});

describe("a saved key bound to its user and field", () => {
  it("moved to another user's row, it fails to decrypt there", async () => {
    const a = await seedUser("CryptA");
    const b = await seedUser("CryptB");
    const aRow = await prisma.userSettings.findUniqueOrThrow({ where: { userId: a.user.id } });
    expect(aRow.geminiApiKeyEnc).toMatch(/^v2:/);
    await prisma.userSettings.update({ where: { userId: b.user.id }, data: { geminiApiKeyEnc: aRow.geminiApiKeyEnc } });
    await expect(getProviderKeys(b.user.id)).rejects.toThrow(SecretDecryptionError);
    await expect(getProviderKeys(b.user.id)).rejects.toThrow(/could not be decrypted/);
    // and A still reads it
    await expect(getProviderKeys(a.user.id)).resolves.toMatchObject({ geminiApiKey: a.secret });
  });

  it("moved to another field of the same row, it fails too", async () => {
    const a = await seedUser("CryptC");
    const row = await prisma.userSettings.findUniqueOrThrow({ where: { userId: a.user.id } });
    await prisma.userSettings.update({ where: { userId: a.user.id }, data: { sunoApiKeyEnc: row.geminiApiKeyEnc } });
    await expect(getProviderKeys(a.user.id)).rejects.toThrow(SecretDecryptionError);
  });

  it("a v1 text from before the binding is re-encrypted as v2 for its own row", async () => {
    const a = await seedUser("CryptD");
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv("aes-256-gcm", Buffer.from(getEnv().ENCRYPTION_KEY, "hex"), iv);
    const body = Buffer.concat([cipher.update("legacy-eleven-key", "utf8"), cipher.final()]);
    const v1 = ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), body.toString("base64url")].join(":");
    await prisma.userSettings.update({ where: { userId: a.user.id }, data: { elevenLabsApiKeyEnc: v1 } });
    expect(await upgradeLegacySecrets()).toBeGreaterThanOrEqual(1);
    const row = await prisma.userSettings.findUniqueOrThrow({ where: { userId: a.user.id } });
    expect(row.elevenLabsApiKeyEnc).toMatch(/^v2:/);
    expect(decryptSecret(row.elevenLabsApiKeyEnc!, { userId: a.user.id, field: "elevenLabsApiKey" })).toBe("legacy-eleven-key");
    expect(() => decryptSecret(row.elevenLabsApiKeyEnc!, { userId: "someone-else", field: "elevenLabsApiKey" })).toThrow(SecretDecryptionError);
  });
});

describe("file modes", () => {
  it("secrets.json is created 0600 in a 0700 folder, and a loose one is reported", () => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-secrets-")), "data");
    loadGeneratedSecrets(dir);
    const file = path.join(dir, "secrets.json");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(looseModeOf(file)).toBeNull();
    fs.chmodSync(file, 0o644);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    loadGeneratedSecrets(dir);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/readable by others \(mode 644\)\. Run: chmod 600/));
    warn.mockRestore();
    fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  });

  it("media files are written 0600", async () => {
    const a = await seedUser("Modes");
    const file = await saveMedia({ userId: a.user.id, kind: "image", data: Buffer.from("x"), mimeType: "image/png", extension: "png" });
    expect(fs.statSync(mediaFilePath(file)).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(mediaFilePath(file))).mode & 0o077).toBe(0);
  });
});

describe("keys never reach pages, logs or history", () => {
  it("a provider error echoing the key is scrubbed", () => {
    const e = new ProviderError(
      "Gemini",
      "auth",
      "Gemini rejected https://generativelanguage.googleapis.com/v1/models?key=AIzaSyDUMMY0123456789abcdefghijkLMNOP: Authorization: Bearer sk-proj-abcdefghijklmnop1234 xi-api-key: 0123456789abcdef0123456789abcdef",
    );
    expect(e.message).not.toMatch(/AIzaSy|sk-proj|0123456789abcdef0123/);
    expect(e.message).toMatch(/\[redacted\]/);
    expect(e.message).toMatch(/^Gemini rejected https:\/\/generativelanguage/);
  });

  it("the error log scrubs key-shaped text written by anyone", async () => {
    const a = await seedUser("Scrub");
    await logError({ userId: a.user.id, type: "browser", message: "failed with ?api_key=sk_live_0123456789abcdefghij and AIzaSyAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" });
    const [entry] = await listErrorLogs({ userId: a.user.id, scope: "own" });
    expect(entry!.message).not.toMatch(/sk_live_0123|AIzaSyAAAA/);
  });
});

describe("configuration", () => {
  it("docker compose's empty defaults (VAR: ${VAR:-}) leave optional variables unset instead of failing", () => {
    const parsed = parseEnv({ OIDC_ISSUER: "", OIDC_CLIENT_ID: "", OWNER_EMAIL: "", STRIPE_SECRET_KEY: "", ALLOWED_EMAILS: "", PUBLIC_URL: "" });
    expect(parsed.OIDC_ISSUER).toBeUndefined();
    expect(parsed.OWNER_EMAIL).toBeUndefined();
    expect(parseEnv({ ALLOWED_EMAILS: "A@x.test, b@y.test", ALLOWED_DOMAINS: "@corp.test" })).toMatchObject({ ALLOWED_EMAILS: ["a@x.test", "b@y.test"], ALLOWED_DOMAINS: ["corp.test"] });
    expect(() => parseEnv({ DANGEROUSLY_EXPOSE_BUILTIN_SIGNIN: "1" })).toThrow(/DANGEROUSLY_EXPOSE_BUILTIN_SIGNIN/);
  });
});
