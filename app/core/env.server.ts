// The environment, parsed once with zod. A bad value stops the process with the variable's name.
// Secrets that are absent (session secret, encryption key) are generated once and kept under .data/.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ipaddr from "ipaddr.js";
import { z } from "zod";
import { WORK_CLASSES } from "../../workflows/shared/queue-names";
import { PlatformEnvSchema } from "../lib/platform-env-schema";

const port = z.coerce.number().int().min(1).max(65535);

/** Whether `command` can be run: an executable file when it names a path, else a command found on PATH. */
export function isRunnable(command: string): boolean {
  const candidates = command.includes("/") ? [command] : (process.env.PATH ?? "").split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, command));
  return candidates.some((file) => {
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return fs.statSync(file).isFile();
    } catch {
      return false;
    }
  });
}

/** A program Reelsmith runs (ffmpeg, eSpeak NG, a browser): checked when set, so a wrong path stops the process at start. */
const program = z.string().refine(isRunnable, "must be an executable file, or a command on PATH");

/** A name, key or secret: no spaces in it (a value pasted with a stray space or line break is refused at start). */
const token = z.string().regex(/^\S+$/, "must not contain spaces or line breaks");

/** The exact value DANGEROUSLY_EXPOSE_BUILTIN_SIGNIN needs: a sentence the operator cannot type by accident. */
export const BUILTIN_EXPOSE_CONSENT = "yes-anyone-can-sign-in-as-anyone";

const TRUST_PROXY_NAMES = ["loopback", "linklocal", "uniquelocal"];

/**
 * TRUST_PROXY as Express takes it: a hop count, or a list of addresses, CIDRs and proxy-addr's names; a string
 * saying what is wrong otherwise. "true" is refused: it would take the first X-Forwarded-For address, which any
 * client writes itself.
 */
export function parseTrustProxy(value: string): number | string[] | string {
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) {
    const hops = Number(trimmed);
    return hops <= 32 ? hops : "must be a hop count of at most 32, or proxy addresses";
  }
  const entries = trimmed.split(",").map((e) => e.trim()).filter(Boolean);
  if (entries.length === 0) return "must be a hop count (e.g. 1) or the proxies' addresses/CIDRs, comma-separated";
  for (const entry of entries) {
    if (TRUST_PROXY_NAMES.includes(entry)) continue;
    const [address, bits, extra] = entry.split("/");
    const ipOk = ipaddr.isValid(address!);
    const bitsOk = bits === undefined || (/^\d+$/.test(bits) && ipOk && Number(bits) <= (ipaddr.parse(address!).kind() === "ipv4" ? 32 : 128));
    if (!ipOk || !bitsOk || extra !== undefined) {
      return `"${entry}" is not a hop count, an IP address, a CIDR (10.0.0.0/8) or one of ${TRUST_PROXY_NAMES.join(", ")} ("true" is not accepted: it would trust any X-Forwarded-For a client sends)`;
    }
  }
  return entries;
}

