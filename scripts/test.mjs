// npm test: the whole suite, with its own set-up. Installs what is missing (npm packages, Chromium and
// ffmpeg, the Temporal CLI), then runs typecheck, lint and db:check, the unit tests (against a real PostgreSQL and
// a real Temporal dev server) and the app's build side by side, then two lanes side by side: the integration files
// (two at a time), and the browser tests against the built app followed by the fleet journey, the security files and
// four integration files (three long ones and a memory measurement).
//   npm test                      everything
//   npm test -- unit integration  only these steps (typecheck lint dbcheck unit integration security e2e fleet)
//   npm test -- integration script  ...and only the test files whose path contains "script"
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { stripVTControlCharacters } from "node:util";
import { ensureDependencies } from "./lib/dependencies.mjs";
import { ensureSupportedNode } from "./lib/node-runtime.mjs";
import { ensureSystemPackages } from "./lib/system-packages.mjs";
import { ensureTestVoice } from "./lib/voices.mjs";
import { DATA_DIR, MACHINE_CACHE, ROOT } from "./lib/paths.mjs";
import { logger } from "./lib/log.mjs";
import { stopChildren } from "./lib/processes.mjs";

const log = logger("test");
// on an older Node, runs this script again under Node 24 from the npm registry (issue 31)
await ensureSupportedNode();
const ALL_STEPS = ["typecheck", "lint", "dbcheck", "unit", "integration", "security", "e2e", "fleet"];
const asked = process.argv.slice(2).filter((a) => ALL_STEPS.includes(a));
const steps = asked.length ? asked : ALL_STEPS;
const fileFilters = process.argv.slice(2).filter((a) => !ALL_STEPS.includes(a));
const timings = [];
/**
 * Integration files at a time in the server lane (issue 55's suite time): most of a file's wall time is waiting (on
 * workflows, timers, provider fakes' latency), so one at a time left a core idle beside the browser lane. Measured on
 * 8 files alone: 303 s one at a time (48 % of the two cores busy), 191 s two at a time (73 %). Each file has its own
 * database, data folder and task queue, so two never meet. TEST_LANES=1 runs one at a time.
 */
const INTEGRATION_AT_ONCE = Math.max(1, Number(process.env.TEST_INTEGRATION_AT_ONCE ?? (process.env.TEST_LANES === "1" ? 1 : 2)));
/**
 * Three integration files go at the end of the browser lane (one at a time) when both lanes run whole, so that the
 * two lanes end about together (decisions 272, 273 and 285: the tail's length moved with render-long's cost). The
 * files never meet: each has its own database, data folder and task queue.
 */
const BROWSER_LANE_INTEGRATION = [
  "tests/integration/render-long.integration.test.ts",
  // back in the tail since render-long's sound stays PCM (decision 285): 74 s alone, 244 s two at a time
  "tests/integration/batches.integration.test.ts",
  // it measures the web process's memory through a 500 MB upload (decision 199: 48-51 MB alone, bound 64): beside
  // another integration file on busy cores it read 73 MB (the first run of decision 272), so it goes where files run
  // one at a time
  "tests/integration/scene-upload-memory.integration.test.ts",
];
const bin = (name) => path.join(ROOT, "node_modules/.bin", name);
// the browser tests' screenshots of every screen (issue 25): one folder per run, printed at the end
const screenshotsDir = path.join(DATA_DIR, "screenshots", new Date().toISOString().replace(/[:.]/g, "-"));
// one folder per run: two runs on one machine (two checkouts, or helpers) do not mix their reports
const reportsDir = path.join(DATA_DIR, "test-reports", String(process.pid));
const workflowBundleDir = path.join(DATA_DIR, "test-bundles", String(process.pid));
// each offline voice's pace, measured by the first test file that needs it and read by the rest (decision 273)
const voiceMeasurementsDir = path.join(DATA_DIR, "test-voice-measurements", String(process.pid));
process.env.TEST_VOICE_MEASUREMENTS_DIR ??= voiceMeasurementsDir;

