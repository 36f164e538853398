// Saved secrets stay secret: stored as AES-256-GCM ciphertext, a changed ciphertext is detected, and no /api
// route ever answers with a saved secret, even when a cloud service echoes the key back in its error.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callRoute as call } from "../support/routes";

// A cloud service that refuses every call and repeats the credentials it was sent, as some services do.
const echoingService = http.createServer((req, res) => {
  res.writeHead(401, { "Content-Type": "application/json" });
  res.end(JSON.stringify({ detail: { status: "invalid_api_key", message: `Invalid key. Received ${JSON.stringify(req.headers)} at ${req.url}` } }));
});
await new Promise<void>((resolve) => echoingService.listen(0, "127.0.0.1", resolve));
const serviceUrl = `http://127.0.0.1:${(echoingService.address() as AddressInfo).port}`;
for (const name of ["GEMINI_BASE_URL", "ELEVENLABS_BASE_URL", "LEONARDO_BASE_URL", "SUNO_BASE_URL"]) process.env[name] = serviceUrl;
process.env.OWNER_EMAIL = "owner@settings-secrets.test";

// App modules read the environment once, so they are loaded after it is set.
const { prisma } = await import("~/core/db.server");
const { getProviderKeys, getPublicConfig } = await import("~/core/settings.server");
const { SecretDecryptionError, decryptSecret } = await import("~/core/encryption.server");
const { logError } = await import("~/core/error-log.server");
const config = await import("~/routes/settings/api.config");
const { createTestUser, sessionCookieFor } = await import("../support/auth");

const base = "http://localhost:3000";
const ownerSecrets = {
  geminiApiKey: "AIzaSyOWNER-gemini-0123456789abcdef",
  elevenLabsApiKey: "sk_owner_elevenlabs_0123456789abcdef",
  leonardoApiKey: "owner-leonardo-0123-4567-89ab-cdef",
  sunoApiKey: "owner-suno-0123456789abcdef",
  googleOAuthClientSecret: "GOCSPX-owner-oauth-secret-0123",
};
const userSecrets = {
  geminiApiKey: "AIzaSyUSER-gemini-fedcba9876543210",
  elevenLabsApiKey: "sk_user_elevenlabs_fedcba9876543210",
  leonardoApiKey: "user-leonardo-fedc-ba98-7654-3210",
  sunoApiKey: "user-suno-fedcba9876543210",
  googleOAuthClientSecret: "GOCSPX-user-oauth-secret-3210",
};


const putConfig = (cookie: string, body: unknown) =>
  call(
    config.action,
    new Request(`${base}/api/config`, { method: "PUT", headers: { Cookie: cookie, "Content-Type": "application/json", Origin: base }, body: JSON.stringify(body) }),
  );
const getConfig = (cookie: string) => call(config.loader, new Request(`${base}/api/config`, { headers: { Cookie: cookie } }));

let owner: Awaited<ReturnType<typeof createTestUser>>;
let user: Awaited<ReturnType<typeof createTestUser>>;
let ownerCookie: string;
let userCookie: string;

beforeAll(async () => {
  owner = await createTestUser(process.env.OWNER_EMAIL, "Owner");
  user = await createTestUser(undefined, "Creator");
  ownerCookie = await sessionCookieFor(owner.id);
  userCookie = await sessionCookieFor(user.id);
  for (const [account, cookie] of [
    [owner, ownerCookie],
    [user, userCookie],
  ] as const) {
    const project = await prisma.project.create({
      data: { userId: account.id, title: "Deep Sea", topic: "Creatures of the deep", resolution: "shorts", durationSeconds: 30 },
    });
    await prisma.user.update({ where: { id: account.id }, data: { currentProjectId: project.id } });
    const response = await putConfig(cookie, {
      ...(account === owner ? ownerSecrets : userSecrets),
      googleOAuthClientId: `${account.id}.apps.googleusercontent.com`,
    });
    expect(response.status).toBe(200);
  }
});

afterAll(async () => {
  echoingService.close();
  await prisma.$disconnect();
});

