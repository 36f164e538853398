// The providers an activity uses for a user: the cloud service when the user saved its key, offline otherwise.
import { ApplicationFailure } from "@temporalio/activity";
import { providersFor, stockMediaFor } from "~/providers/index.server";
import { getProviderKeys } from "~/server/settings.server";

export async function providersForUser(userId: string) {
  return providersFor(await getProviderKeys(userId));
}

/** The creator's Pexels stock media, or null when they saved no Pexels key. */
export async function stockMediaForUser(userId: string) {
  return stockMediaFor(await getProviderKeys(userId));
}

/**
 * Provider errors that retrying cannot fix (a rejected key, a refused prompt) become non-retryable
 * failures, so Temporal stops at once and the creator sees the reason.
 */
export function asActivityFailure(error: unknown): unknown {
  if (error instanceof ApplicationFailure) return error;
  const e = error as { retryable?: boolean; name?: string; message?: string };
  if (e && e.retryable === false) {
    return ApplicationFailure.nonRetryable(e.message ?? String(error), e.name ?? "ProviderError");
  }
  return error;
}
