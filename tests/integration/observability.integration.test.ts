// Issue 54's "done when", on the whole stack as `npm start` runs it (the built web server and the worker in processes
// of their own, supervised, with their embedded PostgreSQL and Temporal): the real Prometheus (Debian's package,
// /usr/bin/prometheus, our own configuration, a temporary storage folder and a free port) scrapes the web server's
// and the worker's /metrics every second while a program makes a 10 s Short through /api/v1 (the make-video
// workflow, offline providers) and one render fails on purpose. Queried through Prometheus' HTTP API, the figures
// match the run as Temporal's histories and the test's own requests tell it: the render's duration, the activity
// failures (one render counted once, one failure counted once), the requests per route and the HTTP p99. The
// traces, sent over OTLP/HTTP to a receiver in this test, link the web request to the render activity span by span;
// the worker's log lines are JSON with the workflow, activity and trace ids.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Client, Connection } from "@temporalio/client";
import { tsToMs } from "@temporalio/common/lib/time";
import type { temporal } from "@temporalio/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDrillStack, type DrillStack } from "../support/drill-stack";
import { freePort } from "../support/ports";

const PROMETHEUS = "/usr/bin/prometheus";

type Span = { traceId: string; spanId: string; parentSpanId: string; name: string; service: string };

/** OTLP/HTTP JSON ids are hex; base64 (the protobuf JSON mapping) is turned into hex too. */
const hexId = (id: string | undefined) => (!id ? "" : /^[0-9a-f]+$/i.test(id) ? id.toLowerCase() : Buffer.from(id, "base64").toString("hex"));

/** A local OTLP/HTTP receiver: every span sent to /v1/traces, flattened. */
async function otlpReceiver() {
  const spans: Span[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      try {
        const parsed = JSON.parse(body) as {
          resourceSpans?: { resource?: { attributes?: { key: string; value: { stringValue?: string } }[] }; scopeSpans?: { spans?: { traceId: string; spanId: string; parentSpanId?: string; name: string }[] }[] }[];
        };
        for (const rs of parsed.resourceSpans ?? []) {
          const service = rs.resource?.attributes?.find((a) => a.key === "service.name")?.value.stringValue ?? "";
          for (const ss of rs.scopeSpans ?? []) {
            for (const s of ss.spans ?? []) spans.push({ traceId: hexId(s.traceId), spanId: hexId(s.spanId), parentSpanId: hexId(s.parentSpanId), name: s.name, service });
          }
        }
        res.writeHead(200, { "Content-Type": "application/json" }).end("{}");
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, close: () => new Promise((r) => server.close(r)) };
}

let stack: DrillStack;
let receiver: Awaited<ReturnType<typeof otlpReceiver>>;
let prometheus: ChildProcess | undefined;
let promUrl: string;
let promDir: string;
let workerMetricsPort: number;
let temporalClient: Client;

async function promQuery(query: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]> {
  const response = await fetch(`${promUrl}/api/v1/query?query=${encodeURIComponent(query)}`);
  const body = (await response.json()) as { status: string; data: { result: { metric: Record<string, string>; value: [number, string] }[] }; error?: string };
  if (body.status !== "success") throw new Error(`Prometheus refused ${query}: ${body.error}`);
  return body.data.result;
}
const promNumber = async (query: string) => Number((await promQuery(query))[0]?.value[1] ?? NaN);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  expect(fs.existsSync(PROMETHEUS), "Debian's prometheus package (apt-get install prometheus)").toBe(true);
  receiver = await otlpReceiver();
  stack = await startDrillStack({
    log: (line) => console.log(line),
    // the worker's port picked once the stack's Temporal has taken its random ones
    env: async () => {
      workerMetricsPort = await freePort();
      return { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, WORKER_METRICS_PORT: String(workerMetricsPort), LOG_FORMAT: "json" };
    },
  });
  temporalClient = new Client({ connection: await Connection.connect({ address: process.env.TEMPORAL_ADDRESS! }) });

  // the real Prometheus, scraping both every second
  promDir = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-prometheus-"));
  const promPort = await freePort();
  promUrl = `http://127.0.0.1:${promPort}`;
  const web = new URL(stack.baseUrl);
  fs.writeFileSync(
    path.join(promDir, "prometheus.yml"),
    [
      "global:",
      "  scrape_interval: 1s",
      "  scrape_timeout: 1s",
      "scrape_configs:",
      "  - job_name: reelsmith-web",
      "    static_configs:",
      `      - targets: ["${web.host}"]`,
      "  - job_name: reelsmith-worker",
      "    static_configs:",
      `      - targets: ["127.0.0.1:${workerMetricsPort}"]`,
      "",
    ].join("\n"),
  );
  prometheus = spawn(PROMETHEUS, [`--config.file=${path.join(promDir, "prometheus.yml")}`, `--storage.tsdb.path=${path.join(promDir, "data")}`, `--web.listen-address=127.0.0.1:${promPort}`], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let promLog = "";
  prometheus.stderr!.on("data", (d) => (promLog = (promLog + d).slice(-4000)));
  for (let i = 0; ; i++) {
    const ready = await fetch(`${promUrl}/-/ready`).then((r) => r.ok, () => false);
    if (ready) break;
    if (i > 120 || prometheus.exitCode !== null) throw new Error(`Prometheus did not start:\n${promLog}`);
    await sleep(500);
  }
  // both targets up before the run starts
  for (let i = 0; ; i++) {
    const up = await promQuery("up");
    if (up.length === 2 && up.every((r) => r.value[1] === "1")) break;
    if (i > 60) throw new Error(`targets not up: ${JSON.stringify(up)}`);
    await sleep(500);
  }
}, 400_000);

