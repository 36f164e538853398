// Provider failures, classified so callers know whether trying again can help and people know what to do.
// The error's `name` is its kind (e.g. "ProviderAuthError"): Temporal retry policies match on it.

import { scrubSecrets } from "~/lib/scrub";

export type ProviderErrorKind = "auth" | "rate_limited" | "unavailable" | "timeout" | "network" | "rejected" | "malformed" | "unconfirmed";

const NAMES: Record<ProviderErrorKind, string> = {
  auth: "ProviderAuthError",
  rate_limited: "ProviderRateLimitedError",
  unavailable: "ProviderUnavailableError",
  timeout: "ProviderTimeoutError",
  network: "ProviderNetworkError",
  rejected: "ProviderRejectedError",
  malformed: "ProviderMalformedError",
  unconfirmed: "ProviderUnconfirmedError",
};

/**
 * Kinds that retrying the same request cannot fix: a bad key, a refused request, an answer we cannot read; and a
 * paid request sent whose answer was lost ("unconfirmed"), which a retry could pay for twice (decision 200).
 */
const PERMANENT: ReadonlySet<ProviderErrorKind> = new Set(["auth", "rejected", "malformed", "unconfirmed"]);

/** Error names a Temporal retry policy should list under nonRetryableErrorTypes. */
export const NON_RETRYABLE_PROVIDER_ERRORS = [NAMES.auth, NAMES.rejected, NAMES.malformed, NAMES.unconfirmed];

export type ProviderErrorOptions = {
  /** How long the service asked us to wait before the next attempt (Retry-After): Temporal's next retry delay. */
  retryAfterMs?: number;
  /** Overrides the kind's answer (a request allowance used up for hours is rate limited but not worth retrying). */
  retryable?: boolean;
};

export class ProviderError extends Error {
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
  constructor(
    readonly provider: string,
    readonly kind: ProviderErrorKind,
    message: string,
    readonly status?: number,
    options: ProviderErrorOptions = {},
  ) {
    // Provider answers may echo a key (?key=..., a header): scrubbed before the text reaches pages, logs or history.
    super(scrubSecrets(message));
    this.name = NAMES[kind];
    this.retryable = options.retryable ?? !PERMANENT.has(kind);
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }
}

export function isProviderError(error: unknown): error is ProviderError {
  return error instanceof ProviderError;
}
