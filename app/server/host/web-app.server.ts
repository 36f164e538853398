// The Express gates every request passes before Remix (server.ts mounts them; tests mount them with a stub in
// place of Remix): security headers, the built-in sign-in's loopback rule, the /api gates (cross-site writes,
// signed-out calls, declared body size), rate limits, and 405 for a method a route does not take; and, after any
// answer, the unread rest of the request's body drained (unread-body.server.ts).
import { randomBytes } from "node:crypto";
import { matchRoutes, type AgnosticRouteObject } from "@remix-run/router";
import type { Express, NextFunction, Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from "express";
import pg from "pg";
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";
import { bodyTooLargeMessage } from "~/lib/request-body.server";
import { VOICE_UPLOAD_MAX_BYTES, VOICE_UPLOAD_PATH } from "~/lib/voice-upload";
import { CROSS_SITE_MESSAGE, MULTIPART_OVERHEAD, NOT_SIGNED_IN_MESSAGE, isCrossSiteWrite, isPublicApiPath, methodNotAllowed } from "../api.server";
import { getEnv, type Env } from "~/core/env.server";
import { unavailableResponseFor } from "./busy.server";
import { BUILTIN_SIGNIN_REMOTE_MESSAGE, isLoopbackAddress, mayUseBuiltinSignIn } from "~/core/exposure.server";
import { getSessionUserId } from "../session.server";
import { PUBLIC_API_V1_PATHS, checkApiToken, isApiV1Path, isBearerOnlyRequest, isGenerationRequest } from "../api-token-gate.server";
import { PROBLEM_CONTENT_TYPE, problemBody } from "../problem.server";
import { UNREAD_BODY_DRAIN_BYTES, drainUnreadBodies } from "../unread-body.server";
import type { RouteEntry, RouteModuleShape } from "~/core/observability/http-metrics.server";

// ── headers ──────────────────────────────────────────────────────────────────────────────────────

/**
 * The Content-Security-Policy of every page (decision 052). Scripts: this origin, plus inline scripts carrying
 * this request's nonce (Remix's hydration data, scroll restoration and single-fetch streams are rendered with
 * it by app/entry.server.tsx). In development (loopback only) Vite's hot reload needs inline scripts and eval,
 * so there the policy allows them instead. Styles keep 'unsafe-inline': React's `style` attributes (Radix
 * positions its menus and popovers with them, Remotion's Player sizes its frame with them) cannot carry a nonce.
 * Everything else is tight: no framing, no plugins, no foreign base or form targets. Media and images come from
 * this origin (and data:/blob: for previews).
 */
export function contentSecurityPolicy(options: { dev: boolean; signInOrigin?: string | null; nonce?: string }): string {
  const connect = ["'self'", ...(options.dev ? ["ws:", "wss:"] : [])];
  const formAction = ["'self'", ...(options.signInOrigin ? [options.signInOrigin] : [])];
  const scripts = options.dev ? "'self' 'unsafe-inline' 'unsafe-eval'" : `'self'${options.nonce ? ` 'nonce-${options.nonce}'` : ""}`;
  return [
    "default-src 'self'",
    `script-src ${scripts}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "media-src 'self' blob: data:",
    "font-src 'self' data:",
    `connect-src ${connect.join(" ")}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    `form-action ${formAction.join(" ")}`,
    "frame-ancestors 'none'",
  ].join("; ");
}

const NONCE_BYTES = 16;
const NONCES_PER_FILL = 256;
let nonceBytes = Buffer.alloc(0);
let nonceAt = 0;

/**
 * A fresh nonce for one response: 128 random bits, base64. The bytes come from the CSPRNG 4 KB at a time and each
 * is used once: one randomBytes call per response cost a status poll about a quarter of its own JavaScript
 * (decision 186, second round).
 */
export function newCspNonce(): string {
  if (nonceAt + NONCE_BYTES > nonceBytes.length) {
    nonceBytes = randomBytes(NONCE_BYTES * NONCES_PER_FILL);
    nonceAt = 0;
  }
  const nonce = nonceBytes.toString("base64", nonceAt, nonceAt + NONCE_BYTES);
  nonceAt += NONCE_BYTES;
  return nonce;
}

/** Sets the security headers, with a fresh script nonce per request (kept in res.locals.cspNonce for the page). */
export function securityHeaders(options: { dev: boolean; signInOrigin?: string | null }): RequestHandler {
  return (_req, res, next) => {
    const nonce = newCspNonce();
    res.locals.cspNonce = nonce;
    // setHeader, not res.set: the same headers without Express's per-header work (every status poll passes here)
    res.setHeader("Content-Security-Policy", contentSecurityPolicy({ ...options, nonce }));
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "same-origin");
    res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
    res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
    next();
  };
}