describe("secrets at rest", () => {
  it("stores only ciphertext that decrypts to the saved secret", async () => {
    const row = await prisma.userSettings.findUniqueOrThrow({ where: { userId: owner.id } });
    const stored = {
      geminiApiKey: row.geminiApiKeyEnc,
      elevenLabsApiKey: row.elevenLabsApiKeyEnc,
      leonardoApiKey: row.leonardoApiKeyEnc,
      sunoApiKey: row.sunoApiKeyEnc,
      googleOAuthClientSecret: row.googleOAuthClientSecretEnc,
    };
    const dump = JSON.stringify(row);
    for (const [field, secret] of Object.entries(ownerSecrets)) {
      expect(dump).not.toContain(secret);
      const cipher = stored[field as keyof typeof stored]!;
      expect(cipher).toMatch(/^v2:/);
      expect(decryptSecret(cipher, { userId: owner.id, field })).toBe(secret);
    }
    expect(await getProviderKeys(owner.id)).toEqual({
      geminiApiKey: ownerSecrets.geminiApiKey,
      elevenLabsApiKey: ownerSecrets.elevenLabsApiKey,
      leonardoApiKey: ownerSecrets.leonardoApiKey,
      sunoApiKey: ownerSecrets.sunoApiKey,
    });
  });

  it("answers GET /api/config with lengths only, and marks the setup completed", async () => {
    const body = await (await getConfig(ownerCookie)).json();
    expect(body).toMatchObject({
      geminiApiKeyLength: ownerSecrets.geminiApiKey.length,
      elevenLabsApiKeyLength: ownerSecrets.elevenLabsApiKey.length,
      googleOAuthClientSecretLength: ownerSecrets.googleOAuthClientSecret.length,
      googleOAuthClientId: `${owner.id}.apps.googleusercontent.com`,
      hasCompletedSetup: true,
    });
    for (const field of Object.keys(ownerSecrets)) expect(body).not.toHaveProperty(field);
  });

  it("detects a tampered ciphertext: the key is refused with what to do, the config shows it as unreadable", async () => {
    const victim = await createTestUser();
    const cookie = await sessionCookieFor(victim.id);
    await putConfig(cookie, { elevenLabsApiKey: "sk_victim_0123456789" });
    const row = await prisma.userSettings.findUniqueOrThrow({ where: { userId: victim.id } });
    const parts = row.elevenLabsApiKeyEnc!.split(":");
    const body = Buffer.from(parts[3]!, "base64url");
    body[0] = body[0]! ^ 0xff;
    parts[3] = body.toString("base64url");
    await prisma.userSettings.update({ where: { userId: victim.id }, data: { elevenLabsApiKeyEnc: parts.join(":") } });

    await expect(getProviderKeys(victim.id)).rejects.toThrow(SecretDecryptionError);
    await expect(getProviderKeys(victim.id)).rejects.toThrow("Your saved ElevenLabs API key could not be decrypted. Save it again in Settings.");
    expect((await getPublicConfig(victim.id)).elevenLabsApiKeyLength).toBeNull();

    // saving the key again repairs it
    await putConfig(cookie, { elevenLabsApiKey: "sk_victim_fresh_0123" });
    expect((await getProviderKeys(victim.id)).elevenLabsApiKey).toBe("sk_victim_fresh_0123");
  });
});

describe("PUT /api/config", () => {
  it("trims keys, ignores empty ones and leaves saved secrets alone when they are not sent", async () => {
    const account = await createTestUser();
    const cookie = await sessionCookieFor(account.id);
    await putConfig(cookie, { geminiApiKey: "  gem-key-1234  ", sunoApiKey: "" });
    await putConfig(cookie, { elevenLabsVoiceId: "voice-1", preferredThumbnailFont: "Anton", preferredThumbnailFontSize: 76 });
    const keys = await getProviderKeys(account.id);
    expect(keys).toEqual({ geminiApiKey: "gem-key-1234" });
    const body = await (await getConfig(cookie)).json();
    expect(body).toMatchObject({ geminiApiKeyLength: 12, sunoApiKeyLength: 0, elevenLabsVoiceId: "voice-1", preferredThumbnailFont: "Anton", preferredThumbnailFontSize: 76 });
  });

  it("removes a saved key when it is sent as null", async () => {
    const account = await createTestUser();
    const cookie = await sessionCookieFor(account.id);
    await putConfig(cookie, { leonardoApiKey: "leo-123456" });
    await putConfig(cookie, { leonardoApiKey: null });
    expect(await getProviderKeys(account.id)).toEqual({});
  });

  it("refuses bad fields with 400 { message, field }", async () => {
    const cases: [unknown, string][] = [
      [{ geminiApiKey: "••••••••" }, "geminiApiKey"],
      [{ preferredThumbnailFontSize: 41 }, "preferredThumbnailFontSize"],
      [{ preferredThumbnailFont: "Comic Sans" }, "preferredThumbnailFont"],
      [{ defaultScheduleTime: "25:00" }, "defaultScheduleTime"],
      [{ schedulingDays: ["monday", "someday"] }, "schedulingDays"],
      [{ geminiApiKey: 42 }, "geminiApiKey"],
    ];
    for (const [body, field] of cases) {
      const response = await putConfig(userCookie, body);
      expect(response.status).toBe(400);
      const json = await response.json();
      expect(json.field).toBe(field);
      expect(json.message).toEqual(expect.any(String));
    }
  });

  it("stores scheduling days as JSON text of weekday names", async () => {
    await putConfig(userCookie, { schedulingDays: ["monday", "friday"], defaultScheduleTime: "09:30" });
    const body = await (await getConfig(userCookie)).json();
    expect(JSON.parse(body.schedulingDays)).toEqual(["monday", "friday"]);
    expect(body.defaultScheduleTime).toBe("09:30");
  });

  it("answers 401 when signed out", async () => {
    expect((await call(config.loader, new Request(`${base}/api/config`))).status).toBe(401);
  });
});

// ── Every /api route, called with every method, must never answer with a saved secret ───────────