/** Every test file of this run, slowest first, from the vitest JSON reports: [seconds, project, file]. */
function testFileTimes() {
  if (!fs.existsSync(reportsDir)) return [];
  const files = [];
  for (const report of fs.readdirSync(reportsDir)) {
    try {
      const { testResults = [] } = JSON.parse(fs.readFileSync(path.join(reportsDir, report), "utf8"));
      for (const r of testResults) files.push([(r.endTime - r.startTime) / 1000, report.replace(/\.json$/, ""), path.relative(ROOT, r.name)]);
    } catch {
      // a report cut short by a failed run: the others still count
    }
  }
  return files.sort((a, b) => b[0] - a[0]);
}

/**
 * The failed tests of this run, from the vitest JSON reports, each with the first lines of its error: printed last, so
 * a CI log that keeps only its tail still says what failed (the lanes' outputs interleave above it).
 */
function failedTests() {
  if (!fs.existsSync(reportsDir)) return [];
  const failures = [];
  for (const report of fs.readdirSync(reportsDir)) {
    try {
      const { testResults = [] } = JSON.parse(fs.readFileSync(path.join(reportsDir, report), "utf8"));
      for (const file of testResults) {
        const where = `${report.replace(/\.json$/, "")} ${path.relative(ROOT, file.name)}`;
        const tests = (file.assertionResults ?? []).filter((t) => t.status === "failed");
        for (const t of tests) failures.push({ where, name: t.fullName, message: (t.failureMessages ?? []).join("\n") });
        // a file that failed outside its tests (a hook, an import)
        if (!tests.length && file.status === "failed") failures.push({ where, name: "(the file itself)", message: file.message ?? "" });
      }
    } catch {
      // a report cut short by a failed run
    }
  }
  return failures;
}

/** Runs a step; `nice` lowers its CPU priority (and its children's: they inherit it) by that much. */
function run(name, command, args, env = {}, { nice = 0 } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    log.info(`── ${name}`);
    const [cmd, argv] = nice ? ["nice", ["-n", String(nice), command, ...args]] : [command, args];
    const child = spawn(cmd, argv, { cwd: ROOT, stdio: "inherit", env: { ...process.env, ...env } });
    child.on("exit", (code, signal) => {
      const seconds = (performance.now() - started) / 1000;
      timings.push([name, seconds]);
      if (code === 0) resolve();
      else reject(new Error(`${name} failed (${signal ?? `exit code ${code}`})`));
    });
  });
}

/** Ports a run of its own uses beside this run's servers: the same variables, moved by `offset`. */
function portsMovedBy(offset) {
  const moved = (name, fallback) => String(Number(process.env[name] ?? fallback) + offset);
  return { TEST_PG_PORT: moved("TEST_PG_PORT", 54339), TEST_TEMPORAL_PORT: moved("TEST_TEMPORAL_PORT", 7239), TEST_S3_PORT: moved("TEST_S3_PORT", 7339), E2E_PORT: moved("E2E_PORT", 3100) };
}

/**
 * The whole journey on a fleet (issue 30): media in the test bucket and two worker processes sharing no folder with
 * each other or the web (tests/e2e/fleet-journey.e2e.test.ts skips itself on the ordinary e2e app). Within a bigger
 * run it is a run of its own, with its own servers and app on ports moved by 5, so it can go beside the server lane.
 */
async function fleetJourney() {
  if (steps.length > 1) {
    await run("fleet", process.execPath, [path.join(ROOT, "scripts/test.mjs"), "fleet"], { E2E_STORAGE: "s3", E2E_WORKERS: "2", ...portsMovedBy(5) });
    return;
  }
  process.env.E2E_STORAGE ??= "s3";
  process.env.E2E_WORKERS ??= "2";
  const { startAppForTests } = await import("./lib/test-app.mjs");
  app = await startAppForTests(servers.env);
  await run("fleet journey", bin("vitest"), ["run", "--project", "e2e", "--reporter=default", "--reporter=json", `--outputFile.json=${path.join(reportsDir, "fleet.json")}`, "tests/e2e/fleet-journey.e2e.test.ts"], {
    ...servers.env,
    NODE_ENV: "test",
    SCREENSHOTS_DIR: screenshotsDir,
  }).catch(async (e) => {
    log.error(`app logs are in ${path.relative(ROOT, app.logFile)}`);
    throw e;
  });
}

