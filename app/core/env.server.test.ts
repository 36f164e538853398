import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EnvError, SETTING_NAMES, loadGeneratedSecrets, parseEnv, defaultRenderSlots } from "./env.server";

describe("parseEnv", () => {
  it("fills safe defaults for a bare environment", () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.TEMPORAL_ADDRESS).toBe("127.0.0.1:7233");
    expect(env.TEMPORAL_TASK_QUEUE).toBe("reelsmith");
    expect(env.DATABASE_URL).toMatch(/^postgresql:\/\/.*:54329\/reelsmith$/);
  });

  it("names the variable when a value is bad", () => {
    expect(() => parseEnv({ PORT: "seventy" })).toThrow(EnvError);
    expect(() => parseEnv({ DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL: must be a postgresql:\/\/ connection URL/);
    expect(() => parseEnv({ ENCRYPTION_KEY: "short" })).toThrow(/ENCRYPTION_KEY: must be 64 hex characters/);
    expect(() => parseEnv({ TEMPORAL_ADDRESS: "nohostport" })).toThrow(/TEMPORAL_ADDRESS: must be host:port/);
  });

  it("keeps media in the local folder by default; a bucket needs its name and keys (decision 150)", () => {
    expect(parseEnv({}).STORAGE).toBe("local");
    expect(() => parseEnv({ STORAGE: "s3" })).toThrow(/S3_BUCKET: is required when STORAGE=s3[\s\S]*S3_ACCESS_KEY_ID: is required[\s\S]*S3_SECRET_ACCESS_KEY: is required/);
    expect(() => parseEnv({ STORAGE: "ftp" })).toThrow(/STORAGE/);
    expect(() => parseEnv({ STORAGE: "s3", S3_BUCKET: "Not_A_Bucket", S3_ACCESS_KEY_ID: "a", S3_SECRET_ACCESS_KEY: "b" })).toThrow(/S3_BUCKET: must be a bucket name/);
    expect(() => parseEnv({ SCRATCH_MAX_BYTES: "1000" })).toThrow(/SCRATCH_MAX_BYTES: must be at least 1048576/);
    const env = parseEnv({ STORAGE: "s3", S3_ENDPOINT: "http://127.0.0.1:7333", S3_BUCKET: "reelsmith", S3_ACCESS_KEY_ID: "a", S3_SECRET_ACCESS_KEY: "b" });
    expect(env).toMatchObject({ STORAGE: "s3", S3_REGION: "us-east-1", S3_BUCKET: "reelsmith", SCRATCH_MAX_BYTES: 2 * 1024 ** 3 });
    expect(env.S3_FORCE_PATH_STYLE).toBeUndefined(); // the storage module then chooses path style because S3_ENDPOINT is set
  });
});

describe("the worker's queues and slots (decision 155)", () => {
  it("serves every queue, with two render slots on a machine of two cores or more, by default", () => {
    const env = parseEnv({});
    expect(env.WORKER_QUEUES).toEqual(["light", "heavy", "render"]);
    expect(env.WORKER_RENDERS).toBe(defaultRenderSlots());
    expect([defaultRenderSlots(1), defaultRenderSlots(2), defaultRenderSlots(16)]).toEqual([1, 2, 2]);
    expect(parseEnv({ WORKER_RENDERS: "1" }).WORKER_RENDERS).toBe(1);
    expect(env.WORKER_HEAVY_ACTIVITIES).toBeUndefined();
    expect(env.RENDER_CHUNKED_MIN_SECONDS).toBe(20);
    expect(env.RENDER_CHUNK_MAX_SECONDS).toBe(300);
  });

  it("reads a list of queues and refuses unknown ones", () => {
    expect(parseEnv({ WORKER_QUEUES: " Render, heavy ,render" }).WORKER_QUEUES).toEqual(["render", "heavy"]);
    expect(() => parseEnv({ WORKER_QUEUES: "render,gpu" })).toThrow(/WORKER_QUEUES/);
    expect(() => parseEnv({ WORKER_QUEUES: "," })).toThrow(/WORKER_QUEUES: must name at least one queue/);
    expect(() => parseEnv({ WORKER_RENDERS: "0" })).toThrow(/WORKER_RENDERS/);
  });
});