// ── rate limits (rate-limiter-flexible, counted in PostgreSQL: shared by every web process) ──────────

export type RateLimitKind = "signin" | "generation" | "errorLog" | "api";

/** Points per window: sign-in per address, generation and error-log writes per user. */
export const RATE_LIMITS: Record<RateLimitKind, { points: number; durationSeconds: number; message: string }> = {
  signin: { points: 60, durationSeconds: 60, message: "Too many sign-in attempts. Wait a minute, then try again." },
  generation: { points: 30, durationSeconds: 60, message: "Too many generation requests. Wait a minute, then try again." },
  errorLog: { points: 30, durationSeconds: 60, message: "Too many error reports. Wait a minute, then try again." },
  /** every request made with an API token (/api/v1, /mcp), per token owner (issue 32, decision 160) */
  api: { points: 300, durationSeconds: 60, message: "Too many API requests. Wait a minute, then try again." },
};

/** Which limit a request counts against, if any: generation routes are listed once (isGenerationRequest). */
export function rateLimitKindFor(method: string, pathname: string): RateLimitKind | null {
  if (pathname === "/api/login" || (method === "POST" && pathname.startsWith("/oidc/interaction/"))) return "signin";
  if (method !== "POST") return null;
  if (pathname === "/api/error-logs") return "errorLog";
  if (isGenerationRequest(method, pathname)) return "generation";
  return null;
}

/** The table the counters live in (the RateLimit model; rate-limiter-flexible's RateLimiterPostgres layout). */
export const RATE_LIMIT_TABLE = "rate_limits";

/** Where counters are kept: PostgreSQL (the default: one count across all web processes) or this process's memory. */
export type RateLimitStore = { kind: "postgres"; pool: pg.Pool } | { kind: "memory" };

let limiterPool: pg.Pool | undefined;

/**
 * The rate limiters' own small pool (decision 133): one upsert per counted request, which must not queue behind
 * the app's Prisma queries. A connection that cannot be had within a second counts as Postgres being down.
 */
export function rateLimitPool(): pg.Pool {
  limiterPool ??= new pg.Pool({
    connectionString: getEnv().DATABASE_URL,
    max: 3,
    connectionTimeoutMillis: 1000,
    query_timeout: 2000,
    idleTimeoutMillis: 10_000,
    allowExitOnIdle: true,
  });
  return limiterPool;
}

/**
 * One limiter per kind. In PostgreSQL each request is one atomic upsert, so N processes count together; if
 * PostgreSQL fails, an in-memory limiter with the same rule counts instead (per process) until it answers again.
 * The key prefix names the rule, so a changed rule starts fresh counts.
 */
export function createRateLimiters(limits = RATE_LIMITS, store: RateLimitStore = { kind: "postgres", pool: rateLimitPool() }) {
  const limiters = Object.fromEntries(
    Object.entries(limits).map(([kind, rule]) => {
      const options = { keyPrefix: `${kind}:${rule.points}/${rule.durationSeconds}`, points: rule.points, duration: rule.durationSeconds };
      const memory = new RateLimiterMemory(options);
      if (store.kind === "memory") return [kind, memory];
      return [kind, new RateLimiterPostgres({ ...options, storeClient: store.pool, storeType: "pool", tableName: RATE_LIMIT_TABLE, tableCreated: true, insuranceLimiter: memory })];
    }),
  ) as Record<RateLimitKind, RateLimiterMemory | RateLimiterPostgres>;
  /** null when allowed; else the seconds to wait. */
  return async function consume(kind: RateLimitKind, key: string): Promise<number | null> {
    try {
      await limiters[kind].consume(key);
      return null;
    } catch (e) {
      if (e instanceof RateLimiterRes) return Math.max(1, Math.ceil(e.msBeforeNext / 1000));
      throw e;
    }
  };
}

