// Secrets at rest (API keys, OAuth client secret, YouTube tokens): AES-256-GCM under getEnv().ENCRYPTION_KEY.
// Stored form: "v1:<iv>:<auth tag>:<ciphertext>", each part base64url. GCM's tag makes any change detectable.
import crypto from "node:crypto";
import { getEnv } from "./env.server";

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretDecryptionError extends Error {
  constructor(message = "A stored secret could not be decrypted: it was changed, or ENCRYPTION_KEY is not the key it was saved with.") {
    super(message);
    this.name = "SecretDecryptionError";
  }
}

function key(): Buffer {
  return Buffer.from(getEnv().ENCRYPTION_KEY, "hex");
}

export function encryptSecret(plain: string): string {
  const iv = crypto.randomBytes(IV_BYTES);
  const cipher = crypto.createCipheriv("aes-256-gcm", key(), iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv.toString("base64url"), tag.toString("base64url"), body.toString("base64url")].join(":");
}

/** Throws SecretDecryptionError when the text is not ours, was tampered with, or was made under another key. */
export function decryptSecret(stored: string): string {
  const parts = stored.split(":");
  if (parts.length !== 4 || parts[0] !== VERSION) throw new SecretDecryptionError("A stored secret is not in the expected format.");
  const [, ivText, tagText, bodyText] = parts as [string, string, string, string];
  const iv = Buffer.from(ivText, "base64url");
  const tag = Buffer.from(tagText, "base64url");
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new SecretDecryptionError("A stored secret is not in the expected format.");
  try {
    const decipher = crypto.createDecipheriv("aes-256-gcm", key(), iv, { authTagLength: TAG_BYTES });
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(Buffer.from(bodyText, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new SecretDecryptionError();
  }
}
