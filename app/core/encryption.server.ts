// Secrets at rest (API keys, OAuth client secret, YouTube tokens): AES-256-GCM under getEnv().ENCRYPTION_KEY.
// Stored form: "v2:<iv>:<auth tag>:<ciphertext>", each part base64url. GCM's tag makes any change detectable,
// and the associated data binds each ciphertext to its user and field: copied to another user's row, or to
// another field, it no longer decrypts. "v1:" texts (before the binding) still decrypt, for the upgrade
// (isLegacySecret + settings.server's upgradeLegacySecrets re-encrypt them as v2).
import crypto from "node:crypto";
import { getEnv } from "./env.server";

const VERSION = "v2";
const LEGACY_VERSION = "v1";

/** Whose secret this is and which field it lives in: the associated data of its encryption. */
export type SecretContext = { userId: string; field: string };

function associatedData(context: SecretContext): Buffer {
  if (!context.userId || !context.field) throw new Error("A secret must be encrypted for a user and a field.");
  return Buffer.from(`reelsmith:${VERSION}:${context.userId}:${context.field}`, "utf8");
}

/** True for a text saved before ciphertexts were bound to their user and field. */
export function isLegacySecret(stored: string): boolean {
  return stored.startsWith(`${LEGACY_VERSION}:`);
}
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

export function encryptSecret(plain: string, context: SecretContext): string {
  const iv = crypto.randomBytes(IV_BYTES);
  const cipher = crypto.createCipheriv("aes-256-gcm", key(), iv);
  cipher.setAAD(associatedData(context));
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv.toString("base64url"), tag.toString("base64url"), body.toString("base64url")].join(":");
}

/**
 * Throws SecretDecryptionError when the text is not ours, was tampered with, was made under another key, or
 * was made for another user or field (moved between rows).
 */
export function decryptSecret(stored: string, context: SecretContext): string {
  const parts = stored.split(":");
  if (parts.length !== 4 || (parts[0] !== VERSION && parts[0] !== LEGACY_VERSION)) throw new SecretDecryptionError("A stored secret is not in the expected format.");
  const [, ivText, tagText, bodyText] = parts as [string, string, string, string];
  const iv = Buffer.from(ivText, "base64url");
  const tag = Buffer.from(tagText, "base64url");
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new SecretDecryptionError("A stored secret is not in the expected format.");
  try {
    const decipher = crypto.createDecipheriv("aes-256-gcm", key(), iv, { authTagLength: TAG_BYTES });
    if (parts[0] === VERSION) decipher.setAAD(associatedData(context));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(Buffer.from(bodyText, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new SecretDecryptionError();
  }
}
