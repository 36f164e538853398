// Issue 47, decision 197: behind a reverse proxy, the per-address limit (sign-in) counts each client by the address
// the trusted proxy puts in X-Forwarded-For (TRUST_PROXY, Express's own "trust proxy"); without the setting a
// forged X-Forwarded-For changes nothing, and every request counts against the socket's address.
import express from "express";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getEnv, parseEnv } from "~/core/env.server";
import { mountGates } from "~/server/host/web-app.server";
import { listen } from "../support/listen";

const rule = { points: 2, durationSeconds: 60, message: "Too many sign-in attempts." };

/** The gates with a sign-in limit of 2, counted in memory, behind the given TRUST_PROXY (as parsed from the environment). */
async function gates(trustProxy: string | undefined) {
  const app = express();
  const env = { ...getEnv(), TRUST_PROXY: trustProxy === undefined ? undefined : parseEnv({ TRUST_PROXY: trustProxy }).TRUST_PROXY };
  mountGates(app, { env, dev: false, routes: () => [], rateLimits: { signin: rule }, rateLimitStore: { kind: "memory" } });
  app.use((req, res) => void res.status(200).json({ ok: true, ip: req.ip }));
  return listen(app);
}

const limited = (answer: { status: number; headers: Record<string, unknown> }) => answer.status === 302 && answer.headers.location === "/login-failed?error=too_many_attempts";

afterEach(() => vi.restoreAllMocks());

describe("TRUST_PROXY", () => {
  it("=1: two clients behind one proxy have separate sign-in limits, and the log names the client", async () => {
    const warnings: string[] = [];
    vi.spyOn(console, "warn").mockImplementation((line: string) => void warnings.push(line));
    const { request, close } = await gates("1");
    try {
      const from = (client: string) => request("GET", "/api/login", { "X-Forwarded-For": client });
      // client A uses up its two attempts; client B, through the same proxy socket, still has both of its own
      expect(limited(await from("198.51.100.7"))).toBe(false);
      expect(limited(await from("198.51.100.7"))).toBe(false);
      expect(limited(await from("198.51.100.7"))).toBe(true);
      expect(limited(await from("203.0.113.9"))).toBe(false);
      expect(limited(await from("203.0.113.9"))).toBe(false);
      expect(limited(await from("203.0.113.9"))).toBe(true);
      // a client that prepends its own X-Forwarded-For is still known by what the proxy appended last
      expect(limited(await from("203.0.113.77, 198.51.100.7"))).toBe(true);
      expect(warnings.filter((w) => w.includes("too many sign-in attempts"))).toEqual([
        expect.stringContaining("from 198.51.100.7"),
        expect.stringContaining("from 203.0.113.9"),
        expect.stringContaining("from 198.51.100.7"),
      ]);
    } finally {
      close();
    }
  });

  it("a list of proxy addresses is trusted the same way; an unlisted proxy's header is ignored", async () => {
    const { request, close } = await gates("10.9.9.9, 127.0.0.1/8");
    try {
      const echo = await request("GET", "/anything", { "X-Forwarded-For": "198.51.100.8" });
      expect(JSON.parse(echo.body).ip).toBe("198.51.100.8");
    } finally {
      close();
    }
    const other = await gates("10.9.9.9");
    try {
      const echo = await other.request("GET", "/anything", { "X-Forwarded-For": "198.51.100.8" });
      expect(JSON.parse(echo.body).ip).toBe("127.0.0.1");
    } finally {
      other.close();
    }
  });

  it("unset: a forged X-Forwarded-For changes nothing: every attempt counts against the socket's address", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const { request, close } = await gates(undefined);
    try {
      expect(limited(await request("GET", "/api/login", { "X-Forwarded-For": "198.51.100.1" }))).toBe(false);
      expect(limited(await request("GET", "/api/login", { "X-Forwarded-For": "198.51.100.2" }))).toBe(false);
      expect(limited(await request("GET", "/api/login", { "X-Forwarded-For": "198.51.100.3" }))).toBe(true);
      expect(limited(await request("GET", "/api/login"))).toBe(true);
      const echo = await request("GET", "/anything", { "X-Forwarded-For": "198.51.100.4" });
      expect(JSON.parse(echo.body).ip).toBe("127.0.0.1");
    } finally {
      close();
    }
  });

  it("a bad value stops the process, named: 'true' (any client's header) and what is not an address", () => {
    expect(() => parseEnv({ TRUST_PROXY: "true" })).toThrow(/TRUST_PROXY: "true" is not a hop count/);
    expect(() => parseEnv({ TRUST_PROXY: "10.0.0.0/99" })).toThrow(/TRUST_PROXY: "10\.0\.0\.0\/99"/);
    expect(() => parseEnv({ TRUST_PROXY: "proxy.example.com" })).toThrow(/TRUST_PROXY/);
    expect(parseEnv({ TRUST_PROXY: "2" }).TRUST_PROXY).toBe(2);
    expect(parseEnv({ TRUST_PROXY: "loopback, 10.0.0.0/8" }).TRUST_PROXY).toEqual(["loopback", "10.0.0.0/8"]);
    expect(parseEnv({}).TRUST_PROXY).toBeUndefined();
  });
});