// ── 405 for methods a route does not take ────────────────────────────────────────────────────────

export type { RouteEntry, RouteModuleShape };

const READ = ["GET", "HEAD"];
const WRITE = ["POST", "PUT", "PATCH", "DELETE"];

/** The methods a route module answers: pages are read without a loader; writes need an action. */
export function allowedMethods(module: RouteModuleShape): string[] {
  const readable = Boolean(module.loader) || Boolean(module.default);
  return [...(readable ? READ : []), ...(module.action ? WRITE : [])];
}

function routeTree(routes: RouteEntry[]): AgnosticRouteObject[] {
  const byParent = new Map<string | undefined, RouteEntry[]>();
  for (const r of routes) byParent.set(r.parentId, [...(byParent.get(r.parentId) ?? []), r]);
  const build = (parentId: string | undefined): AgnosticRouteObject[] =>
    (byParent.get(parentId) ?? []).map((r) =>
      r.index ? { id: r.id, path: r.path, index: true } : { id: r.id, path: r.path, children: build(r.id) },
    );
  return build(undefined);
}

/**
 * The route a path reaches (the deepest match), or null. Remembered per route list and path (bounded): matching
 * ranks every route of the app each time, which cost more than many requests' own work (decision 186).
 */
export function findRoute(routes: RouteEntry[], pathname: string): RouteEntry | null {
  let known = foundRoutes.get(routes);
  if (!known) foundRoutes.set(routes, (known = new Map()));
  const hit = known.get(pathname);
  if (hit !== undefined) return hit;
  const matches = matchRoutes(routeTree(routes), pathname);
  const leaf = matches?.at(-1)?.route;
  const found = leaf ? (routes.find((r) => r.id === leaf.id) ?? null) : null;
  if (known.size >= FOUND_ROUTES_MAX) known.clear();
  known.set(pathname, found);
  return found;
}
const FOUND_ROUTES_MAX = 5000;
const foundRoutes = new WeakMap<RouteEntry[], Map<string, RouteEntry | null>>();

/** Sends a Web Response (the helpers routes use) through Express: status, headers, body. */
async function sendResponse(res: ExpressResponse, response: Response): Promise<void> {
  res.status(response.status);
  response.headers.forEach((value, name) => res.setHeader(name, value));
  res.send(Buffer.from(await response.arrayBuffer()));
}

/**
 * Answers 405 with Allow and a JSON message when the route a request reaches does not take its method
 * (Remix would answer an HTML "Unexpected Server Error" and log a stack trace). Single-fetch data requests
 * (".data") are left to Remix.
 */
export function methodGuard(getRoutes: () => Promise<RouteEntry[]> | RouteEntry[]): RequestHandler {
  return (req, res, next) => {
    const pathname = req.path;
    if (pathname.endsWith(".data")) return next();
    Promise.resolve(getRoutes())
      .then((routes) => {
        const route = findRoute(routes, pathname);
        if (!route || route.module.default && READ.includes(req.method)) return next();
        const allow = allowedMethods(route.module);
        if (allow.includes(req.method)) return next();
        if (route.path === "*" && !READ.includes(req.method)) {
          res.status(404).set("Cache-Control", "no-store").json({ message: `Nothing is at ${pathname}.` });
          return;
        }
        void sendResponse(res, methodNotAllowed(allow, `${pathname} does not take ${req.method}. Use ${allow.join(" or ")}.`));
      })
      .catch(next);
  };
}

