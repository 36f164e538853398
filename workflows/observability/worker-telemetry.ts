// The worker's observability (issue 54, decision 208), beside worker.ts:
//   - JSON log lines (or readable ones, LOG_FORMAT=pretty) carrying the workflow, run and activity ids and the trace;
//   - /metrics on WORKER_METRICS_PORT: Reelsmith's own metrics (activities by stage and outcome, renders by
//     renderer, provider calls by provider) followed by the Temporal SDK's worker metrics (task slots,
//     schedule-to-start latency, sticky cache, workflow completions and failures), which the SDK's core serves on
//     a loopback port of its own that only this process reads. Loopback only, unless METRICS_TOKEN is set: then
//     on every address, for callers presenting the token;
//   - traces: the OpenTelemetry interceptors for activities and (in the workflow bundle) workflows, so the web
//     request's trace goes on through the workflow into each activity, exported over OTLP when an endpoint is set.
import { createRequire } from "node:module";
import http from "node:http";
import net from "node:net";
import { Context } from "@temporalio/activity";
import { CancelledFailure, type LogLevel, type LogMetadata, type Logger } from "@temporalio/common";
import { OpenTelemetryActivityInboundInterceptor, OpenTelemetryActivityOutboundInterceptor, makeWorkflowExporter } from "@temporalio/interceptors-opentelemetry/lib/worker";
import { Runtime, type ActivityInterceptorsFactory, type InjectedSinks } from "@temporalio/worker";
import { Resource } from "@opentelemetry/resources";
import { NoopSpanProcessor } from "@opentelemetry/sdk-trace-base";
import type { Env } from "~/core/env.server";
import { bridgeConsole, log, setProcessLogger, withLogContext } from "~/core/observability/log.server";
import { mayReadMetrics } from "~/core/observability/http-metrics.server";
import { METRICS_CONTENT_TYPE, activityDuration, metricsText, startMetrics } from "~/core/observability/metrics.server";
import { startTracing } from "~/core/observability/tracing.server";

const require = createRequire(import.meta.url);

/** The workflow interceptor module that opens each workflow's spans (bundled with the workflows). */
export const WORKFLOW_INTERCEPTOR_MODULES = [require.resolve("@temporalio/interceptors-opentelemetry/lib/workflow-interceptors")];

/** The stage an activity works for: the workflow that scheduled it, in the words of MAKE_VIDEO_STAGES. */
const STAGES: Record<string, string> = {
  scriptWorkflow: "script",
  storyboardWorkflow: "storyboard",
  sceneImageWorkflow: "media",
  sceneVoiceoverWorkflow: "media",
  sceneClipWorkflow: "media",
  generateAllContentWorkflow: "media",
  musicTracksWorkflow: "music",
  backgroundMusicWorkflow: "mix",
  renderVideoWorkflow: "render",
  thumbnailWorkflow: "thumbnail",
  uploadMetadataWorkflow: "thumbnail",
  youtubeUploadWorkflow: "upload",
  makeVideoWorkflow: "make-video",
  videoBatchWorkflow: "batch",
  webhookDeliveryWorkflow: "webhooks",
  healthCheckWorkflow: "health",
  voicePaceWorkflow: "voice-pace",
};
export const stageOf = (workflowType: string | undefined) => (workflowType ? (STAGES[workflowType] ?? workflowType.replace(/Workflow$/, "")) : "none");

/** "completed", "cancelled" (the workflow or the worker cancelled it) or "failed". */
export function outcomeOf(error: unknown, ctx: Context): string {
  if (error === undefined) return "completed";
  if (error instanceof CancelledFailure || ctx.cancellationSignal.aborted) return "cancelled";
  return "failed";
}

/** Each activity attempt: its duration and outcome by stage, and its ids on every log line it writes. */
export const metricsActivityInterceptor: ActivityInterceptorsFactory = (ctx) => ({
  inbound: {
    async execute(input, next) {
      const { info } = ctx;
      const stage = stageOf(info.workflowType);
      const labels = { stage, activity: info.activityType };
      const started = performance.now();
      // how long the attempt waited for a slot on its queue (scheduled to started): a starved queue shows here
      const queuedSeconds = Math.max(0, Math.round(Date.now() - info.currentAttemptScheduledTimestampMs) / 1000);
      const ids = { workflowId: info.workflowExecution?.workflowId, runId: info.workflowExecution?.runId, activityId: info.activityId, activityType: info.activityType, stage };
      // one line per attempt, when it ends, inside the activity's span (its trace id on the line)
      const ended = (outcome: string, error?: unknown) => {
        const seconds = (performance.now() - started) / 1000;
        activityDuration.observe({ ...labels, outcome }, seconds);
        const fields = { outcome, seconds: Math.round(seconds * 1000) / 1000, queuedSeconds, attempt: info.attempt, ...(error ? { error: error instanceof Error ? error.message : String(error) } : {}) };
        log()[outcome === "failed" ? "warn" : "info"](fields, `activity ${info.activityType} ${outcome}`);
      };
      return withLogContext(ids, async () => {
        try {
          const result = await next(input);
          ended("completed");
          return result;
        } catch (error) {
          ended(outcomeOf(error, ctx), error);
          throw error;
        }
      });
    },
  },
});