describe("loadGeneratedSecrets", () => {
  it("generates the secrets once and returns the same ones afterwards", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-env-"));
    const first = loadGeneratedSecrets(dir);
    expect(first.encryptionKey).toMatch(/^[0-9a-f]{64}$/);
    expect(first.sessionSecret.length).toBeGreaterThanOrEqual(32);
    expect(loadGeneratedSecrets(dir)).toEqual(first);
    expect(fs.statSync(path.join(dir, "secrets.json")).mode & 0o777).toBe(0o600);
    fs.rmSync(dir, { recursive: true });
  });
});

/**
 * Every setting, each with a value that must stop the process (issue 47: "a bad value stops the process" held for most,
 * not for WORKER_NICE, FFMPEG_PATH, FFPROBE_PATH, ESPEAK_NG_PATH). `null`: any non-blank value is valid (a path to a
 * folder or file Reelsmith creates), with the reason beside it. A setting added to the schema without a row here
 * fails the first test.
 */
const BAD_VALUES: Record<string, string | null> = {
  NODE_ENV: "staging",
  PORT: "seventy",
  PUBLIC_URL: "reels.example.com",
  DATA_DIR: null, // any folder: created on first use
  DATABASE_URL: "mysql://db/reelsmith",
  DATABASE_POOL_SIZE: "1",
  DATABASE_QUERY_TIMEOUT_MS: "100",
  WORKER_DATABASE_POOL_SIZE: "many",
  OBJECT_STORE_PORT: "70000",
  WEB_PROCESSES: "0",
  TEMPORAL_ADDRESS: "temporal",
  TEMPORAL_NAMESPACE: "my namespace",
  TEMPORAL_TASK_QUEUE: "reel smith",
  SESSION_SECRET: "too-short",
  ENCRYPTION_KEY: "abc123",
  OWNER_EMAIL: "owner-at-example.com",
  OIDC_ISSUER: "accounts.google.com",
  OIDC_CLIENT_ID: "client id",
  OIDC_CLIENT_SECRET: "secret\n",
  STRIPE_SECRET_KEY: "sk_test 123",
  STRIPE_WEBHOOK_SECRET: "whsec 123",
  STRIPE_PRICE_LOOKUP_KEY: "k".repeat(201),
  STRIPE_API_URL: "api.stripe.com",
  CHROMIUM_PATH: "/nowhere/chromium",
  FFMPEG_PATH: "/nowhere/ffmpeg",
  FFPROBE_PATH: "/nowhere/ffprobe",
  ESPEAK_NG_PATH: "espeak-ng-not-installed",
  VOICE_IDLE_CLOSE_SECONDS: "never",
  WORKER_NICE: "high",
  RENDER_NICE_OFFSET: "lower",
  RENDER_ENGINE: "gpu",
  RENDER_CONCURRENCY: "0",
  GEMINI_BASE_URL: "gemini",
  GEMINI_MODEL: "gemini 2.5",
  ELEVENLABS_BASE_URL: "elevenlabs",
  LEONARDO_BASE_URL: "leonardo",
  SUNO_BASE_URL: "suno",
  PEXELS_BASE_URL: "pexels",
  RUNWAY_BASE_URL: "runway",
  GOOGLE_OAUTH_AUTHORIZE_URL: "authorize",
  GOOGLE_OAUTH_TOKEN_URL: "token",
  GOOGLE_OAUTH_REVOKE_URL: "revoke",
  YOUTUBE_API_BASE_URL: "youtube",
  YOUTUBE_UPLOAD_CHUNK_BYTES: "1000000",
  LEONARDO_WEBHOOK_SECRET: "short",
  HOST: "local host",
  ALLOWED_EMAILS: "a@example.com,nobody",
  ALLOWED_DOMAINS: "example",
  DANGEROUSLY_EXPOSE_BUILTIN_SIGNIN: "yes",
  BUILTIN_SIGNIN_ALLOWS_OWNER: "yes",
  ALLOW_PRIVATE_TARGETS: "yes",
  TRUST_PROXY: "my proxy",
  STORAGE: "ftp",
  S3_ENDPOINT: "not an address",
  S3_REGION: "US East",
  S3_BUCKET: "Not_A_Bucket",
  S3_ACCESS_KEY_ID: "key id",
  S3_SECRET_ACCESS_KEY: "secret key",
  S3_FORCE_PATH_STYLE: "yes",
  CLIP_UPLOAD_MAX_MB: "0",
  SCRATCH_DIR: null, // any folder: created on first use
  SCRATCH_MAX_BYTES: "1000",
  WORKER_QUEUES: "render,gpu",
  WORKER_ALIVE_FILE: null, // any file: created (and touched) by the worker
  WORKER_RENDERS: "0",
  WORKER_HEAVY_ACTIVITIES: "0",
  RENDER_CHUNKED_MIN_SECONDS: "-1",
  RENDER_CHUNK_MAX_SECONDS: "-5",
  RENDER_REUSE_CHUNK_SECONDS: "-1",
  METRICS: "yes",
  METRICS_TOKEN: "short token",
  WORKER_METRICS_PORT: "70000",
  OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318",
  LOG_FORMAT: "xml",
};

