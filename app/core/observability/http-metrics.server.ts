// The web server's side of observability (issue 54, decision 208): every request gets an id (X-Request-Id, the
// caller's when it sent a sane one), a server span (a child of the caller's traceparent, if any) that the Temporal
// client's StartWorkflow span hangs under, the ids on every log line written while it is answered, and one
// observation in the HTTP histogram by route pattern, method and status. And /metrics, for loopback callers or a
// bearer token the operator set (METRICS_TOKEN).
import { randomUUID, timingSafeEqual } from "node:crypto";
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace } from "@opentelemetry/api";
import { matchRoutes, type AgnosticRouteObject } from "@remix-run/router";
import type { Request as ExpressRequest, RequestHandler } from "express";
import { isLoopbackAddress } from "../exposure.server";
import { withLogContext } from "./log.server";
import { METRICS_CONTENT_TYPE, httpRequestDuration, metricsText } from "./metrics.server";
import { tracer } from "./tracing.server";

/** A route module as the server build lists it: what it exports decides the methods it takes. */
export type RouteModuleShape = { loader?: unknown; action?: unknown; default?: unknown };
/** One route of the server build (its id, parent, path) with its module. */
export type RouteEntry = { id: string; parentId?: string; path?: string; index?: boolean; module: RouteModuleShape };

export const METRICS_PATH = "/metrics";

/** Remix's route entries as a tree, each route knowing its full pattern ("/api/projects/:id/render"). */
export function routeTree(entries: RouteEntry[]): AgnosticRouteObject[] {
  type Node = AgnosticRouteObject & { children?: Node[]; pattern: string };
  const byParent = new Map<string | undefined, RouteEntry[]>();
  for (const entry of entries) byParent.set(entry.parentId, [...(byParent.get(entry.parentId) ?? []), entry]);
  const build = (parentId: string | undefined, parentPattern: string): Node[] =>
    (byParent.get(parentId) ?? []).map((entry) => {
      const pattern = entry.path ? `${parentPattern.replace(/\/$/, "")}/${entry.path.replace(/^\//, "")}` : parentPattern || "/";
      const children = build(entry.id, pattern);
      const node = { id: entry.id, path: entry.path, pattern, ...(entry.index ? { index: true as const } : children.length ? { children } : {}) };
      return node as Node;
    });
  return build(undefined, "");
}

const PATTERN_CACHE_SIZE = 5000;

/**
 * The route pattern a path is answered by: the deepest matching Remix route's pattern ("/api/projects/:id/status"),
 * "/assets/*" for built assets, "/metrics", or "unmatched". Matching ranks every route, so answers are remembered
 * per path (a status poll asks for the same path every few seconds); the memory is bounded.
 */
export function routePatterns(routes: () => Promise<RouteEntry[]>) {
  let tree: AgnosticRouteObject[] | undefined;
  let loading: Promise<void> | undefined;
  const cache = new Map<string, string>();
  return function patternOf(pathname: string): string {
    if (pathname === METRICS_PATH) return METRICS_PATH;
    if (pathname.startsWith("/assets/")) return "/assets/*";
    const known = cache.get(pathname);
    if (known) return known;
    if (!tree) {
      loading ??= routes().then((r) => void (tree = routeTree(r)), () => void (loading = undefined));
      return "unmatched";
    }
    const matches = matchRoutes(tree, pathname);
    const deepest = matches?.[matches.length - 1]?.route as { pattern?: string } | undefined;
    const pattern = deepest?.pattern ?? "unmatched";
    if (cache.size >= PATTERN_CACHE_SIZE) cache.clear();
    cache.set(pathname, pattern);
    return pattern;
  };
}

const REQUEST_ID = /^[\w.:-]{8,128}$/;

/**
 * Express middleware, first of all: request id, server span, log ids and the HTTP histogram. The span and the
 * observation end when the answer has been sent (or the connection closed).
 */
export function observeRequests(options: { routes: () => Promise<RouteEntry[]>; record?: boolean }): RequestHandler {
  const record = options.record ?? true;
  const patternOf = routePatterns(options.routes);
  return (req, res, next) => {
    const started = performance.now();
    const given = req.headers["x-request-id"];
    const requestId = typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID();
    res.setHeader("X-Request-Id", requestId);
    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    const span = tracer().startSpan(`${req.method}`, { kind: SpanKind.SERVER, attributes: { "http.request.method": req.method, "url.path": req.path, "reelsmith.request_id": requestId } }, parent);
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      const route = patternOf(req.path);
      const status = res.headersSent ? res.statusCode : 499;
      if (record) httpRequestDuration.observe({ route, method: req.method, status: String(status) }, (performance.now() - started) / 1000);
      span.updateName(`${req.method} ${route}`);
      span.setAttribute("http.route", route);
      span.setAttribute("http.response.status_code", status);
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    };
    res.once("finish", finish);
    res.once("close", finish);
    context.with(trace.setSpan(parent, span), () => withLogContext({ requestId }, next));
  };
}

/** The token a request presents (Authorization: Bearer ...), compared in constant time. */
function presentsToken(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? "");
  if (!match) return false;
  const given = Buffer.from(match[1]!);
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/**
 * Who may read /metrics: a caller on this machine that came straight (no proxy headers: a reverse proxy on the
 * same host forwards the internet's requests from loopback), or anyone presenting METRICS_TOKEN.
 */
export function mayReadMetrics(req: Pick<ExpressRequest, "headers"> & { socket: { remoteAddress?: string } }, token: string | undefined): boolean {
  if (token && presentsToken(req.headers.authorization, token)) return true;
  const proxied = ["forwarded", "x-forwarded-for", "x-real-ip"].some((h) => req.headers[h] !== undefined);
  return !proxied && isLoopbackAddress(req.socket.remoteAddress);
}

/** GET /metrics: the registry's text for a permitted caller (`extra` appends more, e.g. database figures); 404 otherwise. */
export function metricsEndpoint(options: { token: string | undefined; before?: () => Promise<void> }): RequestHandler {
  return (req, res, next) => {
    if (req.path !== METRICS_PATH) return next();
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    if (!mayReadMetrics(req, options.token)) {
      // not found, as any path a caller may not know of: nothing says metrics are here
      res.status(404).type("text/plain").send("Not Found");
      return;
    }
    void (async () => {
      await options.before?.().catch(() => {});
      const text = await metricsText();
      res.setHeader("Content-Type", METRICS_CONTENT_TYPE);
      res.setHeader("Cache-Control", "no-store");
      res.end(req.method === "HEAD" ? undefined : text);
    })().catch(next);
  };
}
