// npm run bench:metrics: what Prometheus metrics cost the web process (issue 54, decision 208). A benchmark, not a
// test: loopback only, bounded in time and count, figures that depend on the machine's load.
// The app is started as bench:load starts it (the built web server and a worker against a fresh database, with test
// servers of its own), once with METRICS=off and once with METRICS=on, side by side on ports of their own (the second
// app's TEST_PG_PORT / TEST_TEMPORAL_PORT / TEST_S3_PORT / E2E_PORT moved by 5), both warmed up and then measured in
// the same seconds, so the rest of the machine's load weighs on both alike (BENCH_METRICS_PAIRED=0: one after the
// other instead, the order alternating). BENCH_METRICS_ROUNDS rounds (default 2). Each app gets 32 signed-in
// creators' status polls (/api/render-progress and /api/script-status, as the render page polls) at
// BENCH_METRICS_RATE requests a second (2,000) for BENCH_METRICS_SECONDS (20); with metrics on, /metrics is also
// scraped every second (Prometheus' default is every 15 s: this is the costlier case). It prints the web process's
// CPU per request and share of a core in each mode, and what metrics cost: (on - off) / off of the CPU per request.
// The goal: at most 3 %. It also measures the recording and a scrape alone, in its own process, and prints their
// share of a status request's CPU.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import { Pool } from "undici";
import { pidListeningOn } from "../tests/support/ports";
import { startBenchApp, stopBenchApp } from "./lib/bench-app";

const RATE = Number(process.env.BENCH_METRICS_RATE ?? 2000);
const SECONDS = Number(process.env.BENCH_METRICS_SECONDS ?? 20);
const ROUNDS = Number(process.env.BENCH_METRICS_ROUNDS ?? 2);
const CREATORS = 32;
const GOAL_PERCENT = 3;

process.once("SIGINT", () => void stopBenchApp().then(() => process.exit(130)));

/** CPU seconds (user + system) of one process, from /proc. */
function cpuOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime and stime, in clock ticks of 10 ms
  return (Number(f[11]) + Number(f[12])) / 100;
}


type Result = { mode: "on" | "off"; requests: number; errors: number; seconds: number; cpu: number; scrapes: number; scrapeBytes: number };

