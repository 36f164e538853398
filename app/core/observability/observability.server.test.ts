// Issue 54's pieces that need no running stack: route patterns (bounded labels), who may read /metrics, the provider
// call observers, the log lines' ids, and the HTTP histogram an Express app records.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import express from "express";
import { afterAll, describe, expect, it } from "vitest";
import { onProviderCall, providerCallStarted } from "~/providers/call-observers";
import { ProviderError } from "~/providers/errors";
import { metricsEndpoint, mayReadMetrics, observeRequests, routePatterns } from "./http-metrics.server";
import { createLogger, withLogContext } from "./log.server";
import { registry, startMetrics } from "./metrics.server";

const ROUTES = [
  { id: "root", path: "", module: {} },
  { id: "routes/projects/_index", parentId: "root", index: true, module: {} },
  { id: "routes/api-v1/api.v1.videos", parentId: "root", path: "api/v1/videos", module: {} },
  { id: "routes/api-v1/api.v1.videos.$id", parentId: "root", path: "api/v1/videos/:id", module: {} },
  { id: "routes/api-v1/api.v1.videos.$id.cancel", parentId: "root", path: "api/v1/videos/:id/cancel", module: {} },
  { id: "routes/projects/$", parentId: "root", path: "*", module: {} },
];

describe("route patterns", () => {
  it("names a path by the route that answers it, never by its ids", async () => {
    const patternOf = routePatterns(async () => ROUTES);
    patternOf("/"); // the first call loads the routes
    await new Promise((r) => setTimeout(r, 0));
    expect(patternOf("/api/v1/videos")).toBe("/api/v1/videos");
    expect(patternOf("/api/v1/videos/cmx0abc")).toBe("/api/v1/videos/:id");
    expect(patternOf("/api/v1/videos/cmx0abc/cancel")).toBe("/api/v1/videos/:id/cancel");
    expect(patternOf("/no/such/page")).toBe("/*");
    expect(patternOf("/assets/root-AbC123.js")).toBe("/assets/*");
    expect(patternOf("/metrics")).toBe("/metrics");
    expect(patternOf("/")).toBe("/");
  });
});

describe("who may read /metrics", () => {
  const req = (remoteAddress: string, headers: Record<string, string> = {}) => ({ headers, socket: { remoteAddress } });
  const token = "a-long-metrics-token-0123456789";
  it("a caller on this machine that came straight, without a token", () => {
    expect(mayReadMetrics(req("127.0.0.1"), undefined)).toBe(true);
    expect(mayReadMetrics(req("::1"), undefined)).toBe(true);
    expect(mayReadMetrics(req("::ffff:127.0.0.1"), undefined)).toBe(true);
  });
  it("not the internet through a proxy on this machine, nor another host, unless it presents the token", () => {
    expect(mayReadMetrics(req("127.0.0.1", { "x-forwarded-for": "203.0.113.9" }), undefined)).toBe(false);
    expect(mayReadMetrics(req("10.1.2.3"), undefined)).toBe(false);
    expect(mayReadMetrics(req("10.1.2.3"), token)).toBe(false);
    expect(mayReadMetrics(req("10.1.2.3", { authorization: `Bearer ${token}x` }), token)).toBe(false);
    expect(mayReadMetrics(req("10.1.2.3", { authorization: `Bearer ${token}` }), token)).toBe(true);
    expect(mayReadMetrics(req("127.0.0.1", { "x-forwarded-for": "203.0.113.9", authorization: `Bearer ${token}` }), token)).toBe(true);
  });
});

describe("provider call observers", () => {
  it("hear each request once, with its provider, outcome, time and whether it was paid", async () => {
    const heard: unknown[] = [];
    const stop = onProviderCall((call) => heard.push(call));
    const ok = providerCallStarted("ElevenLabs", true);
    await new Promise((r) => setTimeout(r, 20));
    ok();
    ok(); // a second report of the same request is ignored
    providerCallStarted("Leonardo.Ai", false)(new ProviderError("Leonardo.Ai", "rate_limited", "limited", 429));
    providerCallStarted("Suno", true)(new TypeError("fetch failed"));
    stop();
    providerCallStarted("Gemini", false)(); // nobody listens any more
    expect(heard).toEqual([
      { provider: "ElevenLabs", outcome: "ok", seconds: expect.any(Number), paid: true },
      { provider: "Leonardo.Ai", outcome: "rate_limited", seconds: expect.any(Number), paid: false },
      { provider: "Suno", outcome: "network", seconds: expect.any(Number), paid: true },
    ]);
    expect((heard[0] as { seconds: number }).seconds).toBeGreaterThanOrEqual(0.015);
  });
});

describe("log lines", () => {
  it("are JSON, with the ids of the request or activity they were written in", async () => {
    const lines: string[] = [];
    const destination = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    const logger = createLogger({ name: "worker", destination });
    logger.info("outside");
    await withLogContext({ workflowId: "render-p1", activityId: "7", activityType: "renderVideoFast" }, async () => {
      await new Promise((r) => setTimeout(r, 1));
      logger.info({ seconds: 1.5 }, "inside");
    });
    const [outside, inside] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(outside).toMatchObject({ level: "info", name: "worker", msg: "outside" });
    expect(outside).not.toHaveProperty("workflowId");
    expect(inside).toMatchObject({ level: "info", msg: "inside", seconds: 1.5, workflowId: "render-p1", activityId: "7", activityType: "renderVideoFast" });
    expect(typeof inside!.time).toBe("string");
  });
});

describe("the HTTP histogram and /metrics on an Express app", () => {
  const app = express();
  startMetrics("web");
  app.use(metricsEndpoint({ token: undefined }), observeRequests({ routes: async () => ROUTES }));
  app.get("/api/v1/videos/:id", (_req, res) => void res.json({ ok: true }));
  app.use((_req, res) => void res.status(404).send("Not Found"));
  const server = http.createServer(app);
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("counts each request once under its route pattern, method and status, with a request id", async () => {
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await fetch(`${base}/api/v1/videos/warm`); // the route table loads on the first request
    await new Promise((r) => setTimeout(r, 10));
    registry.resetMetrics();
    const answers = await Promise.all(["video-alpha-1", "video-beta-2", "video-gamma-3"].map((id) => fetch(`${base}/api/v1/videos/${id}`)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers[0]!.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const given = await fetch(`${base}/api/v1/videos/d4`, { headers: { "X-Request-Id": "req-from-the-proxy-1" } });
    expect(given.headers.get("x-request-id")).toBe("req-from-the-proxy-1");
    const text = await (await fetch(`${base}/metrics`)).text();
    expect(text).toMatch(/reelsmith_http_request_duration_seconds_count\{process="web",route="\/api\/v1\/videos\/:id",method="GET",status="200"\} 4/);
    expect(text).not.toMatch(/video-(alpha|beta|gamma)/);
    expect(text).toContain("reelsmith_process_cpu_seconds_total");
  });
});
