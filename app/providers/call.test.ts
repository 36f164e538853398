// A paid job is given up at the service only when its caller was cancelled on purpose or its run is gone, never when
// the worker shuts down or the attempt times out: the next attempt resumes the same job instead of buying another.
import { CancelledFailure } from "@temporalio/common";
import { describe, expect, it } from "vitest";
import { cancelledOnPurpose } from "./call";

const abortedWith = (reason?: unknown) => {
  const controller = new AbortController();
  controller.abort(reason);
  return { signal: controller.signal };
};

describe("cancelledOnPurpose", () => {
  it("is true for the creator's or the workflow's cancellation, and for a run that is gone", () => {
    expect(cancelledOnPurpose(abortedWith(new CancelledFailure("CANCELLED")))).toBe(true);
    expect(cancelledOnPurpose(abortedWith(new CancelledFailure("NOT_FOUND")))).toBe(true);
  });
  it("is false for a worker shutting down, a timeout, a pause, a plain abort, or no cancellation", () => {
    for (const reason of ["WORKER_SHUTDOWN", "TIMED_OUT", "PAUSED", "RESET"]) expect(cancelledOnPurpose(abortedWith(new CancelledFailure(reason)))).toBe(false);
    expect(cancelledOnPurpose(abortedWith())).toBe(false);
    expect(cancelledOnPurpose({ signal: new AbortController().signal })).toBe(false);
    expect(cancelledOnPurpose(undefined)).toBe(false);
  });
});
