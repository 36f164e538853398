// The S3 backend: any S3-compatible bucket (AWS S3, versitygw, MinIO, SeaweedFS, R2...) through the AWS SDK.
// Streams both ways: uploads of streams and files go through lib-storage's multipart Upload (8 MiB parts), reads
// are ranged GETs piped straight to the caller, so no video is ever held in memory whole.
import fs from "node:fs";
import fsp from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  paginateListObjectsV2,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import {
  assertValidKey,
  assertValidPrefix,
  StorageNotFoundError,
  type ByteRange,
  type ObjectInfo,
  type PutOptions,
  type StorageBackend,
} from "./backend.server";

export type S3Config = {
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
};

const PART_BYTES = 8 * 1024 * 1024;
/** Below this a file is sent in one PUT; above it, in parts (two at a time). */
const SINGLE_PUT_BYTES = 16 * 1024 * 1024;

export function createS3Client(config: S3Config): S3Client {
  return new S3Client({
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    region: config.region,
    forcePathStyle: config.forcePathStyle,
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    // checksums only where the API requires them: not every S3-compatible server knows the newer CRC headers
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    maxAttempts: 4,
  });
}

/** Network failures named for the operator: which bucket could not be reached, and what to check. */
function withClearErrors(backend: StorageBackend, where: string): StorageBackend {
  const explain = (e: unknown): never => {
    const code = (e as NodeJS.ErrnoException).code ?? (e as { name?: string }).name;
    if (code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "ETIMEDOUT" || code === "ECONNRESET") {
      throw new Error(`Media storage is unreachable: ${where} did not answer (${code}). Check S3_ENDPOINT and that the object store runs.`, { cause: e });
    }
    if (code === "InvalidAccessKeyId" || code === "SignatureDoesNotMatch" || code === "AccessDenied") {
      throw new Error(`Media storage refused the credentials for ${where} (${code}). Check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY.`, { cause: e });
    }
    if (code === "NoSuchBucket") throw new Error(`Media storage: ${where} does not exist. Create it, or check S3_BUCKET.`, { cause: e });
    throw e;
  };
  const wrapped = { ...backend };
  for (const name of ["put", "moveIn", "openRead", "read", "stat", "delete", "deletePrefix", "download", "removeStalePartials"] as const) {
    const original = backend[name] as (...args: unknown[]) => Promise<unknown>;
    (wrapped as Record<string, unknown>)[name] = (...args: unknown[]) => original(...args).catch(explain);
  }
  wrapped.list = async function* (prefix) {
    try {
      yield* backend.list(prefix);
    } catch (e) {
      explain(e);
    }
  };
  return wrapped;
}

const isNotFound = (e: unknown) =>
  e instanceof S3ServiceException && (e.name === "NoSuchKey" || e.name === "NotFound" || e.$metadata.httpStatusCode === 404);

