// Shared pieces of the provider contract tests: a quick retry policy and a check of classified failures.
import { expect } from "vitest";
import type { RetryNotice, RetryPolicy } from "~/providers/http.server";

/** Short waits so the suite stays fast; the timeout still leaves a healthy fake plenty of time. */
export const QUICK_RETRY: Partial<RetryPolicy> = { attempts: 3, baseDelayMs: 10, maxDelayMs: 40, timeoutMs: 1500, maxRetryAfterMs: 5000 };

export function retryLog() {
  const notices: RetryNotice[] = [];
  return { notices, onRetry: (n: RetryNotice) => notices.push(n) };
}

export async function expectProviderFailure(promise: Promise<unknown>, name: string, message: RegExp) {
  const error = (await promise.then(
    () => {
      throw new Error(`expected a ${name}`);
    },
    (e: unknown) => e,
  )) as { name: string; message: string; retryable: boolean };
  expect(error.name).toBe(name);
  expect(error.message).toMatch(message);
  return error;
}
