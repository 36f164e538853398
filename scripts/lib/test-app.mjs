// The built app, started for the browser tests: web server and worker against a fresh database copied
// from the test template, on their own port and task queue. Their output goes to .data/logs/e2e-app.log.
// E2E_STORAGE=s3: media in the test object store's bucket, and the web and the worker share no folder (each its
// own DATA_DIR and scratch folder; the secrets given to both, as a fleet's operator gives them; decision 150).
// E2E_WORKERS=N: N worker processes (default 1), each its own folders with a bucket, all serving every queue, as N
// machines of a fleet would (docs/fleet.md), or each the queues E2E_WORKER_QUEUES gives it; their output is
// tagged worker-1, worker-2, ... in the log.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { compiledEntry } from "./build.mjs";
import { DATA_DIR } from "./paths.mjs";
import { startChild, stopChildren, waitForHttp } from "./processes.mjs";
import { createDatabaseFromTemplate } from "./test-servers.mjs";
import { WORKER_MALLOC_ENV } from "./worker-malloc.mjs";

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);

/** The local fake of Google's OAuth and the YouTube Data API (tests/fakes/youtube-server.ts); resolves to its URL. */
function startYoutubeFake() {
  const child = startChild("youtube-fake", process.execPath, ["--import", "tsx", "tests/fakes/youtube-server.ts"], { quiet: true });
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`the YouTube fake did not start:\n${output}`)), 30_000);
    child.stdout.on("data", (d) => {
      output += d;
      const match = /youtube fake listening (\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.stderr.on("data", (d) => (output += d));
  });
}

/** The local fake of the Pexels API and CDN (tests/fakes/pexels-server.ts); resolves to its URL. */
function startPexelsFake() {
  const child = startChild("pexels-fake", process.execPath, ["--import", "tsx", "tests/fakes/pexels-server.ts"], { quiet: true });
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`the Pexels fake did not start:\n${output}`)), 30_000);
    child.stdout.on("data", (d) => {
      output += d;
      const match = /pexels fake listening (\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.stderr.on("data", (d) => (output += d));
  });
}

/** The local fakes of TikTok and Instagram (tests/fakes/platforms-server.ts, issue 49); resolves to their URLs. */
function startPlatformsFake() {
  const child = startChild("platforms-fake", process.execPath, ["--import", "tsx", "tests/fakes/platforms-server.ts"], { quiet: true });
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`the TikTok/Instagram fake did not start:\n${output}`)), 30_000);
    child.stdout.on("data", (d) => {
      output += d;
      const match = /platforms fake listening (\S+) (\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ tiktok: match[1], instagram: match[2] });
      }
    });
    child.stderr.on("data", (d) => (output += d));
  });
}

/** The local fakes of Runway's API and of Veo (the Gemini API) for AI clips (tests/fakes/ai-clips-server.ts); resolves to their URLs. */
function startRunwayFake() {
  const child = startChild("runway-fake", process.execPath, ["--import", "tsx", "tests/fakes/ai-clips-server.ts"], { quiet: true });
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`the Runway fake did not start:\n${output}`)), 30_000);
    child.stdout.on("data", (d) => {
      output += d;
      const match = /runway fake listening (\S+) veo (\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ runway: match[1], veo: match[2] });
      }
    });
    child.stderr.on("data", (d) => (output += d));
  });
}