/** The routes of a Remix server build, as the guard reads them (one list per build, so what findRoute learns stays). */
export function routesOfBuild(build: { routes: Record<string, { id: string; parentId?: string; path?: string; index?: boolean; module: unknown }> }): RouteEntry[] {
  let routes = routesOfBuilds.get(build);
  if (!routes) {
    routes = Object.values(build.routes).map((r) => ({ id: r.id, parentId: r.parentId, path: r.path, index: r.index, module: r.module as RouteModuleShape }));
    routesOfBuilds.set(build, routes);
  }
  return routes;
}
const routesOfBuilds = new WeakMap<object, RouteEntry[]>();

// ── the gates, in order ──────────────────────────────────────────────────────────────────────────

/**
 * The largest declared body the gate lets through to a route (decision 198): as much as the server will read and drop
 * after answering (UNREAD_BODY_DRAIN_BYTES), so that every route answers in its own order (signed in, owner, then the
 * body: 413 naming the route's own limit) and the client reads that answer. The scene upload takes more when the
 * clip limit (CLIP_UPLOAD_MAX_MB) is higher. Past it, the gate answers 413 at once and closes the connection.
 */
export const MAX_DECLARED_BODY_BYTES = UNREAD_BODY_DRAIN_BYTES;

/** The declared body past which the gate refuses a request to `pathname`, unread. */
export function declaredBodyLimit(pathname: string): number {
  if (pathname === "/api/scene-media") return Math.max(MAX_DECLARED_BODY_BYTES, getEnv().CLIP_UPLOAD_MAX_MB * 1024 * 1024 + MULTIPART_OVERHEAD);
  // the owner's neural voice upload (decision 210): a Piper model of up to 200 MB
  if (pathname === VOICE_UPLOAD_PATH) return Math.max(MAX_DECLARED_BODY_BYTES, VOICE_UPLOAD_MAX_BYTES + MULTIPART_OVERHEAD);
  return MAX_DECLARED_BODY_BYTES;
}

export type GateOptions = {
  env: Pick<Env, "PUBLIC_URL" | "OIDC_ISSUER" | "HOST" | "DANGEROUSLY_EXPOSE_BUILTIN_SIGNIN" | "TRUST_PROXY">;
  dev: boolean;
  /** The built-in provider's router, when it is on. */
  oidcRouter?: RequestHandler | null;
  oidcPath?: string;
  routes: () => Promise<RouteEntry[]> | RouteEntry[];
  /** Rules to use instead of RATE_LIMITS (tests); a kind left out keeps its RATE_LIMITS rule. */
  rateLimits?: Partial<typeof RATE_LIMITS>;
  /** Where the counts live; PostgreSQL unless given (see createRateLimiters). */
  rateLimitStore?: RateLimitStore;
};

/**
 * The client's address for rate limits and logs (decision 197): with TRUST_PROXY, Express's `req.ip` read from
 * X-Forwarded-For through the trusted proxies; without it, the socket's address (forwarded headers ignored).
 */
export function clientAddress(req: ExpressRequest): string {
  return req.ip ?? req.socket.remoteAddress ?? "unknown";
}

const origins = new Map<string, string>();
/** PUBLIC_URL's origin, parsed once (the door check runs for every /api request). */
function originOf(url: string): string {
  let origin = origins.get(url);
  if (origin === undefined) {
    origin = new URL(url).origin;
    if (origins.size < 16) origins.set(url, origin);
  }
  return origin;
}

/**
 * What every /api and /mcp request meets first: a declared body over the cap is refused (413) before any route
 * reads it, and a write from another site (a cookie a page elsewhere could send) is refused (403), unless the
 * request carries only a bearer token. True when it answered.
 */
