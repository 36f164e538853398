// The Config entity for one user: read with secrets masked, written with secrets encrypted.
// A saved secret never leaves the server: GET /api/config carries only its length, for the masked placeholder.
import { z } from "zod";
import type { UserSettings } from "~/generated/prisma/client";
import { THUMBNAIL, WEEKDAYS, YOUTUBE_CATEGORY_IDS } from "~/lib/constants";
import type { ProviderKeys } from "~/providers/types";
import { prisma } from "./db.server";
import { normalizeBaseUrl } from "~/lib/openai-compatible";
import { decryptSecret, encryptSecret, isLegacySecret, SecretDecryptionError } from "./encryption.server";
import { privateTargetsAllowedFor } from "./permissions.server";

/** Secret config fields and the columns holding their ciphertext. */
export const SECRET_FIELDS = {
  geminiApiKey: "geminiApiKeyEnc",
  elevenLabsApiKey: "elevenLabsApiKeyEnc",
  leonardoApiKey: "leonardoApiKeyEnc",
  sunoApiKey: "sunoApiKeyEnc",
  pexelsApiKey: "pexelsApiKeyEnc",
  openaiApiKey: "openaiApiKeyEnc",
  googleOAuthClientSecret: "googleOAuthClientSecretEnc",
} as const satisfies Record<string, keyof UserSettings>;
export type SecretField = keyof typeof SECRET_FIELDS;
export const API_KEY_FIELDS = ["geminiApiKey", "elevenLabsApiKey", "leonardoApiKey", "sunoApiKey", "pexelsApiKey"] as const;

const SECRET_LABELS: Record<SecretField, string> = {
  geminiApiKey: "Google AI (Gemini) API key",
  elevenLabsApiKey: "ElevenLabs API key",
  leonardoApiKey: "Leonardo API key",
  sunoApiKey: "Suno API key",
  pexelsApiKey: "Pexels API key",
  openaiApiKey: "OpenAI-compatible API key",
  googleOAuthClientSecret: "Google OAuth client secret",
};

/** What GET /api/config answers. `...Length` is 0 when no secret is saved, null when one is saved but unreadable. */
export type PublicConfig = {
  geminiApiKeyLength: number | null;
  elevenLabsApiKeyLength: number | null;
  leonardoApiKeyLength: number | null;
  sunoApiKeyLength: number | null;
  pexelsApiKeyLength: number | null;
  openaiApiKeyLength: number | null;
  /** The Chat Completions server that writes scripts (null: none configured). */
  openaiBaseUrl: string | null;
  openaiModel: string | null;
  googleOAuthClientSecretLength: number | null;
  googleOAuthClientId: string | null;
  elevenLabsVoiceId: string | null;
  leonardoModelId: string | null;
  watermarkImageUrl: string | null;
  customLogoUrl: string | null;
  customFaviconUrl: string | null;
  preferredThumbnailFont: string | null;
  preferredThumbnailFontSize: number | null;
  youtubePreferredCategory: string | null;
  schedulingDays: string | null;
  defaultScheduleTime: string | null;
  lastScheduleDate: string | null;
  hasCompletedSetup: boolean;
};

const MASK_DOTS = /^[•●*·]+$/;

// A secret: trimmed; "" means "not sent" (ignored), null removes the saved one.
const secretInput = (field: SecretField) =>
  z
    .string()
    .trim()
    .max(1000, `The ${SECRET_LABELS[field]} is too long (at most 1000 characters).`)
    .refine((v) => !MASK_DOTS.test(v), `Paste the whole ${SECRET_LABELS[field]}: the dots only stand for the saved one.`)
    .nullable()
    .optional();

const optionalText = (max: number) => z.string().trim().max(max).nullable().optional();

/** A Chat Completions base URL: http(s), no credentials, query or fragment; stored without a trailing slash. */
export const openaiBaseUrlInput = z
  .string()
  .trim()
  .max(500, "The base URL is too long (at most 500 characters).")
  .transform((value, ctx) => {
    if (value === "") return "";
    try {
      return normalizeBaseUrl(value);
    } catch (e) {
      ctx.addIssue({ code: "custom", message: (e as Error).message });
      return z.NEVER;
    }
  });
