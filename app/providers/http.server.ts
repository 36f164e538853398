// One HTTP client for every cloud adapter: a timeout per attempt, retries with exponential backoff on 429, 5xx,
// timeouts and network failures (honouring Retry-After), and failures turned into classified ProviderErrors.
import type { z } from "zod";
import { ProviderError } from "./errors";

export type RetryPolicy = {
  /** Total attempts, the first included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Time allowed for one attempt (until the response headers arrive). */
  timeoutMs: number;
  /** A Retry-After longer than this is not waited out: the call fails as rate limited instead. */
  maxRetryAfterMs: number;
};

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  attempts: 4,
  baseDelayMs: 1000,
  maxDelayMs: 20_000,
  timeoutMs: 60_000,
  maxRetryAfterMs: 60_000,
};

export type RetryNotice = { attempt: number; delayMs: number; reason: string };

export type HttpClientOptions = {
  /** The service's name as people know it, used in every message ("ElevenLabs rejected the API key"). */
  provider: string;
  retry?: Partial<RetryPolicy>;
  /** Called before each wait between attempts (tests and logs read the chosen delay here). */
  onRetry?: (notice: RetryNotice) => void;
  /** Recognises a rejected key in an error answer besides 401/403 (Gemini answers 400 API_KEY_INVALID). */
  isAuthFailure?: (status: number, body: string) => boolean;
  /** Adds the service's own words to a rejected-key message (a model server says which key or header it wanted). */
  authDetail?: boolean;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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

export function backoffDelay(attempt: number, policy: RetryPolicy): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  // Up to 20% jitter so many workers retrying together do not all hit the service at the same moment.
  return Math.round(exponential * (0.8 + Math.random() * 0.2));
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
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const { provider } = options;

  function failureFor(status: number, body: string, attempts: number): ProviderError {
    const detail = describeErrorBody(body);
    if (status === 401 || status === 403 || options.isAuthFailure?.(status, body)) {
      const said = options.authDetail && detail ? ` (HTTP ${status}: ${detail})` : "";
      return new ProviderError(provider, "auth", `${provider} rejected the API key${said}. Check the key saved in Settings (API Keys).`, status);
    }
    if (status === 429) {
      return new ProviderError(
        provider,
        "rate_limited",
        `${provider} is limiting requests (HTTP 429) and still was after ${attempts} attempt(s). Wait a few minutes, then try again.`,
        status,
      );
    }
    if (status >= 500) {
      return new ProviderError(
        provider,
        "unavailable",
        `${provider} failed with HTTP ${status} after ${attempts} attempt(s)${detail ? `: ${detail}` : ""}. Try again later.`,
        status,
      );
    }
    if (status === 402) {
      return new ProviderError(provider, "rejected", `${provider} refused the request: the account has no credits left (HTTP 402)${detail ? `: ${detail}` : ""}.`, status);
    }
    return new ProviderError(provider, "rejected", `${provider} refused the request (HTTP ${status})${detail ? `: ${detail}` : ""}.`, status);
  }

  const retryable = (status: number) => status === 429 || status === 408 || status >= 500;

  /**
   * fetch with the policy applied. Resolves only with an OK response; every failure rejects with a ProviderError.
   * Usable as the `fetch` of an SDK (the Gemini SDK takes one), so the SDK's calls get the same treatment.
   */
  async function request(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
    let lastFailure: ProviderError | undefined;
    for (let attempt = 1; attempt <= policy.attempts; attempt++) {
      const timeout = AbortSignal.timeout(policy.timeoutMs);
      const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
      let response: Response;
      try {
        response = await fetch(input, { ...init, signal });
      } catch (error) {
        if (init.signal?.aborted) throw error;
        lastFailure = timeout.aborted
          ? new ProviderError(provider, "timeout", `${provider} did not answer within ${Math.round(policy.timeoutMs / 1000)} s (${attempt} attempt(s)). Try again later.`)
          : new ProviderError(provider, "network", `Could not reach ${provider}: ${(error as Error).message} (${attempt} attempt(s)).`);
        if (attempt < policy.attempts) {
          const delayMs = backoffDelay(attempt, policy);
          options.onRetry?.({ attempt, delayMs, reason: lastFailure.message });
          await sleep(delayMs);
          continue;
        }
        throw lastFailure;
      }
      if (response.ok) return response;

      const body = await response.text().catch(() => "");
      lastFailure = failureFor(response.status, body, attempt);
      // an allowance used up for the hour (or month) is not retried: the creator learns when it renews
      const quotaReset = response.status === 429 ? parseQuotaReset(response.headers) : undefined;
      if (quotaReset !== undefined && quotaReset > policy.maxRetryAfterMs) {
        const renews = new Date(Date.now() + quotaReset).toISOString().slice(11, 16);
        throw new ProviderError(provider, "rate_limited", `The ${provider} request allowance is used up until ${renews} UTC (HTTP 429). Try again after that time.`, 429);
      }
      if (!retryable(response.status) || lastFailure.kind === "auth" || attempt === policy.attempts) throw lastFailure;
      const retryAfter = parseRetryAfter(response.headers.get("retry-after")) ?? quotaReset;
      if (retryAfter !== undefined && retryAfter > policy.maxRetryAfterMs) throw lastFailure;
      const delayMs = retryAfter ?? backoffDelay(attempt, policy);
      options.onRetry?.({ attempt, delayMs, reason: `HTTP ${response.status}` });
      await sleep(delayMs);
    }
    throw lastFailure ?? new ProviderError(provider, "unavailable", `${provider} could not be reached.`);
  }

  /** Validates a JSON answer; a shape we do not expect is a clear, non-retryable error. */
  async function readJson<T>(response: Response, schema: z.ZodType<T>, what: string): Promise<T> {
    const text = await response.text();
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

  async function getJson<T>(url: string, init: RequestInit, schema: z.ZodType<T>, what: string): Promise<T> {
    return readJson(await request(url, init), schema, what);
  }

  /** Downloads a file the service points to (a generated image or track). */
  async function download(url: string, init: RequestInit = {}): Promise<{ data: Buffer; contentType: string }> {
    const response = await request(url, init);
    const data = Buffer.from(await response.arrayBuffer());
    if (data.length === 0) throw new ProviderError(provider, "malformed", `${provider} returned an empty file at ${url}.`);
    return { data, contentType: response.headers.get("content-type") ?? "application/octet-stream" };
  }

  return { provider, policy, request, readJson, getJson, download };
}

/** What every cloud adapter is built from; tests pass a fake's URL, a short retry policy and onRetry. */
export type CloudAdapterOptions = {
  apiKey: string;
  baseUrl: string;
  retry?: Partial<RetryPolicy>;
  onRetry?: (notice: RetryNotice) => void;
};

export const joinUrl = (base: string, path: string) => `${base.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`;