/** The OpenTelemetry activity interceptors: each attempt a span, a child of the workflow's. */
const tracingActivityInterceptor: ActivityInterceptorsFactory = (ctx) => ({
  inbound: new OpenTelemetryActivityInboundInterceptor(ctx),
  outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
});

/** The activity interceptors, outermost first: the span, then the metrics and log ids (inside the span), then `inner`. */
export function workerActivityInterceptors(inner: ActivityInterceptorsFactory[]): ActivityInterceptorsFactory[] {
  return [tracingActivityInterceptor, metricsActivityInterceptor, ...inner];
}

/** The sink the workflow interceptors hand their spans to (the tracer provider's span processor, or none). */
export function workerSinks(): InjectedSinks<Record<string, never>> {
  const tracing = globalThis.__reelsmithTracing;
  const processor = tracing?.spanProcessors[0] ?? new NoopSpanProcessor();
  // without tracing started (a test's worker in its own process) the workflows' spans are dropped here
  const resource = tracing?.resource ?? new Resource({});
  return { exporter: makeWorkflowExporter(processor, resource) } as unknown as InjectedSinks<Record<string, never>>;
}

/** The SDK's own lines (worker state, workflow.log, core's warnings) as this process's JSON lines, their fields kept. */
export function sdkLogger(): Logger {
  const levels = { TRACE: "trace", DEBUG: "debug", INFO: "info", WARN: "warn", ERROR: "error" } as const;
  const write = (level: LogLevel, message: string, meta?: LogMetadata) => log()[levels[level] ?? "info"]({ ...meta }, message);
  return {
    log: write,
    trace: (message, meta) => write("TRACE", message, meta),
    debug: (message, meta) => write("DEBUG", message, meta),
    info: (message, meta) => write("INFO", message, meta),
    warn: (message, meta) => write("WARN", message, meta),
    error: (message, meta) => write("ERROR", message, meta),
  };
}

/** A free port on loopback (for the SDK core's own Prometheus exporter, which only this process reads). */
async function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export type WorkerTelemetry = { port: number; close(): Promise<void> };

/**
 * Starts the worker's logging, tracing and metrics: call before the first NativeConnection (the SDK's runtime is
 * installed here, with its Prometheus exporter). Resolves once /metrics listens.
 */
export async function startWorkerTelemetry(env: Pick<Env, "LOG_FORMAT" | "OTEL_EXPORTER_OTLP_ENDPOINT" | "METRICS" | "METRICS_TOKEN" | "WORKER_METRICS_PORT">): Promise<WorkerTelemetry> {
  setProcessLogger("worker", env.LOG_FORMAT);
  bridgeConsole();
  startTracing({ process: "worker", endpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT });
  if (env.METRICS === "off") {
    Runtime.install({ logger: sdkLogger() });
    return { port: 0, close: async () => {} };
  }
  startMetrics("worker");
  const sdkPort = await freeLoopbackPort();
  Runtime.install({ logger: sdkLogger(), telemetryOptions: { metrics: { prometheus: { bindAddress: `127.0.0.1:${sdkPort}`, countersTotalSuffix: true, useSecondsForDurations: true } } } });
  const sdkMetrics = async (): Promise<string> => {
    try {
      const response = await fetch(`http://127.0.0.1:${sdkPort}/metrics`, { signal: AbortSignal.timeout(2000) });
      return response.ok ? await response.text() : "";
    } catch {
      return ""; // the core's exporter not up yet: Reelsmith's own metrics still answer
    }
  };
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD") || !mayReadMetrics(req, env.METRICS_TOKEN)) {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("Not Found");
      return;
    }
    void Promise.all([metricsText(), sdkMetrics()]).then(
      ([own, sdk]) => {
        res.writeHead(200, { "Content-Type": METRICS_CONTENT_TYPE, "Cache-Control": "no-store" });
        res.end(req.method === "HEAD" ? undefined : `${own}\n${sdk}`);
      },
      (e: unknown) => res.writeHead(500, { "Content-Type": "text/plain" }).end(e instanceof Error ? e.message : String(e)),
    );
  });
  // loopback only, unless the operator set a token for Prometheus on another host
  const host = env.METRICS_TOKEN ? "::" : "127.0.0.1";
  const listening = await new Promise<boolean>((resolve) => {
    server.once("error", (e: NodeJS.ErrnoException) => {
      // a second worker on this host: it runs all the same, without a /metrics of its own
      console.error(`worker: /metrics not served: port ${env.WORKER_METRICS_PORT} ${e.code === "EADDRINUSE" ? "is taken (WORKER_METRICS_PORT moves it)" : `failed: ${e.message}`}`);
      resolve(false);
    });
    server.listen(env.WORKER_METRICS_PORT, host, () => resolve(true));
  });
  if (listening) console.log(`worker: /metrics on ${host === "::" ? "every address (METRICS_TOKEN required)" : "127.0.0.1"}:${env.WORKER_METRICS_PORT}`);
  return {
    port: listening ? (server.address() as net.AddressInfo).port : 0,
    close: () => new Promise((resolve) => (listening ? server.close(() => resolve()) : resolve())),
  };
}
