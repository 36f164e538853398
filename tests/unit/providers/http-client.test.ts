// The shared HTTP client: one request per call (Temporal owns the retries, decision 200), cut at the caller's
// deadline and cancellation, heartbeating while it waits, and failures classified so a retry is tried only where it
// can help; plus its pieces that need no server (Retry-After, readable error bodies).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createHttpClient, describeErrorBody, parseRetryAfter } from "~/providers/http.server";
import { NON_RETRYABLE_PROVIDER_ERRORS, ProviderError } from "~/providers/errors";

/** A server answering each request as `answer` says; it counts requests and connections closed before an answer. */
let answer: (res: http.ServerResponse) => void = (res) => res.end("{}");
let requests = 0;
let abandoned = 0;
const server = http.createServer((req, res) => {
  requests++;
  res.on("close", () => {
    if (!res.writableFinished) abandoned++;
  });
  req.resume();
  req.on("end", () => answer(res));
});
let base = "";
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  requests = 0;
  abandoned = 0;
});

const status = (code: number, body: unknown, headers: Record<string, string> = {}) => (res: http.ServerResponse) =>
  res.writeHead(code, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
const never = () => {};
const failure = (promise: Promise<unknown>) => promise.then(() => expect.fail("expected a failure"), (e: unknown) => e as ProviderError);
const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
};

describe("provider HTTP client: one request, the caller's limits", () => {
  it("makes exactly one request for a 500 and says how many attempts ran", async () => {
    answer = status(500, { error: { message: "boom" } });
    const error = await failure(createHttpClient({ provider: "Svc", call: { attempt: 3 } }).request(`${base}/x`));
    expect([error.name, error.retryable, requests]).toEqual(["ProviderUnavailableError", true, 1]);
    expect(error.message).toBe("Svc failed with HTTP 500 after 3 attempts: boom. Try again later.");
  });

  it("ends before the caller's deadline, whatever the policy allows, and closes the connection", async () => {
    answer = never;
    const started = Date.now();
    const client = createHttpClient({ provider: "Svc", policy: { timeoutMs: 60_000 }, call: { deadlineMs: Date.now() + 2600 } });
    const error = await failure(client.request(`${base}/slow`));
    expect(error.name).toBe("ProviderTimeoutError");
    expect(Date.now() - started).toBeLessThan(1500);
    await until(() => abandoned === 1);
    expect(abandoned).toBe(1);
  });

  it("passes the caller's cancellation to the request: the server sees the connection close", async () => {
    answer = never;
    const cancel = new AbortController();
    const pending = createHttpClient({ provider: "Svc", call: { signal: cancel.signal } }).request(`${base}/long`);
    await until(() => requests === 1);
    cancel.abort(new Error("activity cancelled"));
    await expect(pending).rejects.toThrow("activity cancelled");
    await until(() => abandoned === 1);
    expect(abandoned).toBe(1);
  });

  it("heartbeats while it waits", async () => {
    let beats = 0;
    answer = (res) => setTimeout(() => status(200, { ok: true })(res), 700);
    const client = createHttpClient({ provider: "Svc", call: { heartbeat: () => beats++, heartbeatIntervalMs: 100 } });
    expect(await (await client.request(`${base}/wait`)).json()).toEqual({ ok: true });
    expect(beats).toBeGreaterThanOrEqual(4);
  });

  it("marks what a retry cannot fix as non-retryable with the service's reason, and 408/429/5xx as retryable", async () => {
    const client = createHttpClient({ provider: "Svc" });
    const cases: [number, string, boolean][] = [
      [400, "ProviderRejectedError", false],
      [404, "ProviderRejectedError", false],
      [422, "ProviderRejectedError", false],
      [401, "ProviderAuthError", false],
      [408, "ProviderTimeoutError", true],
      [429, "ProviderRateLimitedError", true],
      [502, "ProviderUnavailableError", true],
    ];
    for (const [code, name, retryable] of cases) {
      answer = status(code, { detail: { message: `reason ${code}` } });
      const error = await failure(client.request(`${base}/c`));
      expect([code, error.name, error.retryable]).toEqual([code, name, retryable]);
      if (code === 404) expect(error.message).toBe("Svc refused the request (HTTP 404): reason 404.");
    }
    expect(requests).toBe(cases.length);
  });

  it("hands a 429's Retry-After to the next attempt instead of sleeping, and gives up on one too long to wait", async () => {
    answer = status(429, {}, { "retry-after": "7" });
    const client = createHttpClient({ provider: "Svc", policy: { maxRetryAfterMs: 60_000 } });
    const started = Date.now();
    const soon = await failure(client.request(`${base}/r`));
    expect([soon.retryable, soon.retryAfterMs]).toEqual([true, 7000]);
    expect(Date.now() - started).toBeLessThan(1000);
    answer = status(429, {}, { "retry-after": "3600" });
    const late = await failure(client.request(`${base}/r`));
    expect(late.retryable).toBe(false);
    expect(late.message).toMatch(/^Svc asks us to wait until \d\d:\d\d UTC \(HTTP 429, after 1 attempt\)\. Try again after that time\.$/);
  });

  it("does not let a paid request be retried when its answer was lost, but does when nothing reached the service", async () => {
    const client = createHttpClient({ provider: "Svc", policy: { timeoutMs: 300 } });
    answer = status(500, { error: { message: "boom" } });
    const failed = await failure(client.request(`${base}/p`, { method: "POST" }, { paid: true }));
    expect([failed.name, failed.retryable]).toEqual(["ProviderUnconfirmedError", false]);
    answer = never;
    const lost = await failure(client.text(`${base}/p`, { method: "POST" }, { paid: true }));
    expect([lost.name, lost.retryable]).toEqual(["ProviderUnconfirmedError", false]);
    answer = status(503, {});
    expect((await failure(client.request(`${base}/p`, { method: "POST" }, { paid: true }))).retryable).toBe(true);
    // a port nobody listens on any more: the connection is refused, nothing was sent
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refused = await failure(client.request(`http://127.0.0.1:${port}/p`, { method: "POST" }, { paid: true }));
    expect([refused.name, refused.retryable]).toEqual(["ProviderNetworkError", true]);
  });
});

