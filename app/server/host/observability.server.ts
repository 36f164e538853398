// The web server's observability, started by server.ts in one call (issue 54, decision 208): JSON log lines (or
// readable ones, LOG_FORMAT=pretty) carrying the request and trace ids, tracing exported over OTLP when
// OTEL_EXPORTER_OTLP_ENDPOINT is set, and the middleware that answers /metrics and observes every request.
import type { RequestHandler } from "express";
import type { Env } from "~/core/env.server";
import type { RouteEntry } from "./web-app.server";
import { metricsEndpoint, observeRequests } from "~/core/observability/http-metrics.server";
import { keyFigures } from "~/core/observability/key-figures.server";
import { bridgeConsole, setProcessLogger } from "~/core/observability/log.server";
import { registerKeyFigureGauges, startMetrics } from "~/core/observability/metrics.server";
import { startTracing } from "~/core/observability/tracing.server";

/** Starts logging, tracing and metrics for the web process; the handlers to mount first of all. */
export function webObservability(env: Pick<Env, "LOG_FORMAT" | "OTEL_EXPORTER_OTLP_ENDPOINT" | "METRICS" | "METRICS_TOKEN">, routes: () => Promise<RouteEntry[]>): RequestHandler[] {
  setProcessLogger("web", env.LOG_FORMAT);
  bridgeConsole();
  startTracing({ process: "web", endpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT });
  if (env.METRICS === "off") return [observeRequests({ routes, record: false })];
  startMetrics("web");
  const readFigures = registerKeyFigureGauges(() => keyFigures());
  return [metricsEndpoint({ token: env.METRICS_TOKEN, before: readFigures }), observeRequests({ routes })];
}
