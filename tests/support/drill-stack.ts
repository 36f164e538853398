// The whole of Reelsmith started the way `npm start` starts it, for the drills (issue 31, decision 182): an
// embedded PostgreSQL and a Temporal dev server (with its SQLite file), both supervised, the built web server and
// the worker, both supervised (scripts/lib/database.mjs, temporal-server.mjs, processes.mjs: the same code
// start.mjs runs), on spare ports with a data folder of their own, and the YouTube fake in this process. This
// process is pointed at the same database, media folder and task queue, for seeding and for reading results;
// the stages themselves are started over HTTP, as the pages start them. kill(part) sends SIGKILL to the real
// process that serves that part.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { compiledEntry, ensureBuild } from "../../scripts/lib/build.mjs";
import { openDatabase } from "../../scripts/lib/database.mjs";
import { applyMigrations } from "../../scripts/lib/migrations.mjs";
import { ROOT } from "../../scripts/lib/paths.mjs";
import { stopChildren, superviseChild, waitForHttp } from "../../scripts/lib/processes.mjs";
import { startTemporalDevServer } from "../../scripts/lib/temporal-server.mjs";
import { FakeYoutube } from "../fakes/youtube";
import { freePort, pidListeningOn } from "./ports";
import { seedVoiceMeasurements } from "./voice-measurements";

export const PARTS = ["web", "worker", "postgres", "temporal"] as const;
export type Part = (typeof PARTS)[number];

type Supervised = { child: { pid?: number } | null };

export type DrillStack = {
  baseUrl: string;
  work: string;
  dataDir: string;
  /** The worker's and web server's TMPDIR: render and mix work folders go here, so leftovers can be counted. */
  tmpDir: string;
  youtube: FakeYoutube;
  logFile: string;
  /** SIGKILL to the process serving `part` (the worker with its process group: ffmpeg and the browser); its pid. */
  kill(part: Part): number;
  /** The pid serving `part` now (throws while it is down). */
  pidOf(part: Part): number;
  /** The workers' browsers (their profile is in this stack's TMPDIR), with their parent: 1 once their worker is gone. */
  browsers(): { pid: number; parent: number }[];
  stop(): Promise<void>;
};

/**
 * Starts the stack and points this process's environment (DATABASE_URL, DATA_DIR, TEMPORAL_ADDRESS,
 * TEMPORAL_TASK_QUEUE) at it: import app modules only after this resolves.
 */
