import { beforeAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.ENCRYPTION_KEY = "0f".repeat(32);
  process.env.SESSION_SECRET = "s".repeat(40);
});

const { decryptSecret, encryptSecret, SecretDecryptionError } = await import("./encryption.server");

describe("encryptSecret / decryptSecret (AES-256-GCM)", () => {
  const plain = "AIzaSy-test-key-1234567890";
  let stored: string;
  beforeAll(() => {
    stored = encryptSecret(plain);
  });

  it("round-trips, and the stored form does not contain the secret", () => {
    expect(decryptSecret(stored)).toBe(plain);
    expect(stored).not.toContain(plain);
    expect(stored).toMatch(/^v1:[\w-]+:[\w-]+:[\w-]+$/);
  });

  it("uses a fresh IV each time, so the same secret never encrypts the same way twice", () => {
    expect(encryptSecret(plain)).not.toBe(stored);
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
      expect(() => decryptSecret(tampered.join(":"))).toThrow(SecretDecryptionError);
    }
  });

  it("refuses text that is not one of its ciphertexts", () => {
    expect(() => decryptSecret(plain)).toThrow(SecretDecryptionError);
    expect(() => decryptSecret("v2:a:b:c")).toThrow(/expected format/);
  });

  it("handles empty and non-ASCII secrets", () => {
    expect(decryptSecret(encryptSecret(""))).toBe("");
    expect(decryptSecret(encryptSecret("clé-🔑"))).toBe("clé-🔑");
  });
});
