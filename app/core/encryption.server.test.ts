import crypto from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.ENCRYPTION_KEY = "0f".repeat(32);
  process.env.SESSION_SECRET = "s".repeat(40);
});

const { decryptSecret, encryptSecret, isLegacySecret, SecretDecryptionError } = await import("./encryption.server");
const ctx = { userId: "user-a", field: "geminiApiKey" };

describe("encryptSecret / decryptSecret (AES-256-GCM)", () => {
  const plain = "AIzaSy-test-key-1234567890";
  let stored: string;
  beforeAll(() => {
    stored = encryptSecret(plain, ctx);
  });

  it("round-trips, and the stored form does not contain the secret", () => {
    expect(decryptSecret(stored, ctx)).toBe(plain);
    expect(stored).not.toContain(plain);
    expect(stored).toMatch(/^v2:[\w-]+:[\w-]+:[\w-]+$/);
  });

  it("uses a fresh IV each time, so the same secret never encrypts the same way twice", () => {
    expect(encryptSecret(plain, ctx)).not.toBe(stored);
  });

  it("detects a changed ciphertext, tag or IV", () => {
    const [version, iv, tag, body] = stored.split(":") as [string, string, string, string];
    const flip = (part: string) => {
      const bytes = Buffer.from(part, "base64url");
      bytes[0] = bytes[0]! ^ 0x01;
      return bytes.toString("base64url");
    };
    for (const tampered of [
      [version, iv, tag, flip(body)],
      [version, iv, flip(tag), body],
      [version, flip(iv), tag, body],
    ]) {
      expect(() => decryptSecret(tampered.join(":"), ctx)).toThrow(SecretDecryptionError);
    }
  });

  it("refuses text that is not one of its ciphertexts", () => {
    expect(() => decryptSecret(plain, ctx)).toThrow(SecretDecryptionError);
    expect(() => decryptSecret("v2:a:b:c", ctx)).toThrow(/expected format/);
  });

  it("handles empty and non-ASCII secrets", () => {
    expect(decryptSecret(encryptSecret("", ctx), ctx)).toBe("");
    expect(decryptSecret(encryptSecret("clé-🔑", ctx), ctx)).toBe("clé-🔑");
  });

  it("is bound to its user and field: moved to another user or field, it no longer decrypts", () => {
    expect(() => decryptSecret(stored, { userId: "user-b", field: "geminiApiKey" })).toThrow(SecretDecryptionError);
    expect(() => decryptSecret(stored, { userId: "user-a", field: "sunoApiKey" })).toThrow(SecretDecryptionError);
  });

  it("still reads a v1 text saved before the binding, and says it needs upgrading", () => {
        const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv("aes-256-gcm", Buffer.from("0f".repeat(32), "hex"), iv);
    const body = Buffer.concat([cipher.update("old-key", "utf8"), cipher.final()]);
    const legacy = ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), body.toString("base64url")].join(":");
    expect(isLegacySecret(legacy)).toBe(true);
    expect(decryptSecret(legacy, ctx)).toBe("old-key");
    expect(isLegacySecret(stored)).toBe(false);
  });
});