export function refusedAtTheDoor(req: ExpressRequest, res: ExpressResponse, publicUrl: string, { bearerOnly }: { bearerOnly: boolean }): boolean {
  const declared = Number(req.get("content-length") ?? "");
  const pathname = req.originalUrl.split("?")[0]!;
  const limit = declaredBodyLimit(pathname);
  if (Number.isFinite(declared) && declared > limit) {
    // more than the server would drain: answered, then the connection is closed (the client may not read this)
    const message = bodyTooLargeMessage(limit);
    res.status(413).set({ Connection: "close", "Cache-Control": "no-store" });
    if (isApiV1Path(pathname) || pathname === "/mcp") res.type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(problemBody(413, message)));
    else res.json({ message, field: null });
    return true;
  }
  const allowedOrigins = [`${req.protocol}://${req.get("host")}`, originOf(publicUrl)];
  if (!bearerOnly && isCrossSiteWrite({ method: req.method, origin: req.get("origin") ?? null, secFetchSite: req.get("sec-fetch-site") ?? null, allowedOrigins })) {
    res.status(403).json({ message: CROSS_SITE_MESSAGE });
    return true;
  }
  return false;
}

/** Mounts the gates on `app`; mount static files before and Remix after. */
export function mountGates(app: Express, options: GateOptions): void {
  // a refused body's rest is read and dropped once the answer is sent, so the client reads the answer (decision 198)
  app.use(drainUnreadBodies());
  const rules: typeof RATE_LIMITS = { ...RATE_LIMITS, ...options.rateLimits };
  // who the client is behind the operator's proxies: Express's own "trust proxy" (proxy-addr), off unless TRUST_PROXY
  app.set("trust proxy", options.env.TRUST_PROXY ?? false);
  const consume = createRateLimiters(rules, options.rateLimitStore);
  const tooMany = (res: ExpressResponse, kind: RateLimitKind, retryAfter: number) =>
    res.status(429).set({ "Retry-After": String(retryAfter), "Cache-Control": "no-store" }).json({ message: rules[kind].message });

  app.use(securityHeaders({ dev: options.dev, signInOrigin: options.env.OIDC_ISSUER ? new URL(options.env.OIDC_ISSUER).origin : null }));

  // Sign-in attempts, per address (before the provider, which handles its own POSTs).
  app.use(async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    const kind = rateLimitKindFor(req.method, req.path);
    if (kind !== "signin") return next();
    const wait = await consume("signin", clientAddress(req)).catch(() => null);
    if (wait === null) return next();
    console.warn(`web: too many sign-in attempts from ${clientAddress(req)}, answered 429 (retry after ${wait} s)`);
    if (req.path === "/api/login") {
      res.set("Retry-After", String(wait)).redirect(302, `/login-failed?${new URLSearchParams({ error: "too_many_attempts" })}`);
      return;
    }
    tooMany(res, "signin", wait);
  });

  if (options.oidcRouter && options.oidcPath) {
    const env = options.env;
    app.use(options.oidcPath, (req, res, next) => {
      if (mayUseBuiltinSignIn(env, { remoteAddress: req.socket.remoteAddress, headers: req.headers })) return next();
      res.status(403).set("Cache-Control", "no-store").type("text/plain").send(BUILTIN_SIGNIN_REMOTE_MESSAGE);
    });
    app.use(options.oidcPath, options.oidcRouter);
  }

  app.use("/api", async (req, res, next) => {
    try {
      const pathname = req.originalUrl.split("?")[0]!;
      // /api/v1 with a bearer token and no cookie: nothing another site could forge, so no cross-site check
      // (decision 160); with a cookie it is judged as any /api request
      const v1 = isApiV1Path(pathname);
      if (refusedAtTheDoor(req, res, options.env.PUBLIC_URL, { bearerOnly: v1 && isBearerOnlyRequest({ authorization: req.get("authorization"), cookie: req.get("cookie") }) })) return;
      if (isPublicApiPath(pathname) || PUBLIC_API_V1_PATHS.includes(pathname)) return next();
      // a token request (a bearer header, or neither header: the 401 then names the token) is judged by its token
      if (v1 && (req.get("authorization") || !req.get("cookie"))) return void (await tokenGate(req, res, next, pathname));
      const userId = await getSessionUserId(req.get("cookie") ?? null);
      if (!userId) {
        res.status(401).json({ message: NOT_SIGNED_IN_MESSAGE });
        return;
      }
      const kind = rateLimitKindFor(req.method, pathname);
      if (kind && kind !== "signin") {
        const wait = await consume(kind, userId);
        if (wait !== null) return void tooMany(res, kind, wait);
      }
      next();
    } catch (e) {
      // the session lookup or the rate limit's store: a database that is down or busy is a 503 in words
      const unavailable = unavailableResponseFor(e);
      if (unavailable) void sendResponse(res, unavailable);
      else next(e);
    }
  });

  // /mcp, the MCP server (issue 32, decision 162): the same rules as /api/v1 (a token without a cookie skips the
  // cross-site check; counted per owner); with a cookie, checked as any /api request
  app.use("/mcp", async (req, res, next) => {
    try {
      if (refusedAtTheDoor(req, res, options.env.PUBLIC_URL, { bearerOnly: isBearerOnlyRequest({ authorization: req.get("authorization"), cookie: req.get("cookie") }) })) return;
      if (req.get("authorization") || !req.get("cookie")) return void (await tokenGate(req, res, next, "/mcp"));
      const userId = await getSessionUserId(req.get("cookie") ?? null);
      if (!userId) {
        res.status(401).json({ message: NOT_SIGNED_IN_MESSAGE });
        return;
      }
      const wait = await consume("api", userId);
      if (wait !== null) return void tooMany(res, "api", wait);
      next();
    } catch (e) {
      const unavailable = unavailableResponseFor(e);
      if (unavailable) void sendResponse(res, unavailable);
      else next(e);
    }
  });

  /** A token request: authenticated by its bearer token (never a cookie), then counted per owner (decision 160). */
  async function tokenGate(req: ExpressRequest, res: ExpressResponse, next: NextFunction, pathname: string): Promise<void> {
    const answer = await checkApiToken({ method: req.method, pathname, authorization: req.get("authorization") ?? null });
    if (!answer.ok) {
      res.status(answer.status).set(answer.headers).type("application/problem+json").send(JSON.stringify(answer.body));
      return;
    }
    const kinds: RateLimitKind[] = isGenerationRequest(req.method, pathname) ? ["api", "generation"] : ["api"];
    for (const kind of kinds) {
      const wait = await consume(kind, answer.caller.userId);
      if (wait !== null) {
        const rule = rules[kind];
        res.status(429).set({ "Retry-After": String(wait), "Cache-Control": "no-store" }).type("application/problem+json")
          .send(JSON.stringify({ type: "https://reelsmith.dev/problems/rate-limited", title: "Too many requests", status: 429, detail: rule.message, field: null }));
        return;
      }
    }
    next();
  }

  app.use(methodGuard(options.routes));
}