describe("provider HTTP client: pieces", () => {
  it("reads Retry-After as seconds or as an HTTP date", () => {
    expect(parseRetryAfter("3")).toBe(3000);
    expect(parseRetryAfter("0.5")).toBe(500);
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(parseRetryAfter("Wed, 01 Jan 2025 00:00:10 GMT", now)).toBe(10_000);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter("soon")).toBeUndefined();
  });

  it("keeps the service's own message from a JSON error body", () => {
    expect(describeErrorBody('{"error":{"code":400,"message":"API key not valid."}}')).toBe("API key not valid.");
    expect(describeErrorBody('{"detail":{"status":"x","message":"Invalid API key"}}')).toBe("Invalid API key");
    expect(describeErrorBody('{"code":401,"msg":"No access"}')).toBe("No access");
    expect(describeErrorBody("<html>  Bad   Gateway </html>")).toBe("<html> Bad Gateway </html>");
  });

  it("names errors by kind and marks the permanent ones", () => {
    const auth = new ProviderError("ElevenLabs", "auth", "ElevenLabs rejected the API key.");
    expect([auth.name, auth.retryable]).toEqual(["ProviderAuthError", false]);
    expect(new ProviderError("Suno", "rate_limited", "slow down").retryable).toBe(true);
    expect(new ProviderError("Suno", "unconfirmed", "lost").retryable).toBe(false);
    expect(NON_RETRYABLE_PROVIDER_ERRORS).toEqual(expect.arrayContaining([auth.name, "ProviderUnconfirmedError"]));
  });
});
