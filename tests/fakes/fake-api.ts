// A small local HTTP server that the service fakes build on: routes, a key check, a log of requests, and
// switches that make the next answers fail the ways real services do (429, 5xx, slow, malformed). The server itself
// (loopback, sockets ended at stop) is the one every fake shares: tests/fakes/loopback-fake.ts.
import type http from "node:http";
import { LoopbackFake } from "./loopback-fake";

export type FakeRequest = { method: string; path: string; query: URLSearchParams; headers: http.IncomingHttpHeaders; body: Buffer; json: () => unknown };
export type FakeResponse = {
  status?: number;
  json?: unknown;
  body?: Buffer | string;
  contentType?: string;
  headers?: Record<string, string>;
  /** Sent piece by piece (chunked), `delayMs` apart: a streamed answer such as server-sent events. */
  stream?: { chunks: string[]; delayMs?: number };
};
export type Route = { method: string; pattern: RegExp; handle: (req: FakeRequest, params: string[]) => FakeResponse | Promise<FakeResponse> };

export type Trouble =
  | { kind: "rate-limit"; retryAfterSeconds?: number; headers?: Record<string, string> }
  | { kind: "server-error"; status?: number }
  | { kind: "slow"; delayMs: number }
  | { kind: "malformed" };

type QueuedTrouble = Trouble & { remaining: number; path?: RegExp; skip: number };

export abstract class FakeApi extends LoopbackFake {
  readonly requests: FakeRequest[] = [];
  /** Requests whose client closed the connection before the answer was sent (a cancelled or timed-out caller). */
  readonly abandoned: FakeRequest[] = [];
  private troubles: QueuedTrouble[] = [];

  constructor(readonly apiKey: string) {
    super();
  }

  protected abstract routes(): Route[];
  /** The key this request carries, as the real service reads it. */
  protected abstract keyOf(req: FakeRequest): string | undefined;
  /** The service's documented answer to a missing or wrong key. */
  protected abstract rejectedKey(): FakeResponse;
  /** Paths served without a key (e.g. generated files on a CDN). */
  protected isPublic(_req: FakeRequest): boolean {
    return false;
  }

  /**
   * Makes the next `times` requests (optionally only those whose path matches) fail this way, after letting `skip`
   * of them through.
   */
  trouble(trouble: Trouble, times = 1, path?: RegExp, skip = 0): this {
    this.troubles.push({ ...trouble, remaining: times, path, skip });
    return this;
  }

  /** Forgets the requests seen and any trouble still queued (between tests). */
  reset(): this {
    this.requests.length = 0;
    this.abandoned.length = 0;
    this.troubles = [];
    return this;
  }

  requestsTo(path: RegExp): FakeRequest[] {
    return this.requests.filter((r) => path.test(r.path));
  }

  protected async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    await this.answer(req, await this.body(req), res);
  }

  protected internalError(res: http.ServerResponse, e: unknown) {
    if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
    res.end(`fake failed: ${e instanceof Error ? e.message : String(e)}`);
  }

  private async answer(req: http.IncomingMessage, body: Buffer, res: http.ServerResponse) {
    const url = new URL(req.url ?? "/", "http://fake");
    const request: FakeRequest = {
      method: req.method ?? "GET",
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body,
      json: () => JSON.parse(body.toString("utf8") || "null"),
    };
    this.requests.push(request);
    res.on("close", () => {
      if (!res.writableFinished) this.abandoned.push(request);
    });
    const send = async (r: FakeResponse) => {
      if (res.destroyed) return;
      if (r.stream) {
        res.writeHead(r.status ?? 200, { "content-type": r.contentType ?? "text/event-stream", "cache-control": "no-cache", ...r.headers });
        for (const chunk of r.stream.chunks) {
          if (res.destroyed) return;
          res.write(chunk);
          if (r.stream.delayMs) await new Promise((done) => setTimeout(done, r.stream!.delayMs));
        }
        res.end();
        return;
      }
      const payload = r.json !== undefined ? JSON.stringify(r.json) : (r.body ?? "");
      res.writeHead(r.status ?? 200, { "content-type": r.contentType ?? (r.json !== undefined ? "application/json" : "application/octet-stream"), ...r.headers });
      res.end(payload);
    };

    let trouble = this.troubles.find((t) => t.remaining > 0 && (!t.path || t.path.test(request.path)));
    if (trouble && trouble.skip > 0) {
      trouble.skip--;
      trouble = undefined;
    }
    if (trouble) trouble.remaining--;
    if (trouble?.kind === "slow") await new Promise((r) => setTimeout(r, trouble.delayMs));
    if (trouble?.kind === "rate-limit") {
      return send({
        status: 429,
        json: { error: { code: 429, message: "Too many requests", status: "RESOURCE_EXHAUSTED" } },
        headers: { ...(trouble.retryAfterSeconds !== undefined ? { "retry-after": String(trouble.retryAfterSeconds) } : {}), ...trouble.headers },
      });
    }
    if (trouble?.kind === "server-error") return send({ status: trouble.status ?? 500, json: { error: { code: trouble.status ?? 500, message: "Internal error" } } });
    if (trouble?.kind === "malformed") return send({ status: 200, json: { unexpected: "shape" } });

    if (!this.isPublic(request) && this.keyOf(request) !== this.apiKey) return send(this.rejectedKey());
    for (const route of this.routes()) {
      const match = route.method === request.method ? route.pattern.exec(request.path) : null;
      if (match) return send(await route.handle(request, match.slice(1)));
    }
    await send({ status: 404, json: { error: `No route ${request.method} ${request.path}` } });
  }
}

/** A sine tone as little-endian 16-bit PCM, `seconds` long: audible, not silence. */
export function tonePcm(seconds: number, sampleRate: number, frequency = 220): Buffer {
  const count = Math.round(seconds * sampleRate);
  const pcm = Buffer.alloc(count * 2);
  for (let i = 0; i < count; i++) pcm.writeInt16LE(Math.round(Math.sin((2 * Math.PI * frequency * i) / sampleRate) * 8000), i * 2);
  return pcm;
}
