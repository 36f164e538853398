// A bucket of its own for a test file, on the real object store the test servers run (versitygw, TEST_S3_*):
// created before the tests, emptied and removed after them. `storeMediaInTestBucket()` also points the app at it
// (STORAGE=s3): call it at the top of the file, before any app module reads the environment.
import { randomUUID } from "node:crypto";
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectsCommand,
  ListMultipartUploadsCommand,
  AbortMultipartUploadCommand,
  paginateListObjectsV2,
  S3Client,
} from "@aws-sdk/client-s3";
import { afterAll } from "vitest";
import { createS3Client, type S3Config } from "~/core/storage/s3.server";

export type TestBucket = { config: S3Config; client: S3Client; env: Record<string, string>; keys: () => Promise<string[]> };

/** The test object store's address and credentials; a clear error when the suite's servers are not running. */
function testStore() {
  const { TEST_S3_ENDPOINT: endpoint, TEST_S3_ACCESS_KEY_ID: accessKeyId, TEST_S3_SECRET_ACCESS_KEY: secretAccessKey } = process.env;
  if (!endpoint || !accessKeyId || !secretAccessKey) throw new Error("S3 tests need the object store `npm test` starts (TEST_S3_ENDPOINT): run them with `npm test -- integration`.");
  return { endpoint, accessKeyId, secretAccessKey, region: process.env.TEST_S3_REGION ?? "us-east-1" };
}

/** A new, empty bucket, removed with everything in it after the file's tests. */
export async function createTestBucket(): Promise<TestBucket> {
  const store = testStore();
  const config: S3Config = { ...store, bucket: `test-${randomUUID().slice(0, 18)}`, forcePathStyle: true };
  const client = createS3Client(config);
  await client.send(new CreateBucketCommand({ Bucket: config.bucket }));
  const keys = async () => {
    const found: string[] = [];
    for await (const page of paginateListObjectsV2({ client }, { Bucket: config.bucket })) for (const o of page.Contents ?? []) found.push(o.Key!);
    return found;
  };
  afterAll(async () => {
    const uploads = await client.send(new ListMultipartUploadsCommand({ Bucket: config.bucket }));
    for (const u of uploads.Uploads ?? []) await client.send(new AbortMultipartUploadCommand({ Bucket: config.bucket, Key: u.Key!, UploadId: u.UploadId! }));
    const left = await keys();
    for (let i = 0; i < left.length; i += 1000) {
      await client.send(new DeleteObjectsCommand({ Bucket: config.bucket, Delete: { Objects: left.slice(i, i + 1000).map((Key) => ({ Key })), Quiet: true } }));
    }
    await client.send(new DeleteBucketCommand({ Bucket: config.bucket }));
    client.destroy();
  });
  const env = {
    STORAGE: "s3",
    S3_ENDPOINT: config.endpoint!,
    S3_REGION: config.region,
    S3_BUCKET: config.bucket,
    S3_ACCESS_KEY_ID: config.accessKeyId,
    S3_SECRET_ACCESS_KEY: config.secretAccessKey,
    S3_FORCE_PATH_STYLE: "true",
  };
  return { config, client, env, keys };
}

/** A test bucket, and this process's app pointed at it (STORAGE=s3 and the S3_* variables). */
export async function storeMediaInTestBucket(): Promise<TestBucket> {
  const bucket = await createTestBucket();
  Object.assign(process.env, bucket.env);
  return bucket;
}