let servers;
let app;
async function cleanup() {
  await app?.stop().catch(() => {});
  await servers?.stop().catch(() => {});
  await stopChildren(5000);
  fs.rmSync(workflowBundleDir, { recursive: true, force: true });
  fs.rmSync(voiceMeasurementsDir, { recursive: true, force: true });
}
// Ctrl-C, or CI's timeout stopping the job: the test Postgres, Temporal and app are stopped, not left running
process.on("SIGINT", () => cleanup().then(() => process.exit(130)));
process.on("SIGTERM", () => cleanup().then(() => process.exit(143)));

const started = performance.now();
let failed = null;
try {
  ensureDependencies();
  // the unit files run eSpeak NG, ffmpeg and Apertium too: `npm test -- unit` alone on a fresh machine needs them
  if (["unit", "e2e", "fleet", "integration", "security"].some((s) => steps.includes(s))) ensureSystemPackages();
  const needsServers = steps.some((s) => ["unit", "integration", "security", "e2e", "fleet"].includes(s));
  // the Go programs the test servers run are built first, alone, never beside a starting server (issue 47)
  if (needsServers) {
    const t0 = performance.now();
    const { ensureTestServerTools } = await import("./lib/test-servers.mjs");
    await ensureTestServerTools();
    const seconds = (performance.now() - t0) / 1000;
    if (seconds > 1) timings.push(["server tools", seconds]);
  }
  // the neural voice the tests speak with, once per machine (decision 205)
  await ensureTestVoice();

  const checks = async () => {
    if (steps.includes("typecheck")) await run("typecheck", bin("tsc"), ["--noEmit"]);
    // ESLint's cache in the machine's cache, by content (a fresh clone's files all have new times): a run lints only
    // the files changed since the last one (12 s of a core down to about 1 s when little changed)
    if (steps.includes("lint")) {
      fs.mkdirSync(MACHINE_CACHE, { recursive: true });
      await run("lint", bin("eslint"), [".", "--max-warnings", "0", "--cache", "--cache-strategy", "content", "--cache-location", path.join(MACHINE_CACHE, "eslint-cache")]);
    }
    if (steps.includes("dbcheck")) await run("db:check", process.execPath, ["scripts/db.mjs", "check"]);
  };
  const startServers = async () => {
    if (!needsServers) return;
    const t0 = performance.now();
    const { startTestServers } = await import("./lib/test-servers.mjs");
    servers = await startTestServers();
    timings.push(["servers", (performance.now() - t0) / 1000]);
    log.info(`test servers up: PostgreSQL ${servers.env.TEST_PG_ADMIN_URL.replace(/:[^:@]+@/, ":***@")}, Temporal ${servers.env.TEMPORAL_ADDRESS}`);
  };
  // each project also writes a JSON report, from which the slowest test files are printed at the end (issue 34)
  // `name` names the step and its report; `args` are the file filters; `exclude` files to leave out
  // `atOnce` files at a time (the project's config allows more than one only for integration)
  const vitest = (project, options, { name = project, args = fileFilters, atOnce = 1, exclude = [] } = {}) =>
    run(
      name,
      bin("vitest"),
      ["run", "--project", project, ...(atOnce > 1 ? [`--maxWorkers=${atOnce}`] : []), "--reporter=default", "--reporter=json", `--outputFile.json=${path.join(reportsDir, `${name}.json`)}`, ...args],
      { ...servers.env, NODE_ENV: "test", SCREENSHOTS_DIR: screenshotsDir, TEST_INTEGRATION_AT_ONCE: String(atOnce), TEST_EXCLUDE: exclude.join(",") },
      options,
    );
  // built once before the lanes: the browser tests serve it and the drills start it (tests/support/drill-stack.ts); in
  // a process of its own, so that it goes beside the checks and the unit tests (ensureBuild waits synchronously)
  const build = async () => {
    if (!["e2e", "fleet", "integration"].some((s) => steps.includes(s))) return;
    const buildModule = pathToFileURL(path.join(ROOT, "scripts/lib/build.mjs")).href;
    await run("build", process.execPath, ["--input-type=module", "-e", `(await import(${JSON.stringify(buildModule)})).ensureBuild({ server: true });`]);
  };
  // Before the lanes, three things at once (issue 55): the checks (typecheck, lint, db:check: one core, 41 s on the
  // clean run), the unit tests against the test servers (vitest gives them one worker on two cores: 62 s) and the
  // build (15 s). One after the other they took 121 s of the suite, with a core idle most of it. Each of the three
  // runs whole, and a failure in any of them stops the run before the lanes, as before. TEST_LANES=1 keeps them in
  // turn (one output at a time).
  // the workflows bundled once for every test worker of this run (tests/support/temporal.ts testWorkflowBundle), and
  // the worker process some tests start compiled once (tests/support/worker-process.ts)
  const bundleWorkflows = async () => {
    if (!needsServers) return;
    const t0 = performance.now();
    const { writeWorkflowBundle } = await import("./lib/workflow-bundle.mjs");
    await writeWorkflowBundle("workflows/index.ts", path.join(workflowBundleDir, "workflows.js"));
    await writeWorkflowBundle("workflows/render.ts", path.join(workflowBundleDir, "render.js"));
    // and the worker the kill, restart and fleet tests start in processes of their own (tests/support/worker-process.ts)
    const { writeTestWorkerBundle } = await import("./lib/test-worker-bundle.mjs");
    await writeTestWorkerBundle(workflowBundleDir);
    process.env.TEST_WORKFLOW_BUNDLE_DIR = workflowBundleDir;
    timings.push(["bundles", (performance.now() - t0) / 1000]);
  };
  const unit = async () => {
    await Promise.all([startServers(), bundleWorkflows()]);
    // two at a time: the checks end well before the unit tests, and vitest's default (one worker on two cores)
    // left the second core idle for the rest of them
    if (steps.includes("unit")) await vitest("unit", {}, { atOnce: 2 });
  };
  if (process.env.TEST_LANES === "1") {
    await checks();
    await unit();
    await build();
  } else {
    const results = await Promise.allSettled([checks(), unit(), build()]);
    const failures = results.flatMap((r) => (r.status === "rejected" ? [r.reason?.message ?? String(r.reason)] : []));
    if (failures.length) throw new Error(failures.join("; "));
  }
  // Two lanes at once (issue 34's test time): the integration files, and the browser tests (then the fleet journey
  // and the security files). Each integration file has its own database and task queue, the e2e app its
  // own, and the fleet journey its own servers on other ports, so the lanes never meet; run one after the other,
  // the two cores sat half idle while files waited on workflows and pages. TEST_LANES=1 runs them in turn (to read
  // one lane's output without the other's, or on a one-core machine).
  // Side by side, the server lane runs at the niceness the app's worker has (WORKER_NICE, 10 by default): at the
  // default 0 its renders took nine tenths of the CPU from the browser lane's worker, and a 20-scene Generate All
  // ran past its nine minutes. Equal niceness shares the cores evenly; the app's web server stays ahead of both.
  const laneNice = process.env.TEST_LANES === "1" ? 0 : Number(process.env.WORKER_NICE ?? 10);
  // Every worker process the tests start from here on (the browser lane's app, the drills, the kill tests) leads a
  // session of its own, and at niceness 10 it would lower its session's scheduling group (decision 130, second round)
  // to a tenth of the CPU against the other lane's session. In a test run the workers share the machine with the
  // lanes, not with creators: at 0 every group shares the cores evenly, as before that decision.
  process.env.WORKER_NICE = "0";
  // One render slot per test worker unless a test asks for more (decision 266): two lanes already share the two
  // cores, and the tests' progress texts and timings were written for renders taken one at a time; the two-slot
  // default is covered by render-chunks-one-worker and measured by the benchmarks, which run the default.
  process.env.WORKER_RENDERS ??= "1";
  // The server lane: the integration files, two at a time. The browser lane: the browser tests, the fleet journey, the
  // security files and the four integration files above.
  const splitIntegration = process.env.TEST_LANES !== "1" && !fileFilters.length && steps.includes("integration") && (steps.includes("e2e") || steps.includes("fleet"));
  const serverLane = async () => {
    if (steps.includes("integration")) await vitest("integration", { nice: laneNice }, { atOnce: INTEGRATION_AT_ONCE, exclude: splitIntegration ? BROWSER_LANE_INTEGRATION : [] });
  };
  const browserLane = async () => {
    if (steps.includes("e2e")) {
      const { startAppForTests } = await import("./lib/test-app.mjs");
      app = await startAppForTests(servers.env);
      await vitest("e2e").catch(async (e) => {
        log.error(`app logs are in ${path.relative(ROOT, app.logFile)}`);
        throw e;
      });
    }
    if (steps.includes("fleet")) await fleetJourney();
    // two files at a time: a third of the step was each file's set-up (its database, its worker), waited in turn
    if (steps.includes("security")) await vitest("security", { nice: laneNice }, { atOnce: 2 });
    if (splitIntegration) await vitest("integration", { nice: laneNice }, { name: "integration-tail", args: BROWSER_LANE_INTEGRATION });
  };
  if (process.env.TEST_LANES === "1") {
    await serverLane();
    await browserLane();
  } else {
    const results = await Promise.allSettled([serverLane(), browserLane()]);
    const failures = results.flatMap((r) => (r.status === "rejected" ? [r.reason?.message ?? String(r.reason)] : []));
    if (failures.length) throw new Error(failures.join("; "));
  }
} catch (e) {
  failed = e;
} finally {
  await cleanup();
}

