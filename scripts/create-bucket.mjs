// node scripts/create-bucket.mjs: creates the media bucket the S3_* variables name, unless it exists (decision 150).
// For a deployment's one-shot set-up (docker compose runs it before web and worker); `STORAGE=s3 npm start`
// creates its development bucket by itself.
import { ensureBucket } from "./lib/object-store.mjs";

const missing = ["S3_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"].filter((name) => !process.env[name]);
if (missing.length) {
  console.error(`[create-bucket] set ${missing.join(", ")} (and S3_ENDPOINT unless the bucket is on AWS S3)`);
  process.exit(2);
}
const env = {
  S3_ENDPOINT: process.env.S3_ENDPOINT || undefined,
  S3_REGION: process.env.S3_REGION || "us-east-1",
  S3_BUCKET: process.env.S3_BUCKET,
  S3_ACCESS_KEY_ID: process.env.S3_ACCESS_KEY_ID,
  S3_SECRET_ACCESS_KEY: process.env.S3_SECRET_ACCESS_KEY,
  S3_FORCE_PATH_STYLE: process.env.S3_FORCE_PATH_STYLE || (process.env.S3_ENDPOINT ? "true" : "false"),
};
try {
  await ensureBucket(env);
  console.log(`[create-bucket] the bucket ${env.S3_BUCKET} is ready${env.S3_ENDPOINT ? ` at ${env.S3_ENDPOINT}` : ""}`);
} catch (e) {
  console.error(`[create-bucket] ${e.message}`);
  process.exit(1);
}
