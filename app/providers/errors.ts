// Provider failures, classified so callers know whether trying again can help and people know what to do.
// The error's `name` is its kind (e.g. "ProviderAuthError"): Temporal retry policies match on it.

import { scrubSecrets } from "~/lib/scrub";

export type ProviderErrorKind = "auth" | "rate_limited" | "unavailable" | "timeout" | "network" | "rejected" | "malformed";

const NAMES: Record<ProviderErrorKind, string> = {
  auth: "ProviderAuthError",
  rate_limited: "ProviderRateLimitedError",
  unavailable: "ProviderUnavailableError",
  timeout: "ProviderTimeoutError",
  network: "ProviderNetworkError",
  rejected: "ProviderRejectedError",
  malformed: "ProviderMalformedError",
};

/** Kinds that retrying the same request cannot fix: a bad key, a refused request, an answer we cannot read. */
const PERMANENT: ReadonlySet<ProviderErrorKind> = new Set(["auth", "rejected", "malformed"]);

/** Error names a Temporal retry policy should list under nonRetryableErrorTypes. */
export const NON_RETRYABLE_PROVIDER_ERRORS = [NAMES.auth, NAMES.rejected, NAMES.malformed];

export class ProviderError extends Error {
  readonly retryable: boolean;
  constructor(
    readonly provider: string,
    readonly kind: ProviderErrorKind,
    message: string,
    readonly status?: number,
  ) {
    // Provider answers may echo a key (?key=..., a header): scrubbed before the text reaches pages, logs or history.
    super(scrubSecrets(message));
    this.name = NAMES[kind];
    this.retryable = !PERMANENT.has(kind);
  }
}

export function isProviderError(error: unknown): error is ProviderError {
  return error instanceof ProviderError;
}