afterAll(async () => {
  prometheus?.kill("SIGTERM");
  await receiver?.close();
  await stack?.stop();
  if (promDir) fs.rmSync(promDir, { recursive: true, force: true });
}, 60_000);

/** Start and end (ms) of each activity attempt that finished, by activity type, from a workflow's history. */
function activityRuns(history: temporal.api.history.v1.IHistory) {
  const events = history.events ?? [];
  const scheduled = new Map<string, string>();
  const started = new Map<string, { at: number; attempt: number }>();
  const runs: { type: string; startedMs: number; endedMs: number; outcome: "completed" | "failed" | "timedOut"; attempt: number; started: boolean }[] = [];
  for (const e of events) {
    const id = String(e.eventId);
    if (e.activityTaskScheduledEventAttributes) scheduled.set(id, e.activityTaskScheduledEventAttributes.activityType?.name ?? "");
    if (e.activityTaskStartedEventAttributes) started.set(String(e.activityTaskStartedEventAttributes.scheduledEventId), { at: tsToMs(e.eventTime), attempt: e.activityTaskStartedEventAttributes.attempt ?? 1 });
    const end = e.activityTaskCompletedEventAttributes ?? e.activityTaskFailedEventAttributes ?? e.activityTaskTimedOutEventAttributes;
    if (end) {
      const key = String(end.scheduledEventId);
      const start = started.get(key);
      const outcome = e.activityTaskCompletedEventAttributes ? "completed" : e.activityTaskFailedEventAttributes ? "failed" : "timedOut";
      runs.push({ type: scheduled.get(key) ?? "", startedMs: start?.at ?? 0, endedMs: tsToMs(e.eventTime), outcome, attempt: start?.attempt ?? 1, started: Boolean(start) });
    }
  }
  return runs;
}