export const openaiModelInput = z
  .string()
  .trim()
  .max(200, "The model name is too long (at most 200 characters).")
  .regex(/^[^\s]*$/, "The model name has no spaces (e.g. gpt-4o-mini, llama3.2, qwen2.5:7b).");

const schedulingDays = z
  .union([z.array(z.enum(WEEKDAYS)), z.string()])
  .transform((value, ctx) => {
    let days: unknown = value;
    if (typeof value === "string") {
      try {
        days = JSON.parse(value);
      } catch {
        days = undefined;
      }
    }
    const parsed = z.array(z.enum(WEEKDAYS)).safeParse(days);
    if (!parsed.success) {
      ctx.addIssue({ code: "custom", message: `schedulingDays must be a list of weekday names (${WEEKDAYS.join(", ")}).` });
      return z.NEVER;
    }
    return JSON.stringify([...new Set(parsed.data)]);
  })
  .nullable()
  .optional();

export const ConfigUpdateSchema = z.object({
  geminiApiKey: secretInput("geminiApiKey"),
  elevenLabsApiKey: secretInput("elevenLabsApiKey"),
  leonardoApiKey: secretInput("leonardoApiKey"),
  sunoApiKey: secretInput("sunoApiKey"),
  pexelsApiKey: secretInput("pexelsApiKey"),
  openaiApiKey: secretInput("openaiApiKey"),
  openaiBaseUrl: openaiBaseUrlInput.nullable().optional(),
  openaiModel: openaiModelInput.nullable().optional(),
  googleOAuthClientSecret: secretInput("googleOAuthClientSecret"),
  googleOAuthClientId: optionalText(500),
  elevenLabsVoiceId: optionalText(200),
  leonardoModelId: optionalText(200),
  preferredThumbnailFont: z.enum(THUMBNAIL.fonts as [string, ...string[]]).nullable().optional(),
  preferredThumbnailFontSize: z
    .number()
    .int()
    .min(THUMBNAIL.minFontSize)
    .max(THUMBNAIL.maxFontSize)
    .refine((n) => (n - THUMBNAIL.minFontSize) % THUMBNAIL.fontSizeStep === 0, `The font size moves in steps of ${THUMBNAIL.fontSizeStep}.`)
    .nullable()
    .optional(),
  youtubePreferredCategory: z.enum(YOUTUBE_CATEGORY_IDS).nullable().optional(),
  schedulingDays,
  defaultScheduleTime: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "defaultScheduleTime must be HH:MM (24-hour).")
    .nullable()
    .optional(),
  lastScheduleDate: z.iso
    .datetime({ offset: true })
    .or(z.iso.date())
    .nullable()
    .optional(),
  hasCompletedSetup: z.boolean().optional(),
});
export type ConfigUpdate = z.infer<typeof ConfigUpdateSchema>;

/** The user's settings row, or an unsaved row of defaults when they have saved nothing yet. */
export async function getUserSettings(userId: string): Promise<UserSettings> {
  const row = await prisma.userSettings.findUnique({ where: { userId } });
  return row ?? defaultSettings(userId);
}

function defaultSettings(userId: string): UserSettings {
  return {
    id: "",
    userId,
    geminiApiKeyEnc: null,
    elevenLabsApiKeyEnc: null,
    leonardoApiKeyEnc: null,
    sunoApiKeyEnc: null,
    pexelsApiKeyEnc: null,
    openaiBaseUrl: null,
    openaiModel: null,
    openaiApiKeyEnc: null,
    googleOAuthClientId: null,
    googleOAuthClientSecretEnc: null,
    elevenLabsVoiceId: null,
    leonardoModelId: null,
    watermarkImageUrl: null,
    customLogoUrl: null,
    preferredThumbnailFont: null,
    preferredThumbnailFontSize: null,
    youtubePreferredCategory: null,
    schedulingDays: null,
    defaultScheduleTime: null,
    lastScheduleDate: null,
    hasCompletedSetup: false,
    updatedAt: new Date(0),
  };
}