/** `env`: more settings for the web and the worker; a function is asked once the servers listen (for ports it picks). */
export async function startDrillStack(options: { log?: (line: string) => void; env?: Record<string, string> | (() => Promise<Record<string, string>>) } = {}): Promise<DrillStack> {
  const log = options.log ?? (() => {});
  ensureBuild({ server: true }); // the web server and the worker run the production build, as npm start does
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-drills-"));
  fs.chmodSync(work, 0o755); // embedded PostgreSQL refuses to run as root: its data folder must be reachable
  const dataDir = path.join(work, "data");
  const tmpDir = path.join(work, "tmp");
  fs.mkdirSync(path.join(dataDir, "logs"), { recursive: true });
  seedVoiceMeasurements(dataDir);
  fs.mkdirSync(tmpDir, { recursive: true });
  // the parts' output, kept after the run (the data folder is not)
  const logFile = path.join(ROOT, ".data/logs", `drills-${new Date().toISOString().replace(/[:.]/g, "-")}.log`);
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const out = fs.createWriteStream(logFile, { flags: "a" });

  const [pgPort, temporalPort] = [await freePort(), await freePort()];
  const before = { DATABASE_URL: process.env.DATABASE_URL, DATA_DIR: process.env.DATA_DIR, TEMPORAL_ADDRESS: process.env.TEMPORAL_ADDRESS, TEMPORAL_TASK_QUEUE: process.env.TEMPORAL_TASK_QUEUE };
  delete process.env.DATABASE_URL; // openDatabase starts an embedded server only when no DATABASE_URL is given
  let database: Awaited<ReturnType<typeof openDatabase>>;
  try {
    // (options from a variable: the .mjs's inferred type does not list the optional onLog)
    const pgOptions = { supervise: true, dataDir: path.join(dataDir, "postgres"), port: pgPort, onLog: (line: string) => out.write(`[postgres] ${line}`) };
    database = await openDatabase(pgOptions);
  } catch (e) {
    process.env.DATABASE_URL = before.DATABASE_URL;
    throw e;
  }
  // the browsers of this stack's workers: their profile is in its TMPDIR
  const browsers = () => {
    const found: { pid: number; parent: number }[] = [];
    for (const pid of fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
      try {
        const args = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
        // the browser itself, not its renderer and utility processes (--type=...)
        if (!args.some((a) => a.startsWith(`--user-data-dir=${tmpDir}`)) || args.some((a) => a.startsWith("--type="))) continue;
        const parent = Number(fs.readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /, "").split(" ")[1]);
        found.push({ pid: Number(pid), parent });
      } catch {
        // a process that ended meanwhile
      }
    }
    return found;
  };
  let youtube: FakeYoutube | undefined;
  // everything the stack started, stopped; also when its start fails part way, so no Temporal or worker outlives it
  const release = async () => {
    await stopChildren(5000);
    // a browser a killed worker left behind (a drill reports it) must not outlive the run
    for (const { pid } of browsers()) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    await database.stop().catch(() => {});
    await youtube?.stop();
    out.end();
    for (const [key, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    fs.rmSync(work, { recursive: true, force: true });
  };
  try {
    return await startParts();
  } catch (e) {
    await release().catch(() => {});
    throw e;
  }

  async function startParts(): Promise<DrillStack> {
    await applyMigrations(database.url);
    const temporal = await startTemporalDevServer({ port: temporalPort, headless: true, dbFile: path.join(dataDir, "temporal/temporal.db"), name: "temporal", supervise: true });
    const fake = (youtube = new FakeYoutube());
    await fake.start();

    // chosen once PostgreSQL and Temporal listen: the dev server binds its HTTP API and /metrics to random free
    // ports, and one of them once took a web port chosen before it (CI, stop 70: /healthz answered 404 for 240 s)
    const webPort = await freePort();
    const extraEnv = typeof options.env === "function" ? await options.env() : options.env;
    const baseUrl = `http://127.0.0.1:${webPort}`;
    const env = {
      DATABASE_URL: database.url,
      TEMPORAL_ADDRESS: temporal.address,
      TEMPORAL_TASK_QUEUE: "reelsmith-drills",
      PORT: String(webPort),
      PUBLIC_URL: baseUrl,
      NODE_ENV: "production",
      DATA_DIR: dataDir,
      TMPDIR: tmpDir,
      YOUTUBE_UPLOAD_CHUNK_BYTES: String(256 * 1024),
      ...fake.env(),
      ...extraEnv,
    };
    const collect = (name: string) => (child: { stdout: NodeJS.ReadableStream | null; stderr: NodeJS.ReadableStream | null }) => {
      child.stdout?.on("data", (d) => out.write(`[${name}] ${d}`));
      child.stderr?.on("data", (d) => out.write(`[${name}] ${d}`));
    };
    const webOptions = { env, quiet: true, onStart: collect("web") };
    const web: Supervised = superviseChild("web", process.execPath, compiledEntry("server"), webOptions);
    // the worker's pool as npm start sizes it (decision 130)
    const workerOptions = { env: { ...env, DATABASE_POOL_SIZE: "10" }, quiet: true, onStart: collect("worker") };
    const worker: Supervised = superviseChild("worker", process.execPath, compiledEntry("worker"), workerOptions);
    // ready once the web answers and sees the database, Temporal and a polling worker (as npm start waits)
    await waitForHttp(`${baseUrl}/healthz`, { timeoutMs: 240_000 });
    log(`drill stack up: web ${baseUrl}, PostgreSQL :${pgPort}, Temporal ${temporal.address}, data in ${dataDir}`);

    Object.assign(process.env, { DATABASE_URL: database.url, DATA_DIR: dataDir, TEMPORAL_ADDRESS: temporal.address, TEMPORAL_TASK_QUEUE: env.TEMPORAL_TASK_QUEUE });

    const pidOf = (part: Part): number => {
      if (part === "postgres") return pidListeningOn(pgPort);
      if (part === "temporal") return pidListeningOn(temporalPort);
      const pid = (part === "web" ? web : worker).child?.pid;
      if (!pid) throw new Error(`the ${part} is not running`);
      return pid;
    };
    return {
      baseUrl,
      work,
      dataDir,
      tmpDir,
      youtube: fake,
      logFile,
      pidOf,
      browsers,
      kill(part) {
        const pid = pidOf(part);
        // the worker's group: what it started (ffmpeg, the headless browser) dies with it, as in a container
        process.kill(part === "worker" ? -pid : pid, "SIGKILL");
        log(`SIGKILL ${part} (pid ${pid})`);
        return pid;
      },
      stop: release,
    };
  }
}
