// Sign-in that cannot be spoofed: the built-in provider only for this machine (the server refuses to start
// otherwise, /oidc refuses other callers and proxied ones), accounts keyed by issuer and subject, only
// verified e-mails, closed sign-up, and no owner account through the built-in provider.
import { spawnSync } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import express from "express";
import { afterAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.OWNER_EMAIL = "owner@example.com";
});

const { prisma } = await import("~/core/db.server");
const { getEnv } = await import("~/core/env.server");
const { exposureProblem, listenHost, mayUseBuiltinSignIn, BUILTIN_SIGNIN_REMOTE_MESSAGE } = await import("~/core/exposure.server");
const { mountGates } = await import("~/server/host/web-app.server");
const { isEmailAllowed, upsertUserFromProfile } = await import("~/server/users.server");
type Refusal = { code: string } | null;

afterAll(async () => {
  await prisma.$disconnect();
});

const ISSUER = "https://accounts.example.com";
const refusal = (p: Promise<unknown>): Promise<Refusal> => p.then(() => null, (e: unknown) => e as Refusal);

describe("the built-in sign-in is for this machine only", () => {
  const base = { OIDC_ISSUER: undefined, HOST: undefined, DANGEROUSLY_EXPOSE_BUILTIN_SIGNIN: undefined };

  it("a non-loopback PUBLIC_URL stops the start unless the loudly named override is set", () => {
    expect(exposureProblem({ ...base, PUBLIC_URL: "https://reels.example.com" })).toMatch(/lets anyone sign in as anyone/);
    expect(exposureProblem({ ...base, PUBLIC_URL: "http://localhost:3000" })).toBeNull();
    expect(exposureProblem({ ...base, PUBLIC_URL: "http://127.0.0.1:3000" })).toBeNull();
    expect(exposureProblem({ ...base, PUBLIC_URL: "http://localhost:3000", HOST: "0.0.0.0" })).toMatch(/HOST is 0.0.0.0/);
    expect(exposureProblem({ ...base, PUBLIC_URL: "https://reels.example.com", DANGEROUSLY_EXPOSE_BUILTIN_SIGNIN: "yes-anyone-can-sign-in-as-anyone" })).toBeNull();
    expect(exposureProblem({ ...base, PUBLIC_URL: "https://reels.example.com", OIDC_ISSUER: ISSUER })).toBeNull();
  });

  it("listens on loopback while the built-in sign-in is on; on every interface with a real provider", () => {
    expect(listenHost({ ...base, PUBLIC_URL: "http://localhost:3000" })).toBe("127.0.0.1");
    expect(listenHost({ ...base, PUBLIC_URL: "http://localhost:3000", OIDC_ISSUER: ISSUER })).toBe("0.0.0.0");
  });

  it("server.ts refuses to start with a public PUBLIC_URL and no OIDC_ISSUER, naming the override", () => {
    const env = { ...process.env, PUBLIC_URL: "https://reels.example.com", NODE_ENV: "production", PORT: "3199" } as NodeJS.ProcessEnv;
    delete env.OIDC_ISSUER;
    delete env.DANGEROUSLY_EXPOSE_BUILTIN_SIGNIN;
    const run = spawnSync(process.execPath, ["--import", "tsx", "server.ts"], { env, encoding: "utf8", timeout: 60_000 });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/refusing to start/);
    expect(run.stderr).toMatch(/DANGEROUSLY_EXPOSE_BUILTIN_SIGNIN=yes-anyone-can-sign-in-as-anyone/);
  }, 90_000);

  it("a caller that is not on this machine, or came through a proxy, is refused at /oidc", async () => {
    const env = { ...getEnv(), OIDC_ISSUER: undefined, DANGEROUSLY_EXPOSE_BUILTIN_SIGNIN: undefined };
    expect(mayUseBuiltinSignIn(env, { remoteAddress: "203.0.113.9", headers: {} })).toBe(false);
    expect(mayUseBuiltinSignIn(env, { remoteAddress: "::ffff:10.1.2.3", headers: {} })).toBe(false);
    expect(mayUseBuiltinSignIn(env, { remoteAddress: "127.0.0.1", headers: { "x-forwarded-for": "203.0.113.9" } })).toBe(false);
    expect(mayUseBuiltinSignIn(env, { remoteAddress: "::1", headers: {} })).toBe(true);

    // Over real sockets: the gate in front of the provider, reached on loopback and on this machine's LAN address.
    const app = express();
    mountGates(app, { env, dev: false, oidcRouter: (_req, res) => void res.status(200).send("sign-in page"), oidcPath: "/oidc", routes: () => [] });
    const server = app.listen(0, "0.0.0.0");
    await new Promise((r) => server.once("listening", r));
    const port = (server.address() as AddressInfo).port;
    const get = (host: string, headers: Record<string, string> = {}) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        http
          .get({ host, port, path: "/oidc/auth", headers }, (res) => {
            let body = "";
            res.on("data", (d) => (body += d));
            res.on("end", () => resolve({ status: res.statusCode!, body }));
          })
          .on("error", reject);
      });
    try {
      expect(await get("127.0.0.1")).toEqual({ status: 200, body: "sign-in page" });
      const proxied = await get("127.0.0.1", { "X-Forwarded-For": "203.0.113.9" });
      expect(proxied.status).toBe(403);
      expect(proxied.body).toBe(BUILTIN_SIGNIN_REMOTE_MESSAGE);
      const lan = Object.values(os.networkInterfaces()).flat().find((i) => i && i.family === "IPv4" && !i.internal);
      if (lan) {
        const remote = await get(lan.address);
        expect(remote.status).toBe(403);
        expect(remote.body).toMatch(/only works on the computer running Reelsmith/);
        console.log(`non-loopback caller from ${lan.address}: ${remote.status}`);
      }
    } finally {
      server.close();
    }
  });
});

