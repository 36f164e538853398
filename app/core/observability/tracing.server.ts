// OpenTelemetry traces (issue 54, decision 208): one tracer provider per process (the web server, the worker),
// registered globally with W3C trace-context propagation and async context, so a span started for a web request is
// the parent of the Temporal client's StartWorkflow span, whose context travels in the workflow's headers to the
// workflow's and activities' spans (@temporalio/interceptors-opentelemetry; workflows/observability/). Spans leave
// the process over OTLP/HTTP only when OTEL_EXPORTER_OTLP_ENDPOINT is set; without it they still give every log
// line its trace and span id.
import { SpanKind, SpanStatusCode, context, trace, type Attributes, type Span, type Tracer } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { Resource } from "@opentelemetry/resources";
import { BatchSpanProcessor, type SpanProcessor } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";

export type Tracing = { provider: NodeTracerProvider; resource: Resource; spanProcessors: SpanProcessor[]; shutdown(): Promise<void> };

declare global {
  var __reelsmithTracing: Tracing | undefined;
}

/** The service name spans carry: reelsmith-web, reelsmith-worker. */
export const serviceName = (process: string) => `reelsmith-${process}`;

/**
 * Starts tracing for this process, once (later calls return the first). `spanProcessors` replaces the OTLP export
 * (tests hand in an in-memory exporter's processor).
 */
export function startTracing(options: { process: string; endpoint?: string; spanProcessors?: SpanProcessor[] }): Tracing {
  if (globalThis.__reelsmithTracing) return globalThis.__reelsmithTracing;
  const resource = new Resource({ "service.name": serviceName(options.process), "service.namespace": "reelsmith" });
  const spanProcessors =
    options.spanProcessors ??
    (options.endpoint
      ? // the exporter reads OTEL_EXPORTER_OTLP_HEADERS and the rest of the OTEL_ variables itself
        [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${options.endpoint.replace(/\/+$/, "")}/v1/traces` }), { scheduledDelayMillis: 1000 })]
      : []);
  const provider = new NodeTracerProvider({ resource, spanProcessors });
  provider.register();
  globalThis.__reelsmithTracing = {
    provider,
    resource,
    spanProcessors,
    shutdown: () => provider.shutdown(),
  };
  return globalThis.__reelsmithTracing;
}

/** Reelsmith's own tracer (the global provider's: a no-op tracer until startTracing ran). */
export const tracer = (): Tracer => trace.getTracer("reelsmith");

/** Runs `fn` inside a new span (a child of the active one), ended with fn's outcome. */
export async function inSpan<T>(name: string, attributes: Attributes, fn: (span: Span) => Promise<T>, kind: SpanKind = SpanKind.INTERNAL): Promise<T> {
  return tracer().startActiveSpan(name, { kind, attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (e) {
      span.recordException(e as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: e instanceof Error ? e.message : String(e) });
      throw e;
    } finally {
      span.end();
    }
  });
}

export { context, trace };