/** The default render slots of a worker process: two when the machine has two cores or more (decision 266). */
export function defaultRenderSlots(cores = os.availableParallelism()): number {
  return cores >= 2 ? 2 : 1;
}

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: port.default(3000),
  /** The public address of this server, e.g. https://reels.example.com; defaults to http://localhost:PORT. */
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default(".data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgresql:// connection URL")
    .default("postgresql://postgres:postgres@127.0.0.1:54329/reelsmith"),
  /** Connections this process's pool may open (decision 130): the web 20, a worker 10 (scripts/start.mjs sets it). */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(200).default(20),
  /**
   * How long one query may go unanswered before it fails (decision 193): a hung PostgreSQL then gets a 503 that
   * retries by itself, not a page that waits for ever. Far above any query of ours (milliseconds).
   */
  DATABASE_QUERY_TIMEOUT_MS: z.coerce.number().int().min(500).max(600_000).default(30_000),
  /** The pool `npm start` gives its worker (the worker's DATABASE_POOL_SIZE; 10 by default, decision 130). */
  WORKER_DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(200).default(10),
  /** The port of the development object store `STORAGE=s3 npm start` runs when S3_ENDPOINT is unset (decision 150). */
  OBJECT_STORE_PORT: port.default(7333),
  /** Web server processes `npm start` runs on PORT (node's cluster, scripts/lib/web-cluster.mjs; decision 133). */
  WEB_PROCESSES: z.coerce.number().int().min(1).max(64).default(1),
  TEMPORAL_ADDRESS: z.string().regex(/^[^:\s]+:\d+$/, "must be host:port").default("127.0.0.1:7233"),
  TEMPORAL_NAMESPACE: token.default("default"),
  TEMPORAL_TASK_QUEUE: token.default("reelsmith"),
  SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  /** 32 bytes as 64 hex characters: the AES-256-GCM key for secrets at rest. */
  ENCRYPTION_KEY: z.string().regex(/^[0-9a-f]{64}$/i, "must be 64 hex characters (32 bytes)").optional(),
  OWNER_EMAIL: z.email().optional(),
  OIDC_ISSUER: z.url().optional(),
  OIDC_CLIENT_ID: token.optional(),
  OIDC_CLIENT_SECRET: token.optional(),
  STRIPE_SECRET_KEY: token.optional(),
  /** The signing secret of the Stripe webhook endpoint (whsec_...); /api/stripe/webhook refuses events without it. */
  STRIPE_WEBHOOK_SECRET: token.optional(),
  /** The lookup key of the 10 USD / month price; created on first checkout when Stripe has none. */
  STRIPE_PRICE_LOOKUP_KEY: z.string().min(1).max(200).default("reelsmith_premium_monthly"),
  /** Where the Stripe API is (tests point it at stripe-mock, e.g. http://127.0.0.1:12111). */
  STRIPE_API_URL: z.url().default("https://api.stripe.com"),
  CHROMIUM_PATH: program.optional(),
  /** The ffmpeg and ffprobe the renderer, the music mix, the voices' tempo and uploaded clips run (Debian's by default). */
  FFMPEG_PATH: program.default("/usr/bin/ffmpeg"),
  FFPROBE_PATH: program.default("/usr/bin/ffprobe"),
  /** eSpeak NG, the offline voices in languages other than English (found on PATH by default). */
  ESPEAK_NG_PATH: program.default("espeak-ng"),
  /** Seconds a neural voice's process waits without speaking before it ends and gives back its model's memory. */
  VOICE_IDLE_CLOSE_SECONDS: z.coerce.number().min(0.1).max(86_400).default(10),
  /** The worker's CPU priority (decision 130): 0 is the web server's, 19 the lowest. */
  WORKER_NICE: z.coerce.number().int().min(0).max(19).default(10),
  /** How many steps below the worker a render's ffmpeg runs (decision 254): light work on the same worker comes first. */
  RENDER_NICE_OFFSET: z.coerce.number().int().min(0).max(19).default(5),
  /** Which renderer renders videos: "auto" (the fast ffmpeg renderer when it supports the video, else Remotion), "fast" or "exact". */
  RENDER_ENGINE: z.enum(["auto", "fast", "exact"]).default("auto"),
  /** Browser tabs the exact (Remotion) renderer captures frames with; see docs/decisions/061. */
  RENDER_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
  /** Cloud provider endpoints (tests point them at the local fakes in tests/fakes). */
  GEMINI_BASE_URL: z.url().default("https://generativelanguage.googleapis.com"),
  GEMINI_MODEL: token.default("gemini-2.5-flash"),
  ELEVENLABS_BASE_URL: z.url().default("https://api.elevenlabs.io"),
  LEONARDO_BASE_URL: z.url().default("https://cloud.leonardo.ai/api/rest/v1"),
  SUNO_BASE_URL: z.url().default("https://api.sunoapi.org"),
  /** Pexels stock photos (/v1/search) and videos (/videos/search). */
  PEXELS_BASE_URL: z.url().default("https://api.pexels.com"),
  /** Runway's developer API, for AI video clips (issue 50). */
  RUNWAY_BASE_URL: z.url().default("https://api.dev.runwayml.com"),
  /** Google's OAuth 2.0 endpoints and the YouTube Data API (tests point them at tests/fakes/youtube.ts). */
  GOOGLE_OAUTH_AUTHORIZE_URL: z.url().default("https://accounts.google.com/o/oauth2/v2/auth"),
  GOOGLE_OAUTH_TOKEN_URL: z.url().default("https://oauth2.googleapis.com/token"),
  GOOGLE_OAUTH_REVOKE_URL: z.url().default("https://oauth2.googleapis.com/revoke"),
  YOUTUBE_API_BASE_URL: z.url().default("https://youtube.googleapis.com/"),
  /** Bytes per resumable-upload request; YouTube wants a multiple of 256 KiB. */
  YOUTUBE_UPLOAD_CHUNK_BYTES: z.coerce
    .number()
    .int()
    .min(262144)
    .refine((n) => n % 262144 === 0, "must be a multiple of 262144 (256 KiB)")
    .default(8 * 1024 * 1024),
  /** The webhook API key configured on the Leonardo key; /api/leonardo-webhook accepts only calls bearing it. */
  LEONARDO_WEBHOOK_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
  /** The interface the web server listens on; loopback while the built-in sign-in is on (see exposure.server). */
  HOST: token.optional(),
  /** Closed sign-up: only these e-mails (comma-separated) and/or e-mails at these domains may sign in. */
  ALLOWED_EMAILS: z
    .string()
    .transform((v) => v.split(",").map((e) => e.trim().toLowerCase()).filter(Boolean))
    .pipe(z.array(z.email()))
    .optional(),
  ALLOWED_DOMAINS: z
    .string()
    .transform((v) => v.split(",").map((d) => d.trim().toLowerCase().replace(/^@/, "")).filter(Boolean))
    .pipe(z.array(z.string().regex(/^[a-z0-9.-]+\.[a-z]{2,}$/, "must be domain names like example.com")))
    .optional(),
  /**
   * The built-in sign-in provider checks nothing (anyone can type any e-mail). It is on only for loopback use
   * unless this is set to exactly "yes-anyone-can-sign-in-as-anyone".
   */
  DANGEROUSLY_EXPOSE_BUILTIN_SIGNIN: z.literal(BUILTIN_EXPOSE_CONSENT, { message: `must be "${BUILTIN_EXPOSE_CONSENT}" or unset` }).optional(),
  /**
   * "true": every creator's webhooks and OpenAI-compatible model server may be at private, loopback and link-local
   * addresses (a receiver or an Ollama on the operator's own network). Unset or "false": only the owner's account
   * may use them; everybody else's are refused (decision 196).
   */
  ALLOW_PRIVATE_TARGETS: z.enum(["true", "false"], { message: 'must be "true" or "false"' }).transform((v) => v === "true").default(false),
  /**
   * The reverse proxies in front of the web server, as Express's "trust proxy" reads them (decision 197): a hop
   * count ("1": one proxy, the client is the last address it adds to X-Forwarded-For) or the proxies' addresses
   * and CIDRs, comma-separated ("10.0.0.2, 172.16.0.0/12", or loopback / linklocal / uniquelocal). Rate limits and
   * logs then use the client's address; unset, forwarded headers are ignored and the socket's address is used.
   */
  TRUST_PROXY: z
    .string()
    .transform((value, ctx) => {
      const parsed = parseTrustProxy(value);
      if (typeof parsed === "string") {
        ctx.addIssue({ code: "custom", message: parsed });
        return z.NEVER;
      }
      return parsed;
    })
    .optional(),
  /** Let the built-in sign-in claim OWNER_EMAIL (off by default: the owner must come from a real provider or be allowed here). */
  BUILTIN_SIGNIN_ALLOWS_OWNER: z.enum(["true", "false"]).transform((v) => v === "true").optional(),
  /** Where media lives (decision 150): "local" (DATA_DIR/media) or "s3" (an S3-compatible bucket, the S3_* variables). */
  STORAGE: z.enum(["local", "s3"]).default("local"),
  /** The S3 API's address, e.g. http://127.0.0.1:7333; unset means AWS S3 itself, in S3_REGION. */
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().regex(/^[a-z0-9-]+$/, "must be a region name like us-east-1").default("us-east-1"),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "must be a bucket name (3-63 lower-case letters, digits, dots, hyphens)")
    .optional(),
  S3_ACCESS_KEY_ID: token.optional(),
  S3_SECRET_ACCESS_KEY: token.optional(),
  /** "true": <endpoint>/<bucket> (self-hosted servers); "false": <bucket>.<endpoint>. Default: true with S3_ENDPOINT, false without. */
  S3_FORCE_PATH_STYLE: z.enum(["true", "false"]).transform((v) => v === "true").optional(),
  /**
   * The largest clip a creator may upload for a scene, in MB (decision 199): streamed to storage as it arrives, so
   * the web process's memory does not grow with it; the worker then converts it.
   */
  CLIP_UPLOAD_MAX_MB: z.coerce.number().int().min(1).max(10_240).default(40),
  /** The base folder of each process's scratch folder (local copies of stored media for ffmpeg and the browser). */
  SCRATCH_DIR: z.string().min(1).optional(),
  /** A process's scratch folder's size cap; least recently used copies not in use are removed past it. */
  SCRATCH_MAX_BYTES: z.coerce.number().int().min(1024 * 1024, "must be at least 1048576 (1 MiB)").default(2 * 1024 ** 3),
  /**
   * The work queues this worker process serves (decision 155), comma-separated: "light" (the workflows, script,
   * storyboard split, metadata, bookkeeping), "heavy" (images, voices, clips, music, thumbnails, YouTube uploads),
   * "render" (renders and their chunks). All three by default.
   */
  WORKER_QUEUES: z
    .string()
    .transform((v) => [...new Set(v.split(",").map((q) => q.trim().toLowerCase()).filter(Boolean))])
    .pipe(z.array(z.enum(WORK_CLASSES, { message: `must name queues out of ${WORK_CLASSES.join(", ")}` })).min(1, "must name at least one queue"))
    .default([...WORK_CLASSES]),
  /** A file the worker touches every 10 s while it polls (a container health check reads its age); unset: none. */
  WORKER_ALIVE_FILE: z.string().min(1).optional(),
  /**
   * Renders (or render chunks) this worker process runs at once. Default: two on a machine with two cores or more,
   * else one. A fast render keeps about one and a half cores busy, so a lone video on one worker renders in two
   * chunks side by side and fills both cores (decision 266).
   */
  WORKER_RENDERS: z.coerce.number().int().min(1).max(16).default(() => defaultRenderSlots()),
  /** Heavy activities (images, voices, clips, music, thumbnails, uploads) it runs at once; default: the core count, at least 2. */
  WORKER_HEAVY_ACTIVITIES: z.coerce.number().int().min(1).max(64).optional(),
  /**
   * A fast render of a video at least this long (seconds) is cut into chunks for the workers polling the render
   * queue; shorter ones render in one piece (decision 156 measured the default). 0 chunks every video.
   */
  RENDER_CHUNKED_MIN_SECONDS: z.coerce.number().min(0).max(3600).default(20),
  /**
   * A fast render longer than this (seconds) is cut into chunks no longer than it even on a single worker, which
   * renders them one after another: its peak memory is then one chunk's, whatever the video's length (a one-piece
   * render's grows with its scenes; decision 140 has the measurements). A video at most 5 % over it stays whole
   * (decision 194). 0 never cuts for length.
   */
  RENDER_CHUNK_MAX_SECONDS: z.coerce.number().min(0).max(36000).default(300),
  /**
   * A fast render longer than this (seconds) is cut at scene boundaries into chunks of about this length, each kept
   * under the key of what it draws, so the project's next render draws again only the chunks whose scenes changed
   * (issue 53, decision 260 measured the default). 0: never cut for that.
   */
  RENDER_REUSE_CHUNK_SECONDS: z.coerce.number().min(0).max(36000).default(60),
  /**
   * Observability (issue 54, decision 208). /metrics on the web server and the worker answers loopback callers
   * without a token; with METRICS_TOKEN set, any caller presenting it as a bearer token (Prometheus on another host).
   */
  /** "off": no /metrics and no recording of requests (bench:metrics measures what "on" costs). */
  METRICS: z.enum(["on", "off"]).default("on"),
  METRICS_TOKEN: z.string().regex(/^[\x21-\x7e]{16,}$/, "must be at least 16 printable characters, no spaces").optional(),
  /** The worker's /metrics port (its own metrics and the Temporal SDK's); on loopback unless METRICS_TOKEN is set. */
  WORKER_METRICS_PORT: port.default(9464),
  /** Where traces go over OTLP/HTTP (e.g. http://collector:4318); unset: no traces leave the process. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ protocol: /^https?$/, error: "must be an http:// or https:// address" }).optional(),
  /** Log lines: "json" (one JSON object a line, the default) or "pretty" (readable; npm start sets it). */
  LOG_FORMAT: z.enum(["json", "pretty"]).default("json"),
}).superRefine((env, ctx) => {
  if (env.STORAGE !== "s3") return;
  for (const name of ["S3_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const) {
    if (!env[name]) ctx.addIssue({ code: "custom", path: [name], message: "is required when STORAGE=s3" });
  }
});

/** Every setting's name (each has its own case in env.server.test.ts: a bad value is refused, named). */
export const SETTING_NAMES = Object.keys(EnvSchema.shape) as (keyof z.infer<typeof EnvSchema>)[];

export type Env = z.infer<typeof EnvSchema> & { SESSION_SECRET: string; ENCRYPTION_KEY: string; PUBLIC_URL: string };

export class EnvError extends Error {}

export function parseEnv(source: Record<string, string | undefined>): z.infer<typeof EnvSchema> {
  // An empty value is an unset one (docker compose's `${VAR:-}` passes ""), so optional variables stay optional.
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value.trim() !== ""));
  const result = EnvSchema.safeParse(present);
  // the TikTok/Instagram settings are read again on each post (a test may change them); a bad one also fails the start
  const platforms = PlatformEnvSchema.safeParse(present);
  const issues = [...(result.error?.issues ?? []), ...(platforms.error?.issues ?? [])];
  if (!result.success || issues.length) {
    const lines = issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new EnvError(`Invalid environment:\n${lines.join("\n")}`);
  }
  return result.data;
}

