// A paid job is given up at the service only when its caller was cancelled on purpose or its run is closed, never
// when the worker shuts down, the attempt times out, or the attempt hears NOT_FOUND while its run goes on (a newer
// attempt owns the job then: decision 270): the next attempt resumes the same job instead of buying another.
import { CancelledFailure } from "@temporalio/common";
import { describe, expect, it } from "vitest";
import { givenUpOnPurpose, type ProviderCall } from "./call";

const abortedWith = (reason?: unknown, more: Partial<ProviderCall> = {}): ProviderCall => {
  const controller = new AbortController();
  controller.abort(reason);
  return { signal: controller.signal, ...more };
};

describe("givenUpOnPurpose", () => {
  it("is true for the creator's or the workflow's cancellation, and for NOT_FOUND when the run is closed", async () => {
    expect(await givenUpOnPurpose(abortedWith(new CancelledFailure("CANCELLED"), { runIsOpen: async () => true }))).toBe(true);
    expect(await givenUpOnPurpose(abortedWith(new CancelledFailure("NOT_FOUND"), { runIsOpen: async () => false }))).toBe(true);
    // nothing to ask: Temporal documents NOT_FOUND as the run having closed
    expect(await givenUpOnPurpose(abortedWith(new CancelledFailure("NOT_FOUND")))).toBe(true);
  });
  it("is false for NOT_FOUND while the run is still open: this attempt was timed out and a newer one polls the job", async () => {
    expect(await givenUpOnPurpose(abortedWith(new CancelledFailure("NOT_FOUND"), { runIsOpen: async () => true }))).toBe(false);
  });
  it("is false for a worker shutting down, a timeout, a pause, a plain abort, or no cancellation", async () => {
    for (const reason of ["WORKER_SHUTDOWN", "TIMED_OUT", "PAUSED", "RESET"]) expect(await givenUpOnPurpose(abortedWith(new CancelledFailure(reason)))).toBe(false);
    expect(await givenUpOnPurpose(abortedWith())).toBe(false);
    expect(await givenUpOnPurpose({ signal: new AbortController().signal })).toBe(false);
    expect(await givenUpOnPurpose(undefined)).toBe(false);
  });
});
