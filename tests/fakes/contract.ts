// Shared pieces of the provider contract tests: a short request policy, an attempt of our own (a ProviderCall with an
// in-memory job ledger, as an activity's would be), and a check of classified failures.
import { expect } from "vitest";
import type { JobLedger, ProviderCall } from "~/providers/call";
import type { RequestPolicy } from "~/providers/http.server";

/** A short timeout so the suite stays fast; it still leaves a healthy fake plenty of time. */
export const QUICK_POLICY: Partial<RequestPolicy> = { timeoutMs: 1500, maxRetryAfterMs: 5000 };

/** A job ledger in memory: what the database keeps for an activity on a worker. */
export function memoryLedger(): Required<JobLedger> & { jobs: Map<string, string>; claimedAt: Map<string, Date> } {
  // as the ProviderJob table: one row per name, an empty id while a claim waits for its create request's answer
  const jobs = new Map<string, string>();
  const claimedAt = new Map<string, Date>();
  return {
    jobs,
    claimedAt,
    recall: async (name) => jobs.get(name) || undefined,
    remember: async (name, id) => {
      jobs.set(name, id);
      claimedAt.set(name, new Date());
    },
    forget: async (name) => {
      jobs.delete(name);
      claimedAt.delete(name);
    },
    claim: async (name) => {
      if (!jobs.has(name)) {
        jobs.set(name, "");
        claimedAt.set(name, new Date());
        return { won: true };
      }
      return { won: false, jobId: jobs.get(name) || undefined, claimedAt: claimedAt.get(name)! };
    },
  };
}

/** The attempt `attempt` of an activity whose paid jobs go into `jobs`. */
export function testCall(attempt = 1, jobs: JobLedger = memoryLedger(), extra: Partial<ProviderCall> = {}): ProviderCall {
  return { attempt, jobs, ...extra };
}

export async function expectProviderFailure(promise: Promise<unknown>, name: string, message: RegExp) {
  const error = (await promise.then(
    () => {
      throw new Error(`expected a ${name}`);
    },
    (e: unknown) => e,
  )) as { name: string; message: string; retryable: boolean; retryAfterMs?: number };
  expect(error.name).toBe(name);
  expect(error.message).toMatch(message);
  return error;
}