const total = (performance.now() - started) / 1000;
fs.mkdirSync(DATA_DIR, { recursive: true });
log.info("timings:");
for (const [name, seconds] of timings) log.info(`  ${name.padEnd(12)} ${seconds.toFixed(1)} s`);
log.info(`  ${"total".padEnd(12)} ${total.toFixed(1)} s`);
// every file's time, kept after the reports go: where the next cut of the suite's time should look
const timingsFile = path.join(DATA_DIR, "test-timings.txt");
const fileTimes = testFileTimes();
fs.writeFileSync(timingsFile, fileTimes.map(([seconds, project, file]) => `${seconds.toFixed(1).padStart(7)} s  ${project.padEnd(16)} ${file}`).join("\n") + "\n");
const slowest = fileTimes.slice(0, 10);
if (slowest.length) {
  log.info(`slowest test files (all of them: ${path.relative(ROOT, timingsFile)}):`);
  for (const [seconds, project, file] of slowest) log.info(`  ${seconds.toFixed(1).padStart(7)} s  ${project.padEnd(11)} ${file}`);
}
const failures = failedTests();
fs.rmSync(reportsDir, { recursive: true, force: true });
if (fs.existsSync(screenshotsDir)) log.info(`screenshots (${fs.readdirSync(screenshotsDir).length}): ${path.relative(ROOT, screenshotsDir)}`);
if (failed) {
  for (const f of failures) {
    log.error(`FAILED ${f.where} > ${f.name}`);
    // ANSI colours and library frames out, and only the first lines: the cause, not the whole stack
    const lines = stripVTControlCharacters(f.message).split("\n").filter((line) => !/node_modules|node:internal|new Promise/.test(line));
    for (const line of lines.slice(0, 10)) log.error(`    ${line}`);
  }
  log.error(failed.message ?? failed);
  process.exit(1);
}
log.info("all tests passed");
process.exit(0);
