// Prometheus metrics (issue 54, decision 208), with prom-client: every metric Reelsmith records, in one registry per
// process, and the text /metrics answers. The web server records HTTP requests (by route pattern, never the raw
// URL: a label's values stay bounded) and reads storage and queue figures from the database when scraped; the worker
// records workflow activities by stage, renders by renderer and provider calls by provider (its /metrics adds the
// Temporal SDK's own worker metrics: workflows/observability/worker-telemetry.ts).
import client from "prom-client";
import { onProviderCall, type ProviderCallOutcome } from "~/providers/call-observers";

export const registry = new client.Registry();

/** Seconds, for requests answered from memory (a status poll: about a millisecond) up to a slow page. */
const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds, for activities: a bookkeeping write (ms) up to a long render (an hour). */
const ACTIVITY_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600];
/** Render seconds per second of video: 0.2 (fast renderer, short video) up to 10 (the exact one on 2 cores). */
const RENDER_RATIO_BUCKETS = [0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 3, 5, 7.5, 10, 20];
const PROVIDER_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

export const httpRequestDuration = new client.Histogram({
  name: "reelsmith_http_request_duration_seconds",
  help: "HTTP requests answered by the web server, by route pattern, method and status, with the time to answer",
  labelNames: ["route", "method", "status"] as const,
  buckets: HTTP_BUCKETS,
  registers: [registry],
});

export const activityDuration = new client.Histogram({
  name: "reelsmith_activity_duration_seconds",
  help: "Temporal activity attempts run by this worker, by stage (the workflow that scheduled it), activity and outcome (completed, failed, cancelled)",
  labelNames: ["stage", "activity", "outcome"] as const,
  buckets: ACTIVITY_BUCKETS,
  registers: [registry],
});

export const renderDuration = new client.Histogram({
  name: "reelsmith_render_duration_seconds",
  help: "Finished renders (or render chunks), by renderer (fast, exact, chunk): wall time of the render itself",
  labelNames: ["renderer"] as const,
  buckets: ACTIVITY_BUCKETS,
  registers: [registry],
});

export const renderSecondsPerVideoSecond = new client.Histogram({
  name: "reelsmith_render_seconds_per_video_second",
  help: "Render time per second of video made, by renderer",
  labelNames: ["renderer"] as const,
  buckets: RENDER_RATIO_BUCKETS,
  registers: [registry],
});

export const renderedVideoSeconds = new client.Counter({
  name: "reelsmith_rendered_video_seconds_total",
  help: "Seconds of video rendered, by renderer",
  labelNames: ["renderer"] as const,
  registers: [registry],
});

export const providerRequestDuration = new client.Histogram({
  name: "reelsmith_provider_request_duration_seconds",
  help: "Requests to cloud providers, by provider and outcome (ok, or the failure's kind: auth, rate_limited, timeout, unavailable, rejected, network, unconfirmed, malformed, cancelled)",
  labelNames: ["provider", "outcome"] as const,
  buckets: PROVIDER_BUCKETS,
  registers: [registry],
});

export const providerPaidRequests = new client.Counter({
  name: "reelsmith_provider_paid_requests_total",
  help: "Requests that start a job the creator pays for, by provider and outcome (Reelsmith records no prices: this counts paid requests)",
  labelNames: ["provider", "outcome"] as const,
  registers: [registry],
});

/** A render that finished: its wall time and the seconds of video it made. */
export function recordRender(renderer: string, seconds: number, videoSeconds: number): void {
  renderDuration.observe({ renderer }, seconds);
  if (videoSeconds > 0) {
    renderSecondsPerVideoSecond.observe({ renderer }, seconds / videoSeconds);
    renderedVideoSeconds.inc({ renderer }, videoSeconds);
  }
}

function recordProviderCall(call: ProviderCallOutcome): void {
  providerRequestDuration.observe({ provider: call.provider, outcome: call.outcome }, call.seconds);
  if (call.paid) providerPaidRequests.inc({ provider: call.provider, outcome: call.outcome });
}

let started = false;

/** This process's default metrics (CPU, memory, event loop, handles) under `process` and provider calls; once. */
export function startMetrics(process: string): void {
  if (started) return;
  started = true;
  registry.setDefaultLabels({ process });
  client.collectDefaultMetrics({ register: registry, prefix: "reelsmith_" });
  onProviderCall(recordProviderCall);
}

/** The registry's text, as Prometheus reads it. */
export async function metricsText(): Promise<string> {
  return registry.metrics();
}

export const METRICS_CONTENT_TYPE = registry.contentType;
export { client };

/**
 * The database's figures as gauges, read when /metrics is scraped (at most every 10 s: a scrape every second costs
 * the database no more). Only the web server registers them: workers would report the same numbers again.
 */
export function registerKeyFigureGauges(read: () => Promise<import("./key-figures.server").KeyFigures>): () => Promise<void> {
  const renders = new client.Gauge({ name: "reelsmith_renders", help: "Renders running now, and videos waiting for a slot", labelNames: ["state"] as const, registers: [registry] });
  const failures = new client.Gauge({ name: "reelsmith_stage_failures_this_month", help: "Stages that failed since the first of this month (UTC), by stage", labelNames: ["stage"] as const, registers: [registry] });
  const paid = new client.Gauge({ name: "reelsmith_paid_generations_this_month", help: "Generations made by paid cloud providers since the first of this month (UTC), by provider", labelNames: ["provider"] as const, registers: [registry] });
  const stored = new client.Gauge({ name: "reelsmith_storage_bytes", help: "Bytes in media storage, by kind", labelNames: ["kind"] as const, registers: [registry] });
  let readAt = 0;
  return async () => {
    if (Date.now() - readAt < 10_000) return;
    readAt = Date.now();
    const figures = await read();
    renders.set({ state: "running" }, figures.rendersRunning);
    renders.set({ state: "waiting" }, figures.rendersWaiting);
    failures.reset();
    for (const [stage, n] of Object.entries(figures.failuresByStage)) failures.set({ stage }, n);
    paid.reset();
    for (const [provider, n] of Object.entries(figures.paidGenerationsByProvider)) paid.set({ provider }, n);
    stored.reset();
    for (const [kind, n] of Object.entries(figures.storedBytesByKind)) stored.set({ kind }, n);
  };
}