describe("every setting is checked at start, the bad one named (issue 47)", () => {
  it("has a case for every setting", () => {
    const cases = Object.keys(BAD_VALUES);
    expect(SETTING_NAMES.filter((name) => !cases.includes(name)), "settings without a row in BAD_VALUES").toEqual([]);
    expect(cases.filter((name) => !(SETTING_NAMES as string[]).includes(name)), "rows for settings that no longer exist").toEqual([]);
  });

  for (const [name, bad] of Object.entries(BAD_VALUES)) {
    if (bad === null) {
      it(`${name}: any path is accepted`, () => {
        expect(parseEnv({ [name]: "/srv/reelsmith/anything" })[name as keyof ReturnType<typeof parseEnv>]).toBe("/srv/reelsmith/anything");
      });
      continue;
    }
    it(`${name}=${JSON.stringify(bad.length > 40 ? `${bad.slice(0, 12)}...` : bad)} is refused, named`, () => {
      let error: unknown;
      try {
        parseEnv({ [name]: bad });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(EnvError);
      // the line names this setting, and only this one is wrong
      expect((error as Error).message.split("\n").slice(1)).toEqual([expect.stringMatching(new RegExp(`^  ${name}(\\.\\d+)?: \\S`))]);
    });
  }

  it("finds a program on PATH or at an absolute path, and refuses what cannot be run", () => {
    expect(parseEnv({ FFMPEG_PATH: process.execPath }).FFMPEG_PATH).toBe(process.execPath);
    expect(parseEnv({ ESPEAK_NG_PATH: "sh" }).ESPEAK_NG_PATH).toBe("sh");
    expect(() => parseEnv({ FFMPEG_PATH: os.tmpdir() })).toThrow(/FFMPEG_PATH: must be an executable file, or a command on PATH/);
  });

  it("the TikTok and Instagram settings are checked at start too, the bad one named", () => {
    expect(() => parseEnv({ TIKTOK_API_BASE_URL: "open.tiktokapis.com" })).toThrow(/^Invalid environment:\n {2}TIKTOK_API_BASE_URL: /);
    expect(() => parseEnv({ INSTAGRAM_API_VERSION: "21" })).toThrow(/INSTAGRAM_API_VERSION/);
    expect(() => parseEnv({ PLATFORM_POLL_SECONDS: "0" })).toThrow(/PLATFORM_POLL_SECONDS/);
    expect(parseEnv({ TIKTOK_APP_AUDITED: "true" }).PORT).toBeGreaterThan(0);
  });

  it("WORKER_NICE is a whole number from 0 to 19, 10 by default", () => {
    expect(parseEnv({}).WORKER_NICE).toBe(10);
    expect(parseEnv({ WORKER_NICE: "0" }).WORKER_NICE).toBe(0);
    expect(parseEnv({ WORKER_NICE: "19" }).WORKER_NICE).toBe(19);
    for (const bad of ["40", "-1", "2.5", "high"]) expect(() => parseEnv({ WORKER_NICE: bad })).toThrow(/WORKER_NICE/);
    expect(parseEnv({}).RENDER_NICE_OFFSET).toBe(5);
    expect(parseEnv({ RENDER_NICE_OFFSET: "0" }).RENDER_NICE_OFFSET).toBe(0);
    for (const bad of ["20", "-1", "lower"]) expect(() => parseEnv({ RENDER_NICE_OFFSET: bad })).toThrow(/RENDER_NICE_OFFSET/);
  });
});
