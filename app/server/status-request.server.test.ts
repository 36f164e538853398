import { describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.SESSION_SECRET = "unit-test-session-secret-of-32-characters";
  process.env.ENCRYPTION_KEY = "0".repeat(64);
});

const { sessionCookieValue, forgetCaller, rememberedCallers } = await import("./status-request.server");

describe("sessionCookieValue (the key a session's status callers are remembered under)", () => {
  it("reads the session cookie's value wherever it stands in the header", () => {
    expect(sessionCookieValue("reelsmith_session=abc.def")).toBe("abc.def");
    expect(sessionCookieValue("theme=dark; reelsmith_session=abc.def; other=1")).toBe("abc.def");
    expect(sessionCookieValue("theme=dark;reelsmith_session=abc%3D.sig")).toBe("abc%3D.sig");
  });

  it("finds nothing where there is no session cookie of that exact name", () => {
    expect(sessionCookieValue(null)).toBeNull();
    expect(sessionCookieValue("")).toBeNull();
    expect(sessionCookieValue("theme=dark")).toBeNull();
    expect(sessionCookieValue("reelsmith_session=")).toBeNull();
    // another cookie whose name ends the same, or a value that contains the name, is not the session
    expect(sessionCookieValue("old_reelsmith_session=abc")).toBeNull();
    expect(sessionCookieValue("note=reelsmith_session=abc")).toBeNull();
  });

  it("forgets nothing and fails on nothing for a request without a session", () => {
    const before = rememberedCallers();
    forgetCaller(undefined);
    forgetCaller("theme=dark");
    expect(rememberedCallers()).toBe(before);
  });
});