async function measure(mode: "on" | "off"): Promise<Result> {
  process.env.METRICS = mode;
  const app = await startBenchApp();
  try {
    // the web server: the process listening on the app's port (other runs on this machine have web servers too)
    const web = pidListeningOn(Number(new URL(app.baseUrl).port));
    const pool = new Pool(app.baseUrl, { keepAliveTimeout: 30_000, connections: 64 });
    const { prisma } = await import("~/core/db.server");
    const { createSession } = await import("~/server/session.server");
    const cookies: string[] = [];
    for (let i = 0; i < CREATORS; i++) {
      const user = await prisma.user.create({ data: { email: `metrics-${mode}-${i}-${Date.now()}@example.com`, name: `creator ${i}` } });
      const project = await prisma.project.create({
        data: { userId: user.id, title: "Why the sea is salty", topic: "Rivers, rocks and vents", resolution: "shorts", durationSeconds: 60, script: { create: { status: "completed", text: "Rivers carry salt to the sea.", wordCount: 6, targetWords: 150 } } },
      });
      await prisma.user.update({ where: { id: user.id }, data: { currentProjectId: project.id } });
      cookies.push((await createSession(user.id, { secure: false })).split(";")[0]!);
    }
    const get = async (path: string, headers: Record<string, string>) => {
      const response = await pool.request({ path, method: "GET", headers });
      const body = await response.body.arrayBuffer();
      return { status: response.statusCode, bytes: body.byteLength };
    };
    // warm up: the route table, the session cache, JIT
    for (let i = 0; i < 500; i++) await get(i % 2 ? "/api/script-status" : "/api/render-progress", { Cookie: cookies[i % CREATORS]! });
    // side by side (the default): both modes wait here until the parent says go, so they are measured in the same
    // 20 s, under the same load from the rest of the machine
    if (process.env.BENCH_METRICS_BARRIER) await waitForGo();

    let requests = 0;
    let errors = 0;
    let scrapes = 0;
    let scrapeBytes = 0;
    const inFlight = new Set<Promise<void>>();
    const cpu0 = cpuOf(web);
    const started = performance.now();
    const until = started + SECONDS * 1000;
    let nextScrape = started + 1000;
    let sent = 0;
    // paced: every 5 ms, as many requests as keep the rate, at most 256 in flight
    while (performance.now() < until) {
      const due = Math.floor(((performance.now() - started) / 1000) * RATE);
      while (sent < due && inFlight.size < 256) {
        const i = sent++;
        const p: Promise<void> = get(i % 2 ? "/api/script-status" : "/api/render-progress", { Cookie: cookies[i % CREATORS]! }).then(
          (r) => {
            requests++;
            if (r.status !== 200) errors++;
          },
          () => void errors++,
        );
        inFlight.add(p);
        void p.finally(() => inFlight.delete(p));
      }
      if (mode === "on" && performance.now() >= nextScrape) {
        nextScrape += 1000;
        const p = get("/metrics", {}).then((r) => {
          if (r.status !== 200) throw new Error(`/metrics answered ${r.status}`);
          scrapes++;
          scrapeBytes = r.bytes;
        });
        inFlight.add(p);
        void p.finally(() => inFlight.delete(p));
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    await Promise.all(inFlight);
    const seconds = (performance.now() - started) / 1000;
    const cpu = cpuOf(web) - cpu0;
    await pool.close();
    return { mode, requests, errors, seconds, cpu, scrapes, scrapeBytes };
  } finally {
    await stopBenchApp();
  }
}

/**
 * The recording and the scrape measured alone, in this process (no other load in the figure): a status request's
 * route pattern (remembered) and histogram observation, and /metrics' text for a registry holding the web server's
 * series. What a noisy machine cannot hide.
 */
async function measureInProcess(): Promise<{ recordUs: number; scrapeMs: number; scrapeBytes: number }> {
  const { httpRequestDuration, metricsText, startMetrics } = await import("~/core/observability/metrics.server");
  const { routePatterns } = await import("~/core/observability/http-metrics.server");
  startMetrics("web");
  const routes = [
    { id: "root", path: "", module: {} },
    ...["api/render-progress", "api/script-status", "api/storyboard-status", "api/v1/videos", "api/v1/videos/:id", "api/projects/:id", "render", "storyboard", "script", "settings"].map((p) => ({ id: p, parentId: "root", path: p, module: {} })),
  ];
  const patternOf = routePatterns(async () => routes);
  patternOf("/");
  await new Promise((r) => setTimeout(r, 0));
  // every route with a few statuses, as a day of traffic leaves the registry
  for (const r of routes.slice(1)) for (const status of ["200", "304", "401", "404"]) httpRequestDuration.observe({ route: `/${r.path}`, method: "GET", status }, 0.002);
  const N = 200_000;
  const paths = ["/api/render-progress", "/api/script-status"];
  const t0 = process.cpuUsage();
  for (let i = 0; i < N; i++) httpRequestDuration.observe({ route: patternOf(paths[i & 1]!), method: "GET", status: "200" }, 0.0015 + (i % 7) * 0.001);
  const t1 = process.cpuUsage(t0);
  const S = 200;
  let bytes = 0;
  const s0 = process.cpuUsage();
  for (let i = 0; i < S; i++) bytes = (await metricsText()).length;
  const s1 = process.cpuUsage(s0);
  return { recordUs: (t1.user + t1.system) / N, scrapeMs: (s1.user + s1.system) / 1000 / S, scrapeBytes: bytes };
}

/** In a child measured side by side: says it is warmed up, then waits for the parent's "go" on stdin. */
function waitForGo(): Promise<void> {
  console.log("READY");
  return new Promise((resolve) => {
    process.stdin.on("data", (d) => {
      if (String(d).includes("go")) resolve();
    });
  });
}

/** The app's ports moved by `offset`, so two apps (and their test servers) run at once. */
function portsMovedBy(offset: number): Record<string, string> {
  const moved = (name: string, fallback: number) => String(Number(process.env[name] ?? fallback) + offset);
  return { TEST_PG_PORT: moved("TEST_PG_PORT", 54339), TEST_TEMPORAL_PORT: moved("TEST_TEMPORAL_PORT", 7239), TEST_S3_PORT: moved("TEST_S3_PORT", 7339), E2E_PORT: moved("E2E_PORT", 3100) };
}

type Child = { ready: Promise<void>; go: () => void; result: Promise<Result> };

/**
 * One mode in a process of its own (the app modules hold the first database they were given), on ports of its own.
 * With `barrier`, it warms up, then waits for go() before measuring.
 */
function measureInChild(mode: "on" | "off", offset: number, barrier: boolean): Child {
  const env = { ...process.env, ...portsMovedBy(offset), ...(barrier ? { BENCH_METRICS_BARRIER: "1" } : {}) };
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/bench-metrics.ts", `--measure=${mode}`], { stdio: ["pipe", "pipe", "inherit"], env });
  let out = "";
  let markReady: () => void = () => {};
  const ready = new Promise<void>((r) => (markReady = r));
  child.stdout.on("data", (d) => {
    out += d;
    if (out.includes("READY")) markReady();
  });
  const result = new Promise<Result>((resolve, reject) => {
    child.once("exit", (code) => {
      const line = out.split("\n").find((l) => l.startsWith("RESULT "));
      if (code === 0 && line) resolve(JSON.parse(line.slice("RESULT ".length)) as Result);
      else reject(new Error(`the ${mode} run failed (exit ${code}):\n${out.slice(-3000)}`));
    });
  });
  // a child that fails before it is ready must not leave the barrier waiting
  void result.catch(() => markReady());
  return { ready, go: () => child.stdin.end("go\n"), result };
}

function describe(round: number, r: Result): string {
  return (
    `  round ${round + 1}, metrics ${r.mode}: ${r.requests} requests in ${r.seconds.toFixed(1)} s (${(r.requests / r.seconds).toFixed(0)}/s, ${r.errors} errors); web CPU ${r.cpu.toFixed(2)} s = ${((r.cpu / r.seconds) * 100).toFixed(1)} % of a core, ${((r.cpu / r.requests) * 1e6).toFixed(1)} µs/request` +
    (r.mode === "on" ? `; ${r.scrapes} scrapes of ${(r.scrapeBytes / 1024).toFixed(1)} KiB` : "")
  );
}

async function main() {
  const only = process.argv.find((a) => a.startsWith("--measure="))?.slice("--measure=".length);
  if (only === "on" || only === "off") {
    console.log(`RESULT ${JSON.stringify(await measure(only))}`);
    return;
  }
  console.log(`${new Date().toISOString()}, ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  console.log(`status polls at ${RATE}/s for ${SECONDS} s, ${ROUNDS} round(s) of METRICS=off and METRICS=on, ${process.env.BENCH_METRICS_PAIRED === "0" ? "in alternating order" : "side by side"} (with /metrics scraped every second)`);
  const results: Result[] = [];
  // BENCH_METRICS_PAIRED=0: one mode after the other, alternating the order (the machine's other load drifts between
  // them). Otherwise (the default) both at once, each with its own app and test servers on its own ports, measured in
  // the same seconds: what the rest of the machine does weighs on both alike.
  const paired = process.env.BENCH_METRICS_PAIRED !== "0";
  for (let round = 0; round < ROUNDS; round++) {
    const modes = round % 2 ? (["on", "off"] as const) : (["off", "on"] as const);
    if (paired) {
      const { ensureBuild } = await import("./lib/build.mjs");
      ensureBuild(); // once, before two children would both see a stale build
      const children = modes.map((mode, i) => measureInChild(mode, i * 5, true));
      await Promise.all(children.map((c) => c.ready));
      for (const c of children) c.go();
      for (const r of await Promise.all(children.map((c) => c.result))) {
        results.push(r);
        console.log(describe(round, r));
      }
      continue;
    }
    for (const mode of modes) {
      const r = await measureInChild(mode, 0, false).result;
      results.push(r);
      console.log(describe(round, r));
    }
  }
  const perRequest = (mode: "on" | "off") => {
    const rs = results.filter((r) => r.mode === mode);
    return rs.reduce((s, r) => s + r.cpu, 0) / rs.reduce((s, r) => s + r.requests, 0);
  };
  const alone = await measureInProcess();
  // BENCH_METRICS_ROUNDS=0: the figures measured alone, against BENCH_METRICS_REQUEST_US (a status request's CPU
  // measured without metrics in an earlier run; default 450 µs, this machine's quiet figure)
  const off = ROUNDS ? perRequest("off") : Number(process.env.BENCH_METRICS_REQUEST_US ?? 450) / 1e6;
  const share = (scrapeEverySeconds: number) => ((alone.recordUs * RATE + (alone.scrapeMs * 1000) / scrapeEverySeconds) / (off * 1e6 * RATE)) * 100;
  console.log(
    `\nmeasured alone: recording ${alone.recordUs.toFixed(2)} µs of CPU per request, a scrape ${alone.scrapeMs.toFixed(2)} ms (${(alone.scrapeBytes / 1024).toFixed(1)} KiB); ` +
      `at ${RATE} requests/s against ${(off * 1e6).toFixed(0)} µs a request without metrics: ${share(15).toFixed(2)} % of the web process's CPU with Prometheus' 15 s scrapes, ${share(1).toFixed(2)} % with a scrape every second`,
  );
  if (!ROUNDS) return;
  const on = perRequest("on");
  const cost = ((on - off) / off) * 100;
  console.log(
    `\nweb CPU per status request: ${(off * 1e6).toFixed(1)} µs without metrics, ${(on * 1e6).toFixed(1)} µs with them (recording and a scrape a second): ${cost >= 0 ? "+" : ""}${cost.toFixed(1)} % (goal: at most ${GOAL_PERCENT} %) ${cost <= GOAL_PERCENT ? "OK" : "OVER"}`,
  );
}

main().then(
  () => process.exit(0),
  async (e: unknown) => {
    console.error(e);
    await stopBenchApp();
    process.exit(1);
  },
);