type GeneratedSecrets = { sessionSecret: string; encryptionKey: string };

/** Reads .data/secrets.json, creating it on first use. Safe when web and worker start together. */
export function loadGeneratedSecrets(dataDir: string): GeneratedSecrets {
  const file = path.join(dataDir, "secrets.json");
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (!fs.existsSync(file)) {
    const fresh: GeneratedSecrets = {
      sessionSecret: crypto.randomBytes(32).toString("hex"),
      encryptionKey: crypto.randomBytes(32).toString("hex"),
    };
    try {
      fs.writeFileSync(file, JSON.stringify(fresh, null, 2), { flag: "wx", mode: 0o600 });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
  }
  reportLoosePermissions(file);
  return JSON.parse(fs.readFileSync(file, "utf8")) as GeneratedSecrets;
}

/** Mode bits that let others than the owner read a file holding secrets; null when it is private. */
export function looseModeOf(file: string): string | null {
  const mode = fs.statSync(file).mode & 0o777;
  return mode & 0o077 ? mode.toString(8).padStart(3, "0") : null;
}

const reported = new Set<string>();
function reportLoosePermissions(file: string) {
  const loose = looseModeOf(file);
  if (!loose || reported.has(file)) return;
  reported.add(file);
  console.warn(`WARNING: ${file} holds the session secret and the encryption key but is readable by others (mode ${loose}). Run: chmod 600 ${file}`);
}

let cached: Env | undefined;

export function getEnv(): Env {
  if (cached) return cached;
  const parsed = parseEnv(process.env);
  const dataDir = path.resolve(parsed.DATA_DIR);
  const needsGenerated = !parsed.SESSION_SECRET || !parsed.ENCRYPTION_KEY;
  const generated = needsGenerated ? loadGeneratedSecrets(dataDir) : undefined;
  cached = {
    ...parsed,
    DATA_DIR: dataDir,
    PUBLIC_URL: (parsed.PUBLIC_URL ?? `http://localhost:${parsed.PORT}`).replace(/\/$/, ""),
    SESSION_SECRET: parsed.SESSION_SECRET ?? generated!.sessionSecret,
    ENCRYPTION_KEY: parsed.ENCRYPTION_KEY ?? generated!.encryptionKey,
  };
  return cached;
}
