// The development object store (decision 150): versitygw serving an S3 API on loopback over a folder under
// DATA_DIR, with credentials generated once and kept beside it (0600), and the bucket created at start.
// `STORAGE=s3 npm start` runs it (unless S3_ENDPOINT names another store), `npm run backup`/`restore` attach to
// it, and the test servers run one of their own. Only node built-ins and the installed AWS SDK.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ensureVersitygw } from "./versitygw.mjs";
import { logger } from "./log.mjs";
import { isPortOpen, startChild, superviseChild } from "./processes.mjs";
import { httpProbe, waitUntilReady } from "./readiness.mjs";

export const OBJECT_STORE_PORT = Number(process.env.OBJECT_STORE_PORT ?? 7333);
export const OBJECT_STORE_BUCKET = "reelsmith";
const HEALTH_PATH = "/healthz";

/** The root credentials in `<dir>/credentials.json`, created on first use (like .data/secrets.json). */
export function objectStoreCredentials(dir) {
  const file = path.join(dir, "credentials.json");
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!fs.existsSync(file)) {
    const fresh = { accessKeyId: `reelsmith${crypto.randomBytes(6).toString("hex")}`, secretAccessKey: crypto.randomBytes(30).toString("base64url") };
    try {
      fs.writeFileSync(file, JSON.stringify(fresh, null, 2), { flag: "wx", mode: 0o600 });
    } catch (e) {
      if (e.code !== "EEXIST") throw e;
    }
  }
  return JSON.parse(fs.readFileSync(file, "utf8"));
}

/** The app's S3_* variables for a store on this port with these credentials. */
export function objectStoreEnv({ port, bucket, credentials }) {
  return {
    STORAGE: "s3",
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_REGION: "us-east-1",
    S3_BUCKET: bucket,
    S3_ACCESS_KEY_ID: credentials.accessKeyId,
    S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    S3_FORCE_PATH_STYLE: "true",
  };
}

/** Creates the bucket unless it exists, then checks that these credentials may use it. */
export async function ensureBucket(env) {
  const { S3Client, CreateBucketCommand, HeadBucketCommand } = await import("@aws-sdk/client-s3");
  const client = new S3Client({
    endpoint: env.S3_ENDPOINT,
    region: env.S3_REGION,
    forcePathStyle: env.S3_FORCE_PATH_STYLE === "true",
    credentials: { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY },
  });
  const where = `${env.S3_BUCKET}${env.S3_ENDPOINT ? ` at ${env.S3_ENDPOINT}` : ` (AWS S3, ${env.S3_REGION})`}`;
  try {
    // outside us-east-1, S3 wants the region named again in the request
    const location = env.S3_REGION === "us-east-1" ? {} : { CreateBucketConfiguration: { LocationConstraint: env.S3_REGION } };
    await client.send(new CreateBucketCommand({ Bucket: env.S3_BUCKET, ...location }));
  } catch (e) {
    if (e?.name !== "BucketAlreadyOwnedByYou" && e?.name !== "BucketAlreadyExists") throw new Error(`could not create the bucket ${where}: ${e?.name}: ${e?.message}`);
  }
  try {
    await client.send(new HeadBucketCommand({ Bucket: env.S3_BUCKET }));
  } catch (e) {
    throw new Error(`the bucket ${where} exists but these credentials cannot use it (${e?.name ?? e}): check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY`);
  } finally {
    client.destroy();
  }
}

/**
 * Starts versitygw on 127.0.0.1:`port` over `<dir>/data` unless something already listens there (then it is
 * taken to be this store, started earlier: attached). Objects are private files (0600 in 0700 folders).
 * `supervise`: started again when it dies, like Temporal and PostgreSQL. `fresh`: an empty store (tests).
 * Returns the S3_* variables.
 */
export async function startObjectStore({ dir, port = OBJECT_STORE_PORT, bucket = OBJECT_STORE_BUCKET, supervise = false, fresh = false, name = "object-store" }) {
  const credentials = objectStoreCredentials(dir);
  const env = objectStoreEnv({ port, bucket, credentials });
  const health = `http://127.0.0.1:${port}${HEALTH_PATH}`;
  let child;
  const attached = await isPortOpen(port);
  if (!attached) {
    const binary = await ensureVersitygw();
    const data = path.join(dir, "data");
    // `fresh` (the test servers): what an earlier run left is removed first
    if (fresh) fs.rmSync(data, { recursive: true, force: true });
    fs.mkdirSync(data, { recursive: true, mode: 0o700 });
    const args = [
      "--port", `127.0.0.1:${port}`,
      "--region", env.S3_REGION,
      "--health", HEALTH_PATH,
      "--quiet",
      "posix",
      "--dir-perms", "0700",
      "--file-perms", "0600",
      data,
    ];
    // the credentials go in the environment, not the arguments, which any local user can read in the process list
    const secrets = { ROOT_ACCESS_KEY_ID: credentials.accessKeyId, ROOT_SECRET_ACCESS_KEY: credentials.secretAccessKey };
    child = supervise ? superviseChild(name, binary, args, { env: secrets, quiet: true }).child : startChild(name, binary, args, { env: secrets, quiet: true });
  }
  await waitUntilReady({ what: `the object store (versitygw) at ${env.S3_ENDPOINT}`, child, probe: httpProbe(health), log: logger(name) });
  await ensureBucket(env);
  return { env, attached, child, url: env.S3_ENDPOINT };
}
