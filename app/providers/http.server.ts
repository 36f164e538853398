// One HTTP client for every cloud adapter. Temporal owns the retries (decision 200): a call makes ONE request, with a
// timeout inside the caller's own deadline, the caller's cancellation passed to the fetch, heartbeats while it waits,
// and every failure classified as a ProviderError that says whether a retry can help (4xx other than 408/429: no;
// 429: yes, after the Retry-After the service asked for). A paid request (one that starts a generation) whose answer
// was lost is never worth a retry: the service may have started, and charged for, the job.
import type { z } from "zod";
import { attemptsSaid, type ProviderCall } from "./call";
import { providerCallStarted } from "./call-observers";
import { ProviderError } from "./errors";

export type RequestPolicy = {
  /** Time allowed for one request (its answer included); a caller's deadline shortens it. */
  timeoutMs: number;
  /** A Retry-After longer than this is not worth waiting for: the call fails for good, saying when to try again. */
  maxRetryAfterMs: number;
};

export const DEFAULT_REQUEST_POLICY: RequestPolicy = { timeoutMs: 60_000, maxRetryAfterMs: 10 * 60_000 };

/** Time kept back from a caller's deadline, so the request ends (and says why) before the attempt is timed out. */
export const DEADLINE_MARGIN_MS = 2000;
const DEFAULT_HEARTBEAT_MS = 5000;

export type HttpClientOptions = {
  /** The service's name as people know it, used in every message ("ElevenLabs rejected the API key"). */
  provider: string;
  policy?: Partial<RequestPolicy>;
  /** The attempt this client works for (an activity's): cancellation, deadline, heartbeats, job ledger. */
  call?: ProviderCall;
  /** Recognises a rejected key in an error answer besides 401/403 (Gemini answers 400 API_KEY_INVALID). */
  isAuthFailure?: (status: number, body: string) => boolean;
  /** Adds the service's own words to a rejected-key message (a model server says which key or header it wanted). */
  authDetail?: boolean;
};

/** Per request: `paid` marks a request that starts a job the creator pays for (decision 200). */
export type RequestOptions = { paid?: boolean };

/** Network failures where nothing reached the service (no connection was made): safe to retry even when paid. */
const NOT_SENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ENETUNREACH", "EHOSTUNREACH"]);

/** The request's own signal (an SDK's) joined with ours. */
const withSignal = (init: RequestInit, signal: AbortSignal): RequestInit => ({ ...init, signal: init.signal ? AbortSignal.any([init.signal, signal]) : signal });