export async function startAppForTests(serverEnv) {
  const [youtubeFake, platformsFake, pexelsFake, clipFakes] = await Promise.all([startYoutubeFake(), startPlatformsFake(), startPexelsFake(), startRunwayFake()]);
  const database = `test_e2e_${Date.now()}`;
  const databaseUrl = await createDatabaseFromTemplate(serverEnv.TEST_PG_ADMIN_URL, serverEnv.TEST_TEMPLATE_DATABASE, database);
  const dataDir = path.join(DATA_DIR, `e2e-${E2E_PORT}`);
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(path.join(DATA_DIR, "logs"), { recursive: true });
  const logFile = path.join(DATA_DIR, `logs/e2e-app-${E2E_PORT}.log`);
  const out = fs.createWriteStream(logFile);
  const env = {
    NODE_ENV: "production",
    PORT: String(E2E_PORT),
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: serverEnv.TEMPORAL_ADDRESS,
    TEMPORAL_TASK_QUEUE: `e2e-${Date.now()}`,
    DATA_DIR: dataDir,
    // the browser tests sign in as this account to reach the owner-only settings
    OWNER_EMAIL: process.env.OWNER_EMAIL ?? "owner@reelsmith.test",
    // ...through the built-in sign-in, which the operator (here, the test run) must allow explicitly
    BUILTIN_SIGNIN_ALLOWS_OWNER: "true",
    // Google's OAuth endpoints and the YouTube Data API: the local fake
    GOOGLE_OAUTH_AUTHORIZE_URL: `${youtubeFake}/o/oauth2/v2/auth`,
    GOOGLE_OAUTH_TOKEN_URL: `${youtubeFake}/token`,
    GOOGLE_OAUTH_REVOKE_URL: `${youtubeFake}/revoke`,
    YOUTUBE_API_BASE_URL: `${youtubeFake}/`,
    // small chunks, so the tests see several; E2E_YOUTUBE_UPLOAD_CHUNK_BYTES for a benchmark uploading a gigabyte
    YOUTUBE_UPLOAD_CHUNK_BYTES: process.env.E2E_YOUTUBE_UPLOAD_CHUNK_BYTES ?? String(256 * 1024),
    // Pexels stock photos and clips: the local fake
    PEXELS_BASE_URL: pexelsFake,
    // TikTok and Instagram (issue 49): the local fakes, and an app TikTok has not audited
    TIKTOK_CLIENT_KEY: "fake-tiktok-client-key",
    TIKTOK_CLIENT_SECRET: "fake-tiktok-client-secret",
    TIKTOK_AUTHORIZE_URL: `${platformsFake.tiktok}/v2/auth/authorize/`,
    TIKTOK_API_BASE_URL: platformsFake.tiktok,
    INSTAGRAM_APP_ID: "990000000000001",
    INSTAGRAM_APP_SECRET: "fake-instagram-app-secret",
    INSTAGRAM_AUTHORIZE_URL: `${platformsFake.instagram}/oauth/authorize`,
    INSTAGRAM_TOKEN_URL: `${platformsFake.instagram}/oauth/access_token`,
    INSTAGRAM_GRAPH_BASE_URL: platformsFake.instagram,
    PLATFORM_POLL_SECONDS: "0.2",
    // Runway's API and Veo (the Gemini API's video routes) for AI clips: the local fakes; a Gemini key saved by another
    // test reaches only this fake's routes (no test relies on Gemini's text answering)
    RUNWAY_BASE_URL: clipFakes.runway,
    GEMINI_BASE_URL: clipFakes.veo,
  };
  const inBucket = process.env.E2E_STORAGE === "s3";
  const own = (part) => {
    if (!inBucket) return env;
    const partDir = path.join(dataDir, part);
    return { ...env, ...bucketEnv, DATA_DIR: partDir, SCRATCH_DIR: path.join(partDir, "scratch") };
  };
  const bucketEnv = inBucket
    ? {
        STORAGE: "s3",
        S3_ENDPOINT: serverEnv.TEST_S3_ENDPOINT,
        S3_REGION: serverEnv.TEST_S3_REGION,
        S3_BUCKET: serverEnv.TEST_S3_BUCKET,
        S3_ACCESS_KEY_ID: serverEnv.TEST_S3_ACCESS_KEY_ID,
        S3_SECRET_ACCESS_KEY: serverEnv.TEST_S3_SECRET_ACCESS_KEY,
        S3_FORCE_PATH_STYLE: "true",
        SESSION_SECRET: crypto.randomBytes(32).toString("hex"),
        ENCRYPTION_KEY: crypto.randomBytes(32).toString("hex"),
      }
    : {};
  const workerCount = Number(process.env.E2E_WORKERS ?? 1);
  if (!Number.isInteger(workerCount) || workerCount < 1) throw new Error(`E2E_WORKERS must be a whole number of at least 1, not "${process.env.E2E_WORKERS}"`);
  const workerNames = workerCount === 1 ? ["worker"] : Array.from({ length: workerCount }, (_, i) => `worker-${i + 1}`);
  // E2E_WORKER_QUEUES: each worker's WORKER_QUEUES, separated by ";" (e.g. "light,render;heavy,render"), as a fleet
  // whose machines serve different queues; unset, every worker serves all three
  const workerQueues = process.env.E2E_WORKER_QUEUES?.split(";") ?? [];
  if (workerQueues.length && workerQueues.length !== workerCount) {
    throw new Error(`E2E_WORKER_QUEUES names ${workerQueues.length} workers' queues, E2E_WORKERS starts ${workerCount}`);
  }
  // E2E_WORKER_NODE_OPTIONS: Node's options for the workers alone (a benchmark profiling them: --cpu-prof ...)
  const nodeOptions = process.env.E2E_WORKER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.E2E_WORKER_NODE_OPTIONS } : {};
  const workers = workerNames.map((name, i) => {
    const queues = workerQueues[i] ? { WORKER_QUEUES: workerQueues[i] } : {};
    return startChild(name, process.execPath, compiledEntry("worker"), { env: { ...own(name), ...WORKER_MALLOC_ENV, ...queues, ...nodeOptions }, quiet: true });
  });
  const children = [startChild("web", process.execPath, compiledEntry("server"), { env: own("web"), quiet: true }), ...workers];
  for (const child of children) {
    child.stdout.on("data", (d) => out.write(`[${child.name}] ${d}`));
    child.stderr.on("data", (d) => out.write(`[${child.name}] ${d}`));
  }
  const baseUrl = `http://127.0.0.1:${E2E_PORT}`;
  // E2E_READY_TIMEOUT_MS: longer on a machine shared by many test runs (the worker bundles its workflows first)
  await waitForHttp(`${baseUrl}/healthz`, { timeoutMs: Number(process.env.E2E_READY_TIMEOUT_MS ?? 120_000) });
  process.env.E2E_BASE_URL = baseUrl;
  process.env.E2E_DATABASE_URL = databaseUrl;
  process.env.E2E_TASK_QUEUE = env.TEMPORAL_TASK_QUEUE;
  process.env.E2E_OWNER_EMAIL = env.OWNER_EMAIL;
  process.env.E2E_YOUTUBE_FAKE_URL = youtubeFake;
  process.env.E2E_TIKTOK_FAKE_URL = platformsFake.tiktok;
  process.env.E2E_INSTAGRAM_FAKE_URL = platformsFake.instagram;
  process.env.E2E_DATA_DIR = inBucket ? path.join(dataDir, "web") : dataDir;
  // each worker process's DATA_DIR and process id (its Temporal identity is "<pid>@<host>"), as name=pid:dir
  process.env.E2E_WORKERS_STARTED = workers.map((w) => `${w.name}=${w.pid}:${inBucket ? path.join(dataDir, w.name) : dataDir}`).join(",");
  return { baseUrl, databaseUrl, logFile, stop: () => stopChildren(5000) };
}