describe("accounts", () => {
  const profile = (over: Partial<Parameters<typeof upsertUserFromProfile>[0]> = {}) => ({
    issuer: ISSUER,
    subject: `sub-${Math.random().toString(36).slice(2)}`,
    email: `p-${Math.random().toString(36).slice(2)}@example.com`,
    emailVerified: true,
    name: "P",
    ...over,
  });

  it("an unverified e-mail is refused, and no account is made", async () => {
    const p = profile({ emailVerified: false });
    const e = await refusal(upsertUserFromProfile(p));
    expect(e?.code).toBe("email_not_verified");
    expect(await prisma.user.findUnique({ where: { email: p.email } })).toBeNull();
  });

  it("are keyed by issuer and subject: the same e-mail from another subject cannot take the account", async () => {
    const p = profile();
    const first = await upsertUserFromProfile(p);
    expect(first).toMatchObject({ authIssuer: ISSUER, authSubject: p.subject });
    const again = await upsertUserFromProfile({ ...p, name: "Renamed" });
    expect(again.id).toBe(first.id);
    const impostor = await refusal(upsertUserFromProfile({ ...p, subject: "someone-else" }));
    expect(impostor?.code).toBe("account_conflict");
    const otherIssuer = await refusal(upsertUserFromProfile({ ...p, issuer: "https://evil.example.com" }));
    expect(otherIssuer?.code).toBe("account_conflict");
    // the subject keeps its account when its e-mail changes at the provider
    const moved = await upsertUserFromProfile({ ...p, email: `new-${p.email}` });
    expect(moved.id).toBe(first.id);
    expect(moved.email).toBe(`new-${p.email}`);
  });

  it("an account known by e-mail only is linked on its first verified sign-in", async () => {
    const legacy = await prisma.user.create({ data: { email: `legacy-${Date.now()}@example.com` } });
    const linked = await upsertUserFromProfile(profile({ email: legacy.email }));
    expect(linked.id).toBe(legacy.id);
    expect(linked.authSubject).not.toBeNull();
  });

  it("the owner account cannot be claimed through the built-in sign-in", async () => {
    const e = await refusal(upsertUserFromProfile(profile({ email: "OWNER@example.com", builtin: true })));
    expect(e?.code).toBe("owner_not_allowed");
    const owner = await upsertUserFromProfile(profile({ email: "owner@example.com", builtin: false }));
    expect(owner.email).toBe("owner@example.com");
  });

  it("ALLOWED_EMAILS / ALLOWED_DOMAINS close sign-up", () => {
    const env = { ALLOWED_EMAILS: ["ann@corp.test"], ALLOWED_DOMAINS: ["team.test"] };
    expect(isEmailAllowed("Ann@corp.test", env)).toBe(true);
    expect(isEmailAllowed("bob@team.test", env)).toBe(true);
    expect(isEmailAllowed("bob@corp.test", env)).toBe(false);
    expect(isEmailAllowed("eve@team.test.evil.com", env)).toBe(false);
    expect(isEmailAllowed("anyone@anywhere.test", {})).toBe(true);
  });
});
