// Which media store a backup reads and a restore writes, as the app would pick it (decision 150): the local folder
// DATA_DIR/media by default; with STORAGE=s3 the bucket the S3_* variables name, or, without S3_ENDPOINT, the
// development object store under DATA_DIR/object-store (started for the backup when Reelsmith is not running).
import path from "node:path";
import { parseEnv } from "../../app/core/env.server";
import { StorageNotFoundError, type StorageBackend } from "../../app/core/storage/backend.server";
import { createS3Backend } from "../../app/core/storage/s3.server";
import { DATA_DIR } from "./paths.mjs";
import { localMediaStore, type MediaStore } from "./backup-archive";

/** The archive's view of a storage backend: a missing object is ENOENT, as for a local file. */
export function backendMediaStore(backend: StorageBackend, close?: () => Promise<void>): MediaStore {
  return {
    describe: backend.describe,
    async fetchTo(storageKey, target) {
      try {
        await backend.download(storageKey, target);
      } catch (e) {
        if (e instanceof StorageNotFoundError) throw Object.assign(new Error(`${storageKey} is not in ${backend.describe}`), { code: "ENOENT" });
        throw e;
      }
    },
    async putFrom(storageKey, source) {
      await backend.put(storageKey, { path: source });
    },
    async isEmpty() {
      for await (const object of backend.list("")) if (object) return false;
      return true;
    },
    close,
  };
}

export async function mediaStoreForBackup(): Promise<MediaStore> {
  if (process.env.STORAGE !== "s3") return localMediaStore(path.join(DATA_DIR, "media"));
  let close: (() => Promise<void>) | undefined;
  let variables: Record<string, string | undefined> = process.env;
  if (!process.env.S3_ENDPOINT) {
    const { startObjectStore } = await import("./object-store.mjs");
    const { stopChildren } = await import("./processes.mjs");
    const store = await startObjectStore({ dir: path.join(DATA_DIR, "object-store") });
    variables = { ...process.env, ...store.env };
    if (!store.attached) close = () => stopChildren(5000);
  }
  const env = parseEnv(variables);
  const backend = createS3Backend({
    endpoint: env.S3_ENDPOINT,
    region: env.S3_REGION,
    bucket: env.S3_BUCKET!,
    accessKeyId: env.S3_ACCESS_KEY_ID!,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY!,
    forcePathStyle: env.S3_FORCE_PATH_STYLE ?? !!env.S3_ENDPOINT,
  });
  return backendMediaStore(backend, close);
}