function causeCode(error: unknown): string | undefined {
  let e = error as { code?: unknown; cause?: unknown; errors?: unknown[] } | undefined;
  for (let depth = 0; e && depth < 5; depth++) {
    if (typeof e.code === "string") return e.code;
    // a connection tried on several addresses fails with an AggregateError of each one's failure
    e = (e.cause ?? e.errors?.[0]) as typeof e;
  }
  return undefined;
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * How long until a used-up request allowance renews, in ms: X-Ratelimit-Reset (UNIX seconds, as Pexels documents
 * it) when X-Ratelimit-Remaining says 0; undefined otherwise.
 */
export function parseQuotaReset(headers: Headers, now = Date.now()): number | undefined {
  if (headers.get("x-ratelimit-remaining")?.trim() !== "0") return undefined;
  const reset = Number(headers.get("x-ratelimit-reset"));
  if (!Number.isFinite(reset) || reset <= 0) return undefined;
  return Math.max(0, reset * 1000 - now);
}

/** A short, readable excerpt of an error body: the service's own message when it sent JSON. */
export function describeErrorBody(body: string): string {
  try {
    const json = JSON.parse(body) as Record<string, unknown>;
    const candidates = [
      (json.error as { message?: unknown } | undefined)?.message,
      (json.detail as { message?: unknown } | undefined)?.message,
      json.detail,
      json.msg,
      json.message,
      json.error,
    ];
    const found = candidates.find((c) => typeof c === "string" && c.trim());
    if (typeof found === "string") return found.slice(0, 300);
  } catch {
    // not JSON: fall through to the raw text
  }
  return body.replace(/\s+/g, " ").trim().slice(0, 300);
}

export type HttpClient = ReturnType<typeof createHttpClient>;

export function createHttpClient(options: HttpClientOptions) {
  const policy: RequestPolicy = { ...DEFAULT_REQUEST_POLICY, ...options.policy };
  const { provider, call } = options;
  const attempts = () => attemptsSaid(call);

  function failureFor(status: number, body: string, headers: Headers, paid: boolean): ProviderError {
    const detail = describeErrorBody(body);
    if (status === 401 || status === 403 || options.isAuthFailure?.(status, body)) {
      const said = options.authDetail && detail ? ` (HTTP ${status}: ${detail})` : "";
      return new ProviderError(provider, "auth", `${provider} rejected the API key${said}. Check the key saved in Settings (API Keys).`, status);
    }
    if (status === 429) {
      // an allowance used up for the hour (or month) is not retried: the creator learns when it renews
      const quotaReset = parseQuotaReset(headers);
      const retryAfter = parseRetryAfter(headers.get("retry-after")) ?? quotaReset;
      if (retryAfter !== undefined && retryAfter > policy.maxRetryAfterMs) {
        const renews = new Date(Date.now() + retryAfter).toISOString().slice(11, 16);
        const what = quotaReset !== undefined ? `The ${provider} request allowance is used up until ${renews} UTC` : `${provider} asks us to wait until ${renews} UTC`;
        return new ProviderError(provider, "rate_limited", `${what} (HTTP 429, ${attempts()}). Try again after that time.`, 429, { retryable: false });
      }
      return new ProviderError(provider, "rate_limited", `${provider} is limiting requests (HTTP 429) ${attempts()}. Wait a few minutes, then try again.`, status, {
        retryAfterMs: retryAfter,
      });
    }
    if (status === 408) {
      return new ProviderError(provider, "timeout", `${provider} timed out the request (HTTP 408) ${attempts()}. Try again later.`, status);
    }
    if (status >= 500) {
      // a paid request the service failed may still have started the job, unless it says it is unavailable (503)
      if (paid && status !== 503) return unconfirmed(`answered HTTP ${status}${detail ? ` (${detail})` : ""}`, status);
      return new ProviderError(provider, "unavailable", `${provider} failed with HTTP ${status} ${attempts()}${detail ? `: ${detail}` : ""}. Try again later.`, status);
    }
    if (status === 402) {
      return new ProviderError(provider, "rejected", `${provider} refused the request: the account has no credits left (HTTP 402)${detail ? `: ${detail}` : ""}.`, status);
    }
    return new ProviderError(provider, "rejected", `${provider} refused the request (HTTP ${status})${detail ? `: ${detail}` : ""}.`, status);
  }

  /** A paid request that reached the service without a usable answer: not sent again (decision 200). */
  function unconfirmed(what: string, status?: number): ProviderError {
    return new ProviderError(
      provider,
      "unconfirmed",
      `${provider} ${what} after the request was sent (${attempts().replace("after ", "")}), so it may have started the generation. ` +
        `It was not sent again, so it is not paid for twice: check your ${provider} account, then press Generate to try again.`,
      status,
    );
  }

  /** The time this request may take: the policy's, cut to end before the caller's deadline. */
  function timeoutMs(): number {
    if (!call?.deadlineMs) return policy.timeoutMs;
    return Math.max(1, Math.min(policy.timeoutMs, call.deadlineMs - DEADLINE_MARGIN_MS - Date.now()));
  }

  /**
   * Runs `work` with a signal that ends at the timeout or the caller's cancellation, heartbeating while it waits.
   * A timeout or a network failure becomes a ProviderError; a cancellation is rethrown as it is.
   */
  async function within<T>(work: (signal: AbortSignal) => Promise<T>, paid: boolean): Promise<T> {
    // each request's provider, outcome and time, for the metrics (issue 54; call-observers.ts)
    const observed = providerCallStarted(provider, paid);
    try {
      const result = await withinLimits(work, paid);
      observed();
      return result;
    } catch (error) {
      observed(error);
      throw error;
    }
  }

  async function withinLimits<T>(work: (signal: AbortSignal) => Promise<T>, paid: boolean): Promise<T> {
    const limit = timeoutMs();
    const timeout = AbortSignal.timeout(limit);
    const signal = call?.signal ? AbortSignal.any([call.signal, timeout]) : timeout;
    const beat = call?.heartbeat ? setInterval(call.heartbeat, call.heartbeatIntervalMs ?? DEFAULT_HEARTBEAT_MS) : undefined;
    try {
      return await work(signal);
    } catch (error) {
      if (error instanceof ProviderError) throw error;
      if (call?.signal?.aborted) throw error;
      if (timeout.aborted) {
        if (paid) throw unconfirmed(`did not answer within ${Math.round(limit / 1000)} s`);
        throw new ProviderError(provider, "timeout", `${provider} did not answer within ${Math.round(limit / 1000)} s (${attempts().replace("after ", "")}). Try again later.`);
      }
      if (paid && !NOT_SENT.has(causeCode(error) ?? "")) throw unconfirmed(`dropped the connection (${(error as Error).message})`);
      throw new ProviderError(provider, "network", `Could not reach ${provider}: ${(error as Error).message} (${attempts().replace("after ", "")}).`);
    } finally {
      if (beat) clearInterval(beat);
    }
  }

  /**
   * One request. Resolves only with an OK response whose body may still be read within the same time limit;
   * every failure rejects with a ProviderError. Usable as the `fetch` of an SDK (the Gemini SDK takes one).
   */
  async function request(input: string | URL | Request, init: RequestInit = {}, { paid = false }: RequestOptions = {}): Promise<Response> {
    return within(async (signal) => {
      const response = await fetch(input, withSignal(init, signal));
      if (response.ok) return response;
      const body = await response.text().catch(() => "");
      throw failureFor(response.status, body, response.headers, paid);
    }, paid);
  }

  /** The whole answer as text, read within the request's time limit (a paid answer lost halfway is unconfirmed). */
  async function text(input: string | URL, init: RequestInit = {}, requestOptions: RequestOptions = {}): Promise<string> {
    const paid = requestOptions.paid ?? false;
    return within(async (signal) => {
      const response = await fetch(input, withSignal(init, signal));
      const body = await response.text();
      if (!response.ok) throw failureFor(response.status, body, response.headers, paid);
      return body;
    }, paid);
  }

  /** Validates a JSON answer; a shape we do not expect is a clear, non-retryable error. */
  async function readJson<T>(response: Response | string, schema: z.ZodType<T>, what: string): Promise<T> {
    const text = typeof response === "string" ? response : await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ProviderError(provider, "malformed", `${provider} sent ${what} that is not JSON: ${text.slice(0, 120)}`);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? issue.path.join(".") : "the body";
      throw new ProviderError(provider, "malformed", `${provider} sent ${what} we could not read (${where}: ${issue?.message ?? "unexpected shape"}).`);
    }
    return parsed.data;
  }

  async function getJson<T>(url: string, init: RequestInit, schema: z.ZodType<T>, what: string, requestOptions: RequestOptions = {}): Promise<T> {
    return readJson(await text(url, init, requestOptions), schema, what);
  }

  /** Downloads a file the service points to (a generated image or track), within one request's time limit. */
  async function download(url: string, init: RequestInit = {}): Promise<{ data: Buffer; contentType: string }> {
    const { data, contentType } = await within(async (signal) => {
      const response = await fetch(url, withSignal(init, signal));
      if (!response.ok) throw failureFor(response.status, await response.text().catch(() => ""), response.headers, false);
      return { data: Buffer.from(await response.arrayBuffer()), contentType: response.headers.get("content-type") ?? "application/octet-stream" };
    }, false);
    if (data.length === 0) throw new ProviderError(provider, "malformed", `${provider} returned an empty file at ${url}.`);
    return { data, contentType };
  }

  return { provider, policy, call, request, text, readJson, getJson, download };
}

/** What every cloud adapter is built from; tests pass a fake's URL, a short policy and a call of their own. */
export type CloudAdapterOptions = {
  apiKey: string;
  baseUrl: string;
  policy?: Partial<RequestPolicy>;
  call?: ProviderCall;
};

export const joinUrl = (base: string, path: string) => `${base.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`;