function readSecret(row: UserSettings, field: SecretField): string | undefined {
  const stored = row[SECRET_FIELDS[field]];
  if (!stored) return undefined;
  try {
    return decryptSecret(stored, { userId: row.userId, field });
  } catch (e) {
    if (e instanceof SecretDecryptionError) {
      throw new SecretDecryptionError(`Your saved ${SECRET_LABELS[field]} could not be decrypted. Save it again in Settings.`);
    }
    throw e;
  }
}

/**
 * Re-encrypts every secret saved before ciphertexts were bound to their user and field ("v1:") as "v2:",
 * bound to the row it is in. Run at start-up; returns how many were upgraded. An unreadable one is left.
 */
export async function upgradeLegacySecrets(): Promise<number> {
  const columns = Object.values(SECRET_FIELDS);
  const rows = await prisma.userSettings.findMany({ where: { OR: columns.map((column) => ({ [column]: { startsWith: "v1:" } })) } });
  let upgraded = 0;
  for (const row of rows) {
    const data: Record<string, string> = {};
    for (const field of Object.keys(SECRET_FIELDS) as SecretField[]) {
      const stored = row[SECRET_FIELDS[field]];
      if (!stored || !isLegacySecret(stored)) continue;
      try {
        data[SECRET_FIELDS[field]] = encryptSecret(decryptSecret(stored, { userId: row.userId, field }), { userId: row.userId, field });
        upgraded++;
      } catch (e) {
        if (!(e instanceof SecretDecryptionError)) throw e;
      }
    }
    if (Object.keys(data).length) await prisma.userSettings.update({ where: { id: row.id }, data });
  }
  return upgraded;
}

/** The user's decrypted AI keys; a key that is not saved is absent. */
export async function getProviderKeys(userId: string): Promise<ProviderKeys> {
  const row = await getUserSettings(userId);
  const keys: ProviderKeys = {};
  for (const field of API_KEY_FIELDS) {
    const value = readSecret(row, field);
    if (value) keys[field] = value;
  }
  if (row.openaiBaseUrl && row.openaiModel) {
    const allowPrivateNetwork = await privateTargetsAllowedFor(userId);
    keys.openaiCompatible = { baseUrl: row.openaiBaseUrl, model: row.openaiModel, apiKey: readSecret(row, "openaiApiKey"), allowPrivateNetwork };
  }
  return keys;
}

/** The OAuth client for the user's own YouTube app, when both parts are saved. */
export async function getGoogleOAuthClient(userId: string): Promise<{ clientId: string; clientSecret: string } | null> {
  const row = await getUserSettings(userId);
  const clientSecret = readSecret(row, "googleOAuthClientSecret");
  if (!row.googleOAuthClientId || !clientSecret) return null;
  return { clientId: row.googleOAuthClientId, clientSecret };
}

/** Every secret the user saved, decrypted (unreadable ones skipped): for scrubbing them out of texts. */
export async function getSavedSecrets(userId: string): Promise<string[]> {
  const row = await getUserSettings(userId);
  const secrets: string[] = [];
  for (const field of Object.keys(SECRET_FIELDS) as SecretField[]) {
    try {
      const value = readSecret(row, field);
      if (value) secrets.push(value);
    } catch {
      // unreadable: it cannot appear in any text either
    }
  }
  return secrets;
}

/** Replaces every occurrence of the given secrets (longest first) with "[redacted]". */
export function redactSecrets(text: string, secrets: string[]): string {
  let out = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (secret.length >= 4) out = out.split(secret).join("[redacted]");
  }
  return out;
}

function secretLength(row: UserSettings, field: SecretField): number | null {
  try {
    return readSecret(row, field)?.length ?? 0;
  } catch {
    return null;
  }
}