export function createS3Backend(config: S3Config, client: S3Client = createS3Client(config)): StorageBackend {
  const Bucket = config.bucket;

  const stat = async (key: string): Promise<ObjectInfo | null> => {
    assertValidKey(key);
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
      return { key, bytes: head.ContentLength ?? 0, modifiedAt: head.LastModified ?? new Date(0), version: head.ETag ?? `${head.ContentLength}-${head.LastModified?.getTime()}` };
    } catch (e) {
      if (isNotFound(e)) return null;
      throw e;
    }
  };

  const afterPut = async (key: string): Promise<ObjectInfo> => {
    const info = await stat(key);
    if (!info) throw new Error(`The bucket did not keep ${key} after storing it`);
    return info;
  };

  const uploadStream = async (key: string, body: Readable, options?: PutOptions) => {
    const upload = new Upload({
      client,
      params: { Bucket, Key: key, Body: body, ContentType: options?.contentType },
      partSize: PART_BYTES,
      queueSize: 2,
      leavePartsOnError: false,
    });
    await upload.done();
  };

  const putFile = async (key: string, file: string, options?: PutOptions) => {
    const { size } = await fsp.stat(file);
    if (size <= SINGLE_PUT_BYTES) {
      await client.send(new PutObjectCommand({ Bucket, Key: key, Body: fs.createReadStream(file), ContentLength: size, ContentType: options?.contentType }));
    } else {
      await uploadStream(key, fs.createReadStream(file), options);
    }
  };

  async function* list(prefix: string): AsyncGenerator<ObjectInfo> {
    assertValidPrefix(prefix, { allowEmpty: true });
    for await (const page of paginateListObjectsV2({ client, pageSize: 1000 }, { Bucket, ...(prefix ? { Prefix: prefix } : {}) })) {
      for (const object of page.Contents ?? []) {
        if (!object.Key) continue;
        yield { key: object.Key, bytes: object.Size ?? 0, modifiedAt: object.LastModified ?? new Date(0), version: object.ETag ?? "" };
      }
    }
  }

  const backend: StorageBackend = {
    kind: "s3",
    describe: `the bucket ${Bucket}${config.endpoint ? ` at ${config.endpoint}` : ` (AWS S3, ${config.region})`}`,

    async put(key, body, options) {
      assertValidKey(key);
      if (Buffer.isBuffer(body) || body instanceof Uint8Array) {
        await client.send(new PutObjectCommand({ Bucket, Key: key, Body: body, ContentLength: body.byteLength, ContentType: options?.contentType }));
      } else if (body instanceof Readable) {
        await uploadStream(key, body, options);
      } else {
        await putFile(key, body.path, options);
      }
      return afterPut(key);
    },

    async moveIn(key, sourcePath, options) {
      assertValidKey(key);
      await putFile(key, sourcePath, options);
      const info = await afterPut(key);
      await fsp.rm(sourcePath, { force: true });
      return info;
    },

    async openRead(key, range?: ByteRange) {
      assertValidKey(key);
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: key, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }));
        if (!(object.Body instanceof Readable)) throw new Error(`The bucket answered ${key} without a readable body`);
        return object.Body;
      } catch (e) {
        if (isNotFound(e)) throw new StorageNotFoundError(key);
        throw e;
      }
    },

    async read(key) {
      const stream = await backend.openRead(key);
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },

    stat,

    async delete(key) {
      assertValidKey(key);
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },

    async deletePrefix(prefix) {
      assertValidPrefix(prefix, { allowEmpty: false });
      let removed = 0;
      let batch: string[] = [];
      const flush = async () => {
        if (batch.length === 0) return;
        const result = await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }));
        const failed = (result.Errors ?? []).filter((e) => e.Code !== "NoSuchKey");
        if (failed.length) throw new Error(`The bucket refused to delete ${failed.length} objects under ${prefix}: ${failed[0]!.Code} ${failed[0]!.Message ?? ""}`);
        removed += batch.length;
        batch = [];
      };
      for await (const object of list(prefix)) {
        batch.push(object.key);
        if (batch.length === 1000) await flush();
      }
      await flush();
      return removed;
    },

    list,

    async download(key, targetPath) {
      assertValidKey(key);
      let object;
      try {
        object = await client.send(new GetObjectCommand({ Bucket, Key: key }));
      } catch (e) {
        if (isNotFound(e)) throw new StorageNotFoundError(key);
        throw e;
      }
      if (!(object.Body instanceof Readable)) throw new Error(`The bucket answered ${key} without a readable body`);
      const partial = `${targetPath}.partial`;
      try {
        await pipeline(object.Body, fs.createWriteStream(partial, { mode: 0o600 }));
        await fsp.rename(partial, targetPath);
      } catch (e) {
        await fsp.rm(partial, { force: true });
        throw e;
      }
      const { size } = await fsp.stat(targetPath);
      // the version of exactly the bytes written (a later put does not mislabel this copy)
      return { key, bytes: size, modifiedAt: object.LastModified ?? new Date(), version: object.ETag ?? `${size}-${object.LastModified?.getTime()}` };
    },

    localPath: () => null,

    async removeStalePartials(before) {
      const removed: string[] = [];
      let KeyMarker: string | undefined;
      let UploadIdMarker: string | undefined;
      do {
        const page = await client.send(new ListMultipartUploadsCommand({ Bucket, KeyMarker, UploadIdMarker }));
        for (const upload of page.Uploads ?? []) {
          if (!upload.Key || !upload.UploadId || (upload.Initiated && upload.Initiated > before)) continue;
          await client.send(new AbortMultipartUploadCommand({ Bucket, Key: upload.Key, UploadId: upload.UploadId }));
          removed.push(upload.Key);
        }
        ({ NextKeyMarker: KeyMarker, NextUploadIdMarker: UploadIdMarker } = page.IsTruncated ? page : { NextKeyMarker: undefined, NextUploadIdMarker: undefined });
      } while (KeyMarker || UploadIdMarker);
      return removed;
    },
  };
  return withClearErrors(backend, backend.describe);
}
