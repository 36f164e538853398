// The shared HTTP client's pieces that need no server: Retry-After, backoff, readable error bodies.
import { describe, expect, it } from "vitest";
import { DEFAULT_RETRY_POLICY, backoffDelay, describeErrorBody, parseRetryAfter } from "~/providers/http.server";
import { NON_RETRYABLE_PROVIDER_ERRORS, ProviderError } from "~/providers/errors";

describe("provider HTTP client", () => {
  it("reads Retry-After as seconds or as an HTTP date", () => {
    expect(parseRetryAfter("3")).toBe(3000);
    expect(parseRetryAfter("0.5")).toBe(500);
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(parseRetryAfter("Wed, 01 Jan 2025 00:00:10 GMT", now)).toBe(10_000);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter("soon")).toBeUndefined();
  });

  it("backs off exponentially up to the cap", () => {
    const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 1000 };
    expect(backoffDelay(1, policy)).toBeLessThanOrEqual(100);
    expect(backoffDelay(3, policy)).toBeGreaterThanOrEqual(320);
    expect(backoffDelay(10, policy)).toBeLessThanOrEqual(1000);
  });

  it("keeps the service's own message from a JSON error body", () => {
    expect(describeErrorBody('{"error":{"code":400,"message":"API key not valid."}}')).toBe("API key not valid.");
    expect(describeErrorBody('{"detail":{"status":"x","message":"Invalid API key"}}')).toBe("Invalid API key");
    expect(describeErrorBody('{"code":401,"msg":"No access"}')).toBe("No access");
    expect(describeErrorBody("<html>  Bad   Gateway </html>")).toBe("<html> Bad Gateway </html>");
  });

  it("names errors by kind and marks the permanent ones", () => {
    const auth = new ProviderError("ElevenLabs", "auth", "ElevenLabs rejected the API key.");
    expect([auth.name, auth.retryable]).toEqual(["ProviderAuthError", false]);
    expect(new ProviderError("Suno", "rate_limited", "slow down").retryable).toBe(true);
    expect(NON_RETRYABLE_PROVIDER_ERRORS).toContain(auth.name);
  });
});