export async function getPublicConfig(userId: string): Promise<PublicConfig> {
  const [row, branding] = await Promise.all([getUserSettings(userId), prisma.globalBranding.findUnique({ where: { id: 1 } })]);
  return {
    geminiApiKeyLength: secretLength(row, "geminiApiKey"),
    elevenLabsApiKeyLength: secretLength(row, "elevenLabsApiKey"),
    leonardoApiKeyLength: secretLength(row, "leonardoApiKey"),
    sunoApiKeyLength: secretLength(row, "sunoApiKey"),
    pexelsApiKeyLength: secretLength(row, "pexelsApiKey"),
    openaiApiKeyLength: secretLength(row, "openaiApiKey"),
    openaiBaseUrl: row.openaiBaseUrl,
    openaiModel: row.openaiModel,
    googleOAuthClientSecretLength: secretLength(row, "googleOAuthClientSecret"),
    googleOAuthClientId: row.googleOAuthClientId,
    elevenLabsVoiceId: row.elevenLabsVoiceId,
    leonardoModelId: row.leonardoModelId,
    watermarkImageUrl: row.watermarkImageUrl,
    customLogoUrl: branding?.customLogoUrl ?? null,
    customFaviconUrl: branding?.customFaviconUrl ?? null,
    preferredThumbnailFont: row.preferredThumbnailFont,
    preferredThumbnailFontSize: row.preferredThumbnailFontSize,
    youtubePreferredCategory: row.youtubePreferredCategory,
    schedulingDays: row.schedulingDays,
    defaultScheduleTime: row.defaultScheduleTime,
    lastScheduleDate: row.lastScheduleDate?.toISOString() ?? null,
    hasCompletedSetup: row.hasCompletedSetup,
  };
}

/**
 * Saves the fields present in `update`. Secrets: a non-empty value is encrypted and stored, null removes the
 * saved one, "" or absent leaves it as it is. Saving an API key marks the setup as completed.
 */
export async function updateConfig(userId: string, update: ConfigUpdate): Promise<PublicConfig> {
  const data: Partial<Omit<UserSettings, "id" | "userId" | "updatedAt">> = {};
  let savedApiKey = false;
  for (const field of Object.keys(SECRET_FIELDS) as SecretField[]) {
    const value = update[field];
    if (value === undefined || value === "") continue;
    data[SECRET_FIELDS[field]] = value === null ? null : encryptSecret(value, { userId, field });
    if (value !== null && (API_KEY_FIELDS as readonly string[]).includes(field)) savedApiKey = true;
  }
  // A model server is a way of writing scripts, like a key: configuring one completes the setup too.
  if (update.openaiBaseUrl && update.openaiModel) savedApiKey = true;
  const plain = [
    "openaiBaseUrl",
    "openaiModel",
    "googleOAuthClientId",
    "elevenLabsVoiceId",
    "leonardoModelId",
    "preferredThumbnailFont",
    "preferredThumbnailFontSize",
    "youtubePreferredCategory",
    "schedulingDays",
    "defaultScheduleTime",
  ] as const;
  for (const field of plain) {
    const value = update[field];
    if (value === undefined) continue;
    (data as Record<string, unknown>)[field] = value === "" ? null : value;
  }
  // stored as it is called: without a trailing slash (the schema does this for requests; callers in code too)
  if (data.openaiBaseUrl) data.openaiBaseUrl = normalizeBaseUrl(data.openaiBaseUrl);
  if (update.lastScheduleDate !== undefined) data.lastScheduleDate = update.lastScheduleDate === null ? null : new Date(update.lastScheduleDate);
  if (update.hasCompletedSetup !== undefined) data.hasCompletedSetup = update.hasCompletedSetup;
  else if (savedApiKey) data.hasCompletedSetup = true;

  await prisma.userSettings.upsert({ where: { userId }, create: { userId, ...data }, update: data });
  return getPublicConfig(userId);
}

/** Sets (or clears) the user's thumbnail watermark; returns the previous URL so its file can be removed. */
export async function setWatermarkUrl(userId: string, url: string | null): Promise<string | null> {
  const previous = (await getUserSettings(userId)).watermarkImageUrl;
  await prisma.userSettings.upsert({ where: { userId }, create: { userId, watermarkImageUrl: url }, update: { watermarkImageUrl: url } });
  return previous;
}
