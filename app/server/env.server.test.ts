import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EnvError, loadGeneratedSecrets, parseEnv } from "./env.server";

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
  it("serves every queue, one render at a time, by default", () => {
    const env = parseEnv({});
    expect(env.WORKER_QUEUES).toEqual(["light", "heavy", "render"]);
    expect(env.WORKER_RENDERS).toBe(1);
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
