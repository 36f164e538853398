// Personal API tokens (issue 32, decision 160): made on the settings card's routes (session only), shown once,
// stored hashed, listed with last use, revoked at once; at the gate a bearer token without a cookie skips the
// cross-site check, is counted per owner, and a missing, revoked or expired token gets 401 with a JSON problem.
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashApiToken } from "~/server/api-tokens.server";
import { prisma } from "~/core/db.server";
import { getEnv } from "~/core/env.server";
import { mountGates } from "~/server/host/web-app.server";
import { listen } from "../support/listen";
import { callRoute } from "../support/routes";
import { loadRoutes, type ListedRoute } from "./route-table";
import { seedUser, type Seeded } from "./seed";

const origin = "http://localhost:3000";
let routes: ListedRoute[];
let a: Seeded;
let b: Seeded;

beforeAll(async () => {
  routes = await loadRoutes();
  a = await seedUser("TokenA");
  b = await seedUser("TokenB");
});
afterAll(async () => {
  await prisma.$disconnect();
});

const moduleOf = (path: string) => routes.find((r) => r.path === path)!.module as { loader?: never; action?: never };

async function makeToken(user: Seeded, body: unknown) {
  const answer = await callRoute(
    moduleOf("/api/api-tokens").action!,
    new Request(`${origin}/api/api-tokens`, { method: "POST", headers: { Cookie: user.cookie, Origin: origin, "Content-Type": "application/json" }, body: JSON.stringify(body) }),
  );
  return { status: answer.status, body: (await answer.json()) as { token: string; apiToken: { id: string; prefix: string; scope: string; expiresAt: string | null }; message?: string } };
}

describe("the API tokens card's routes", () => {
  it("makes a token shown once, stores only its hash, lists it without the secret, and revokes it; B cannot revoke A's", async () => {
    const made = await makeToken(a, { name: "n8n", scope: "full", expiresInDays: 30 });
    expect(made.status).toBe(201);
    expect(made.body.token).toMatch(/^rs_pat_[A-Za-z0-9_-]{43}$/);
    const row = await prisma.apiToken.findUniqueOrThrow({ where: { id: made.body.apiToken.id } });
    expect(row.tokenHash).toBe(hashApiToken(made.body.token));
    expect(JSON.stringify(row)).not.toContain(made.body.token);
    expect(Date.parse(made.body.apiToken.expiresAt!) - Date.now()).toBeGreaterThan(29 * 86_400_000);

    const list = await callRoute(moduleOf("/api/api-tokens").loader!, new Request(`${origin}/api/api-tokens`, { headers: { Cookie: a.cookie } }));
    const listed = await list.text();
    expect(listed).toContain("n8n");
    expect(listed).not.toContain(made.body.token);

    const revokeAs = (user: Seeded) =>
      callRoute(
        moduleOf("/api/api-tokens/:id").action!,
        new Request(`${origin}/api/api-tokens/${made.body.apiToken.id}`, { method: "DELETE", headers: { Cookie: user.cookie, Origin: origin } }),
        { id: made.body.apiToken.id },
      );
    expect((await revokeAs(b)).status).toBe(404);
    expect((await revokeAs(a)).status).toBe(200);
    const after = await callRoute(moduleOf("/api/api-tokens").loader!, new Request(`${origin}/api/api-tokens`, { headers: { Cookie: a.cookie } }));
    expect(await after.text()).not.toContain("n8n");
  });

  it("refuses a nameless token or an unknown scope or expiry with 400, and a token cannot make tokens", async () => {
    expect((await makeToken(a, { name: " ", scope: "full", expiresInDays: 30 })).status).toBe(400);
    expect((await makeToken(a, { name: "x", scope: "admin", expiresInDays: 30 })).status).toBe(400);
    expect((await makeToken(a, { name: "x", scope: "read", expiresInDays: 3 })).status).toBe(400);
    const made = await makeToken(a, { name: "cli", scope: "full", expiresInDays: null });
    const viaToken = await callRoute(
      moduleOf("/api/api-tokens").action!,
      new Request(`${origin}/api/api-tokens`, { method: "POST", headers: { Authorization: `Bearer ${made.body.token}`, "Content-Type": "application/json" }, body: JSON.stringify({ name: "y", scope: "full", expiresInDays: null }) }),
    );
    expect(viaToken.status).toBe(401);
  });
});

describe("the /api/v1 gate", () => {
  it("takes a bearer token without a cookie from any origin, answers 401 problems for missing, revoked and expired tokens, and counts requests per owner", async () => {
    const app = express();
    mountGates(app, { env: getEnv(), dev: false, routes: () => [], rateLimits: { api: { points: 2, durationSeconds: 60, message: "Too many API requests." } } });
    app.use((_req, res) => void res.status(200).json({ ok: true }));
    const { request, close } = await listen(app);
    try {
      const full = (await makeToken(b, { name: "gate", scope: "full", expiresInDays: 7 })).body;
      const bearer = (token: string) => ({ Authorization: `Bearer ${token}`, Origin: "https://elsewhere.example", "Content-Type": "application/json" });
      // no cookie: another site cannot have sent it, so its Origin does not matter
      expect((await request("POST", "/api/v1/videos/x/cancel", bearer(full.token), "{}")).status).toBe(200);

      const missing = await request("GET", "/api/v1/videos");
      expect(missing.status).toBe(401);
      expect(missing.headers["content-type"]).toMatch(/application\/problem\+json/);
      expect(JSON.parse(missing.body)).toMatchObject({ status: 401, detail: expect.stringMatching(/API token/) });

      const expired = (await makeToken(b, { name: "old", scope: "full", expiresInDays: 7 })).body;
      await prisma.apiToken.update({ where: { id: expired.apiToken.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
      const expiredAnswer = await request("GET", "/api/v1/videos", bearer(expired.token));
      expect(expiredAnswer.status).toBe(401);
      expect(JSON.parse(expiredAnswer.body).detail).toMatch(/expired/);

      const revoked = (await makeToken(b, { name: "gone", scope: "full", expiresInDays: 7 })).body;
      expect((await request("GET", "/api/v1/videos", bearer(revoked.token))).status).toBe(200);
      await prisma.apiToken.update({ where: { id: revoked.apiToken.id }, data: { revokedAt: new Date() } });
      const revokedAnswer = await request("GET", "/api/v1/videos", bearer(revoked.token));
      expect(revokedAnswer.status).toBe(401);
      expect(JSON.parse(revokedAnswer.body).detail).toMatch(/revoked/);

      const read = (await makeToken(b, { name: "reader", scope: "read", expiresInDays: 7 })).body;
      const write = await request("DELETE", "/api/v1/videos/x", bearer(read.token));
      expect(write.status).toBe(403);
      expect(JSON.parse(write.body).detail).toMatch(/read-only/);

      // the owner's 3rd counted request in the minute is over this test's limit of 2
      const last = await request("GET", "/api/v1/videos", bearer(read.token));
      expect(last.status).toBe(429);
      expect(Number(last.headers["retry-after"])).toBeGreaterThan(0);

      // last use is recorded
      const used = await prisma.apiToken.findUniqueOrThrow({ where: { id: full.apiToken.id } });
      expect(used.lastUsedAt).not.toBeNull();

      // a cookie is judged as the pages' requests are: a cross-site write is refused
      const withCookie = await request("POST", "/api/v1/videos", { ...bearer(full.token), Cookie: b.cookie }, "{}");
      expect(withCookie.status).toBe(403);
    } finally {
      close();
    }
  });
});