const routeModules = import.meta.glob<Record<string, unknown>>("../../app/routes/*/api.*.{ts,tsx}");

function urlFor(file: string, params: Record<string, string>): string {
  const name = file.split("/").pop()!.replace(/\.tsx?$/, "");
  const path = name
    .split(".")
    .map((segment) => (segment.startsWith("$") ? (params[segment.slice(1)] ?? "x") : segment.replace(/_$/, "")))
    .join("/");
  return `${base}/${path}`;
}

async function paramSets(file: string): Promise<Record<string, string>[]> {
  const names = [...file.matchAll(/\$(\w+)/g)].map((m) => m[1]!);
  if (names.length === 0) return [{}];
  const ownerProject = (await prisma.user.findUniqueOrThrow({ where: { id: owner.id } })).currentProjectId!;
  const userProject = (await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).currentProjectId!;
  const media = await prisma.mediaFile.findMany({ select: { id: true } });
  const values: Record<string, string[]> = {
    id: [ownerProject, userProject, "2", ...media.map((m) => m.id)],
    kind: ["logo", "favicon", "watermark"],
  };
  return (values[names[0]!] ?? ["x"]).map((value) => Object.fromEntries(names.map((n) => [n, value])));
}

const withTimeout = <T,>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), ms))]);

describe("no /api response contains a saved secret", () => {
  it("holds for every route, method and account, including error-log entries that quote a key", async () => {
    // Failures that quote keys: one logged through logError, one written straight to the table.
    await logError({ userId: owner.id, type: "voice_list", message: `ElevenLabs refused key ${ownerSecrets.elevenLabsApiKey}` });
    await prisma.errorLog.create({ data: { userId: user.id, type: "script_generation", message: `Gemini said: bad key ${userSecrets.geminiApiKey}` } });

    const secrets = [...Object.values(ownerSecrets), ...Object.values(userSecrets)];
    const ciphertexts = (await prisma.userSettings.findMany()).flatMap((r) =>
      [r.geminiApiKeyEnc, r.elevenLabsApiKeyEnc, r.leonardoApiKeyEnc, r.sunoApiKeyEnc, r.googleOAuthClientSecretEnc].filter((c): c is string => !!c),
    );
    const files = Object.keys(routeModules).filter((f) => !/api\.(login|logout|auth\.callback)\.tsx?$/.test(f));
    expect(files.length).toBeGreaterThan(10);
    const leaks: string[] = [];
    const called: string[] = [];

    for (const file of files) {
      const mod = await routeModules[file]!();
      for (const params of await paramSets(file)) {
        const url = urlFor(file, params);
        const attempts: [string, unknown][] = [];
        if (typeof mod.loader === "function") attempts.push(["GET", mod.loader]);
        if (typeof mod.action === "function") for (const method of ["POST", "PUT", "DELETE"]) attempts.push([method, mod.action]);
        for (const [method, fn] of attempts) {
          for (const cookie of [ownerCookie, userCookie]) {
            const request = new Request(url, {
              method,
              headers: { Cookie: cookie, Origin: base, ...(method === "GET" ? {} : { "Content-Type": "application/json" }) },
              body: method === "GET" ? undefined : "{}",
            });
            let text: string;
            try {
              const outcome = await withTimeout(call(fn as never, request, params), 20_000);
              if (outcome === "timeout") {
                text = "";
              } else {
                const headers = JSON.stringify([...outcome.headers.entries()]);
                text = headers + (outcome.body ? Buffer.from(await outcome.arrayBuffer()).toString("latin1") : "");
              }
            } catch (e) {
              text = `${(e as Error)?.message} ${(e as Error)?.stack}`;
            }
            called.push(`${method} ${url}`);
            for (const secret of [...secrets, ...ciphertexts]) {
              if (text.includes(secret)) leaks.push(`${method} ${url} (${cookie === ownerCookie ? "owner" : "creator"}) answered with ${secret.slice(0, 12)}...`);
            }
          }
        }
      }
    }
    expect(called).toEqual(expect.arrayContaining([`GET ${base}/api/config`, `GET ${base}/api/error-logs`, `GET ${base}/api/elevenlabs/voices`]));
    expect(leaks).toEqual([]);
  }, 600_000);

  it("scrubs a key a provider echoed back out of the error it answers and logs", async () => {
    const voices = await import("~/routes/settings/api.elevenlabs.voices");
    const response = await call(voices.loader, new Request(`${base}/api/elevenlabs/voices`, { headers: { Cookie: ownerCookie } }));
    expect(response.status).toBe(502);
    const { message } = await response.json();
    expect(message).toMatch(/^Failed to load voices: .*Check your ElevenLabs API key in Settings\.$/);
    expect(message).not.toContain(ownerSecrets.elevenLabsApiKey);
    const logged = await prisma.errorLog.findFirstOrThrow({ where: { userId: owner.id, type: "voice_list" }, orderBy: { createdAt: "desc" } });
    expect(logged.message).not.toContain(ownerSecrets.elevenLabsApiKey);
  });
});