/**
 * What the Remix handler hands loaders as `context`: who is calling, for loopback-only answers (/healthz), and
 * the response's script nonce (for the page's inline scripts, and for a route that writes its own HTML).
 */
export type RequestContext = { remoteAddress: string | null; proxied: boolean; clientAddress?: string; cspNonce?: string };

export function requestContext(req: ExpressRequest, res?: ExpressResponse): RequestContext {
  const proxied = ["forwarded", "x-forwarded-for", "x-real-ip"].some((h) => req.headers[h] !== undefined);
  const cspNonce = typeof res?.locals.cspNonce === "string" ? res.locals.cspNonce : undefined;
  return { remoteAddress: req.socket.remoteAddress ?? null, proxied, clientAddress: clientAddress(req), ...(cspNonce ? { cspNonce } : {}) };
}

/** The script nonce in a loader's or the entry's context (undefined when the gates did not run, as in unit tests). */
export function cspNonceOf(context: unknown): string | undefined {
  const nonce = (context as Partial<RequestContext> | undefined)?.cspNonce;
  return typeof nonce === "string" && /^[A-Za-z0-9+/=]{16,64}$/.test(nonce) ? nonce : undefined;
}

/** True when a loader's context says the caller is on this machine and came straight (no proxy). */
export function isLocalCaller(context: unknown): boolean {
  const c = context as Partial<RequestContext> | undefined;
  return Boolean(c && !c.proxied && isLoopbackAddress(c.remoteAddress));
}
