import { describe, expect, it, vi } from "vitest";
import { z } from "zod";

vi.hoisted(() => {
  process.env.SESSION_SECRET = "unit-test-session-secret-of-32-characters";
  process.env.ENCRYPTION_KEY = "0".repeat(64);
  process.env.PORT = "3999";
  delete process.env.PUBLIC_URL;
});

const { appOrigin, isCrossSiteWrite, isPublicApiPath, jsonError, parseJsonBody, thrownResponse } = await import("./api.server");

const Schema = z.object({ title: z.string().min(1, "Enter a title."), count: z.number().int() });
const request = (body: string) => new Request("http://localhost:3999/api/x", { method: "POST", body, headers: { "Content-Type": "application/json" } });

async function thrownBy(promise: Promise<unknown>): Promise<Response> {
  try {
    await promise;
  } catch (e) {
    // a refusal, said as the pages and /api say it
    const answer = thrownResponse(e);
    if (answer) return answer;
    throw e;
  }
  throw new Error("expected a refusal");
}

describe("parseJsonBody", () => {
  it("returns the typed body when it is valid", async () => {
    await expect(parseJsonBody(request(JSON.stringify({ title: "A", count: 2 })), Schema)).resolves.toEqual({ title: "A", count: 2 });
  });

  it("throws 400 naming the first bad field", async () => {
    const response = await thrownBy(parseJsonBody(request(JSON.stringify({ title: "", count: 2 })), Schema));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: "title: Enter a title.", field: "title" });
  });

  it("throws 400 when the body is not JSON", async () => {
    const response = await thrownBy(parseJsonBody(request("{not json"), Schema));
    expect(response.status).toBe(400);
    expect((await response.json()).message).toMatch(/must be JSON/);
  });
});

describe("jsonError", () => {
  it("builds a JSON response with the message and extra fields", async () => {
    const response = jsonError(402, "Upgrade first", { limit: "music" });
    expect(response.status).toBe(402);
    expect(response.headers.get("Content-Type")).toMatch(/application\/json/);
    expect(await response.json()).toEqual({ message: "Upgrade first", limit: "music" });
  });
});

describe("isCrossSiteWrite", () => {
  const allowedOrigins = ["http://127.0.0.1:3999", "http://localhost:3999"];
  const check = (method: string, origin: string | null, secFetchSite: string | null = null) =>
    isCrossSiteWrite({ method, origin, secFetchSite, allowedOrigins });

  it("refuses a POST from another origin", () => {
    expect(check("POST", "https://evil.example")).toBe(true);
    expect(check("DELETE", "null")).toBe(true);
    expect(check("PUT", null, "cross-site")).toBe(true);
    expect(check("POST", "http://127.0.0.1:3999", "same-site")).toBe(true);
  });

  it("lets same-origin writes, reads, and requests without browser headers through", () => {
    expect(check("POST", "http://127.0.0.1:3999", "same-origin")).toBe(false);
    expect(check("POST", "http://localhost:3999")).toBe(false);
    expect(check("GET", "https://evil.example", "cross-site")).toBe(false);
    expect(check("POST", null, null)).toBe(false);
  });
});

describe("isPublicApiPath", () => {
  it("opens only the sign-in flow, webhooks and the owner's branding files", () => {
    for (const path of ["/api/login", "/api/logout", "/api/auth/callback", "/api/stripe/webhook", "/api/leonardo-webhook", "/api/branding/abc123"]) {
      expect(isPublicApiPath(path), path).toBe(true);
    }
    for (const path of ["/api/auth/user", "/api/projects", "/api/global-branding", "/api/login/extra", "/api/webhooks/list", "/api/branding", "/api/branding/a/b", "/api/media/abc123"]) {
      expect(isPublicApiPath(path), path).toBe(false);
    }
  });
});

describe("appOrigin without PUBLIC_URL", () => {
  it("follows the loopback name the browser used, so sign-in cookies come back", () => {
    expect(appOrigin(new Request("http://127.0.0.1:3999/api/login"))).toBe("http://127.0.0.1:3999");
    expect(appOrigin(new Request("http://localhost:3999/api/login"))).toBe("http://localhost:3999");
  });

  it("ignores any other Host header", () => {
    expect(appOrigin(new Request("http://evil.example:3999/api/login"))).toBe("http://localhost:3999");
    expect(appOrigin(new Request("http://127.0.0.1:4000/api/login"))).toBe("http://localhost:3999");
  });
});

describe("parseJsonBody and NUL characters", () => {
  it("drops NUL characters (PostgreSQL text cannot store them) instead of failing later", async () => {
    const body = JSON.stringify({ title: "a\u0000b", count: 1 });
    await expect(parseJsonBody(request(body), Schema)).resolves.toEqual({ title: "ab", count: 1 });
  });
});
