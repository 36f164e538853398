// The spec's status routes, answered before Remix (decision 186). A page polls them every 2-3 s, so what a poll
// costs beyond its own reads matters: Remix's request handling (matching the request against every route, the
// single-fetch machinery), the static-file lookup, the 405 guard's route matching and compressing a few hundred
// bytes of JSON cost several times the reads themselves. Here a GET or HEAD of one of these paths goes straight to
// the route module's own loader in the server build (the same function Remix would call, so the answer is the
// same), with the same security headers and door checks as every /api request. The loader checks the session
// itself (signed out: the same 401 JSON); status reads are not rate limited (decision 133 counts sign-ins,
// generation, error reports and API tokens only).
import type { ServerBuild } from "@remix-run/node";
import type { Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from "express";
import { forgetCaller, mayReuseCaller } from "../status-request.server";
import { refusedAtTheDoor } from "./web-app.server";
import { thrownResponse } from "../api.server";

/** The polling routes the pages call while something runs (spec section 7), answered by the fast path. */
export const STATUS_PATHS = [
  "/api/render-progress",
  "/api/script-status",
  "/api/storyboard-status",
  "/api/generate-all-content",
  "/api/music-tracks",
  "/api/render-background-music",
  "/api/youtube/upload-status",
] as const;

type Loader = (args: { request: Request; params: Record<string, string>; context: unknown }) => Promise<unknown>;
const loadersOfBuild = new WeakMap<ServerBuild, Map<string, Loader>>();

/** The loaders of the status routes in a server build, by path (a route without a loader is left to Remix). */
export function statusLoaders(build: ServerBuild): Map<string, Loader> {
  let loaders = loadersOfBuild.get(build);
  if (!loaders) {
    loaders = new Map();
    for (const route of Object.values(build.routes)) {
      const path = `/${(route.path ?? "").replace(/^\/+/, "")}`;
      const loader = route.module.loader as Loader | undefined;
      if (loader && (STATUS_PATHS as readonly string[]).includes(path)) loaders.set(path, loader);
    }
    loadersOfBuild.set(build, loaders);
  }
  return loaders;
}

/** A Web Request for the loader, carrying the Express request's headers (as Remix's adapter builds it). */
function webRequest(req: ExpressRequest, controller: AbortController): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  return new Request(`${req.protocol}://${req.get("host")}${req.originalUrl}`, { method: req.method, headers, signal: controller.signal });
}

async function send(res: ExpressResponse, response: Response, head: boolean): Promise<void> {
  const body = head ? null : Buffer.from(await response.arrayBuffer());
  res.statusCode = response.status;
  response.headers.forEach((value, name) => res.setHeader(name, value));
  if (body) res.setHeader("Content-Length", body.length);
  res.end(body ?? undefined);
}

export type StatusFastPathOptions = {
  /** the server build (a function in development, where Vite reloads it) */
  build: ServerBuild | (() => Promise<ServerBuild>);
  /** what Remix hands loaders as `context` (server.ts's requestContext) */
  context: (req: ExpressRequest, res: ExpressResponse) => unknown;
  /** the security headers every answer carries (web-app.server's securityHeaders) */
  securityHeaders: RequestHandler;
  /** PUBLIC_URL, for the door checks every /api request meets */
  publicUrl: string;
};

/**
 * Express middleware answering GET and HEAD of the status paths from their route modules' loaders; anything else
 * goes on. A thrown Response is sent as Remix sends it (with X-Remix-Catch); an unexpected error is logged by the
 * build's handleError and answered 500 "Unexpected Server Error", as Remix answers it in production.
 */
export function statusFastPath(options: StatusFastPathOptions): RequestHandler {
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    // ?_data is Remix's old data request: left to Remix, as anything unusual is
    if (!(STATUS_PATHS as readonly string[]).includes(req.path) || "_data" in req.query) return next();
    void answer(req, res, next).catch(next);
  };

  async function answer(req: ExpressRequest, res: ExpressResponse, next: (e?: unknown) => void): Promise<void> {
    const build = typeof options.build === "function" ? await options.build() : options.build;
    const loader = statusLoaders(build).get(req.path);
    if (!loader) return next();
    options.securityHeaders(req, res, () => {});
    if (refusedAtTheDoor(req, res, options.publicUrl, { bearerOnly: false })) return;
    const controller = new AbortController();
    res.once("close", () => !res.writableFinished && controller.abort());
    const request = webRequest(req, controller);
    mayReuseCaller(request);
    const args = { request, params: {}, context: options.context(req, res) };
    let response: Response;
    try {
      const result = await loader(args);
      response = result instanceof Response ? result : Response.json(result);
    } catch (thrown) {
      const e = thrownResponse(thrown) ?? thrown;
      if (e instanceof Response) {
        response = new Response(e.body, e);
        response.headers.set("X-Remix-Catch", "yes");
      } else {
        const handleError = build.entry.module.handleError;
        if (handleError) handleError(e, args as never);
        else console.error(e);
        response = new Response("Unexpected Server Error", { status: 500, headers: { "Content-Type": "text/plain" } });
      }
    }
    await send(res, response, req.method === "HEAD");
  }
}

/**
 * Express middleware for every request the fast path did not answer: a request carrying a session cookie forgets
 * that session's remembered caller when it starts and again once answered, so whatever it changed (a sign-out, a
 * project switch, an edit) is what the session's next status poll reads.
 */
export function forgetCallersOnOtherRequests(): RequestHandler {
  return (req, res, next) => {
    const cookie = req.headers.cookie;
    if (cookie) {
      forgetCaller(cookie);
      res.once("finish", () => forgetCaller(cookie));
      res.once("close", () => forgetCaller(cookie));
    }
    next();
  };
}