describe("observability: Prometheus, traces and logs on the running stack (issue 54)", () => {
  it("a make-video run and a failed render: Prometheus' figures match the run, the trace links the web request to the render activity", { timeout: 900_000 }, async () => {
    const { prisma } = await import("~/core/db.server");
    const { createApiToken } = await import("~/server/api-tokens.server");
    const { makeVideoWorkflowId } = await import("../../workflows/shared/make-video");
    const owner = await prisma.user.create({ data: { email: `observability-${Date.now()}@example.com`, name: "Operator" } });
    const { token } = await createApiToken(owner.id, { name: "observability", scope: "full", expiresInDays: 7 });
    const api = (route: string, init: RequestInit = {}) =>
      fetch(`${stack.baseUrl}${route}`, { ...init, headers: { Authorization: `Bearer ${token}`, ...(init.body ? { "Content-Type": "application/json" } : {}), ...init.headers } });

    // one render that fails at once: its render row does not exist (an input error, never retried)
    const failing = await temporalClient.workflow.start("renderVideoWorkflow", {
      taskQueue: process.env.TEMPORAL_TASK_QUEUE!,
      workflowId: `observability-missing-render-${Date.now()}`,
      args: [{ renderId: "missing-render", userId: owner.id, projectId: "missing-project", width: 720, height: 1280, captions: false }],
    });
    await failing.result().catch(() => {});

    // the video, made the way a program makes it
    const created = await api("/api/v1/videos", {
      method: "POST",
      body: JSON.stringify({ title: "Why octopuses have three hearts", topic: "How an octopus pumps blood through gills and body", format: "9:16", duration: 10, captions: true, quality: 720 }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const pollMs: number[] = [];
    let video: { status: string; projectId: string | null; error: string | null } = { status: "running", projectId: null, error: null };
    const deadline = Date.now() + 10 * 60_000;
    while (video.status === "running" && Date.now() < deadline) {
      await sleep(1000);
      const t0 = performance.now();
      const read = await api(`/api/v1/videos/${id}`);
      video = (await read.json()) as typeof video;
      pollMs.push(performance.now() - t0);
      expect(read.status).toBe(200);
    }
    expect(video.error).toBeNull();
    expect(video.status).toBe("completed");

    // Temporal's account of the run: every workflow of this stack, its activities' attempts
    const histories: temporal.api.history.v1.IHistory[] = [];
    for await (const execution of temporalClient.workflow.list()) {
      histories.push(await temporalClient.workflow.getHandle(execution.workflowId, execution.runId).fetchHistory());
    }
    const runs = histories.flatMap(activityRuns);
    // failed attempts: each retried attempt before the last, and a last one that a worker ran and that failed or timed
    // out (one that timed out before any worker took it, as a health check's may while the worker starts, never ran)
    const failedAttempts = runs.reduce((n, r) => n + (r.attempt - 1) + (r.outcome !== "completed" && r.started ? 1 : 0), 0);
    const notCompleted = runs.filter((r) => r.outcome !== "completed" || r.attempt > 1);
    const renderRuns = runs.filter((r) => /^renderVideo(Fast|Exact)$/.test(r.type) && r.outcome === "completed");
    expect(renderRuns).toHaveLength(1);
    const renderSeconds = (renderRuns[0]!.endedMs - renderRuns[0]!.startedMs) / 1000;
    const makeVideoHistory = await temporalClient.workflow.getHandle(makeVideoWorkflowId(video.projectId!)).fetchHistory();
    expect(makeVideoHistory.events?.length).toBeGreaterThan(0);

    // two more scrapes, so Prometheus holds the final figures
    await sleep(3000);

    // the render: counted once, its duration the render activity's (less its few milliseconds of set-up)
    expect(await promNumber("sum(reelsmith_render_duration_seconds_count)")).toBe(1);
    const promRender = await promNumber("sum(reelsmith_render_duration_seconds_sum)");
    expect(promRender).toBeGreaterThan(0);
    expect(promRender).toBeLessThanOrEqual(renderSeconds + 0.05);
    expect(promRender).toBeGreaterThan(renderSeconds - 3);
    const ratio = await promNumber("sum(reelsmith_render_seconds_per_video_second_sum)");
    expect(ratio).toBeCloseTo(promRender / (await promNumber("sum(reelsmith_rendered_video_seconds_total)")), 3);

    // activity failures: the count Temporal's histories give, the broken render's among them under its stage
    expect(await promNumber(`sum(reelsmith_activity_duration_seconds_count{outcome="failed"}) or vector(0)`), JSON.stringify(notCompleted)).toBe(failedAttempts);
    expect(await promNumber(`sum(reelsmith_activity_duration_seconds_count{outcome="failed",stage="render",activity="prepareStoredRenderPlan"})`)).toBe(1);
    // every attempt that completed, counted once
    expect(await promNumber(`sum(reelsmith_activity_duration_seconds_count{outcome="completed"})`)).toBe(runs.filter((r) => r.outcome === "completed").length);

    // HTTP: one POST answered 201, every poll counted once under the route's pattern, and the p99 within the bucket
    // of the polls' p99 as this test measured them (the server's time is part of the client's)
    expect(await promNumber(`sum(reelsmith_http_request_duration_seconds_count{route="/api/v1/videos",method="POST",status="201"})`)).toBe(1);
    expect(await promNumber(`sum(reelsmith_http_request_duration_seconds_count{route="/api/v1/videos/:id",method="GET"})`)).toBe(pollMs.length);
    const p99 = await promNumber(`histogram_quantile(0.99, sum by (le) (reelsmith_http_request_duration_seconds_bucket{route="/api/v1/videos/:id",method="GET"}))`);
    const clientP99 = [...pollMs].sort((a, b) => a - b)[Math.ceil(pollMs.length * 0.99) - 1]! / 1000;
    const bucketAbove = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10].find((b) => b >= clientP99) ?? Infinity;
    expect(p99).toBeGreaterThan(0);
    expect(p99).toBeLessThanOrEqual(bucketAbove);
    // raw URLs never become labels
    const routes = (await promQuery("count by (route) (reelsmith_http_request_duration_seconds_count)")).map((r) => r.metric.route!);
    expect(routes.some((r) => r.includes(id))).toBe(false);

    // the SDK's own worker metrics come through the worker's /metrics
    expect(await promNumber(`count({__name__=~"temporal_.+", job="reelsmith-worker"})`)).toBeGreaterThan(0);
    expect(await promNumber(`sum(temporal_workflow_completed_total{job="reelsmith-worker"})`)).toBeGreaterThan(0);
    console.log(
      `observability: render ${promRender.toFixed(2)} s (activity ${renderSeconds.toFixed(2)} s), ${failedAttempts} failed attempt(s), ${pollMs.length} polls, HTTP p99 ${(p99 * 1000).toFixed(1)} ms (client ${(clientP99 * 1000).toFixed(1)} ms)`,
    );

    // the trace: from the web request through make-video and the render workflow to the render activity, by parent links
    let chain: Span[] = [];
    const traceDeadline = Date.now() + 60_000;
    for (;;) {
      const byId = new Map(receiver.spans.map((s) => [s.spanId, s]));
      const renderSpan = receiver.spans.find((s) => /^RunActivity:renderVideo(Fast|Exact)$/.test(s.name));
      chain = [];
      for (let s = renderSpan; s; s = s.parentSpanId ? byId.get(s.parentSpanId) : undefined) chain.unshift(s);
      if (chain[0]?.name === "POST /api/v1/videos" || Date.now() > traceDeadline) break;
      await sleep(1000);
    }
    const names = chain.map((s) => s.name);
    expect(names[0], `chain: ${names.join(" > ")}`).toBe("POST /api/v1/videos");
    expect(chain[0]!.service).toBe("reelsmith-web");
    expect(chain.at(-1)!.service).toBe("reelsmith-worker");
    expect(names).toEqual(expect.arrayContaining(["StartWorkflow:makeVideoWorkflow", "RunWorkflow:makeVideoWorkflow", "RunWorkflow:renderVideoWorkflow"]));
    expect(new Set(chain.map((s) => s.traceId)).size).toBe(1);
    console.log(`trace: ${names.join(" > ")}`);

    // the worker's log lines: JSON, the render activity's with its workflow, activity and trace ids
    // (the stack's log file prefixes each chunk of output, not each line: a line's JSON starts at its first brace)
    const entries = fs
      .readFileSync(stack.logFile, "utf8")
      .split("\n")
      .flatMap((line) => {
        const at = line.indexOf('{"level"');
        if (at < 0) return [];
        try {
          return [JSON.parse(line.slice(at)) as Record<string, unknown>];
        } catch {
          return [];
        }
      });
    const renderLine = entries.find((l) => /^renderVideo(Fast|Exact)$/.test(String(l.activityType)) && l.outcome === "completed");
    expect(renderLine).toMatchObject({ level: "info", workflowId: expect.stringMatching(/^render-/), activityId: expect.any(String), traceId: chain[0]!.traceId, stage: "render" });
  });
});
