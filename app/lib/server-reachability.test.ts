// Which failed reads mean "the server cannot be reached", and the polling that keeps trying.
import { describe, expect, it } from "vitest";
import { ApiError } from "./api-client";
import { isUnreachableError, pollWhileUnreachable, serverUnreachable, UNREACHABLE_RETRY_MS } from "./server-reachability";

describe("server reachability", () => {
  it("network errors and 5xx answers are unreachable; 4xx answers are the server speaking", () => {
    expect(isUnreachableError(new TypeError("Failed to fetch"))).toBe(true);
    expect(isUnreachableError(new ApiError(502, "502: Bad Gateway"))).toBe(true);
    expect(isUnreachableError(new ApiError(500, "500: Temporal is down"))).toBe(true);
    expect(isUnreachableError(new ApiError(404, "404: nope"))).toBe(false);
    expect(isUnreachableError(new ApiError(400, "400: bad"))).toBe(false);
  });
  it("a page is unreachable while any of its reads last failed that way; a success clears it", () => {
    expect(serverUnreachable([{ status: "success", error: null }, { status: "error", error: new TypeError("x") }])).toBe(true);
    expect(serverUnreachable([{ status: "success", error: null }])).toBe(false);
    expect(serverUnreachable([{ status: "error", error: new ApiError(403, "403: no") }])).toBe(false);
  });
  it("keeps polling while reads fail, within the 10 s the page has to say so", () => {
    expect(pollWhileUnreachable(false, { status: "error" })).toBe(UNREACHABLE_RETRY_MS);
    expect(UNREACHABLE_RETRY_MS).toBeLessThan(10_000);
    expect(pollWhileUnreachable(2000, { status: "success" })).toBe(2000);
    expect(pollWhileUnreachable(false, { status: "success" })).toBe(false);
  });
});
