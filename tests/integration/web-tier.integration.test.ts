// A web tier without process state (issue 36, decision 133), against real PostgreSQL: the built-in provider's
// adapter (what one process stores another finds; consume, grants, expiry and the sweep), its one signing key
// whoever creates it, and rate limits counted in PostgreSQL across limiter instances (two "processes"), with the
// in-memory insurance limiter taking over when PostgreSQL cannot be reached.
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { prisma } from "~/core/db.server";
import { PrismaOidcAdapter, deleteExpiredOidcState, findLocalAccount, loadSigningKey, rememberAccount } from "~/server/host/oidc-provider.server";
import { RATE_LIMITS, createRateLimiters, rateLimitPool } from "~/server/host/web-app.server";

afterAll(async () => {
  await rateLimitPool().end();
  await prisma.$disconnect();
});

describe("the built-in provider's state in PostgreSQL", () => {
  it("what one adapter stores, another (another process) finds by id, uid and user code; consume marks it used", async () => {
    const writer = new PrismaOidcAdapter("Session");
    const reader = new PrismaOidcAdapter("Session");
    await writer.upsert("sess-1", { uid: "uid-1", accountId: "acc", exp: 1, kind: "Session", nested: { a: 1, gone: undefined } }, 600);
    expect(await reader.find("sess-1")).toEqual({ uid: "uid-1", accountId: "acc", exp: 1, kind: "Session", nested: { a: 1 } });
    expect(await reader.findByUid("uid-1")).toMatchObject({ accountId: "acc" });
    // models are separate namespaces: an Interaction with the same id is another row
    expect(await new PrismaOidcAdapter("Interaction").find("sess-1")).toBeUndefined();

    const codes = new PrismaOidcAdapter("DeviceCode");
    await codes.upsert("dc-1", { userCode: "ABCD-EFGH", grantId: "g-1" }, 600);
    expect(await new PrismaOidcAdapter("DeviceCode").findByUserCode("ABCD-EFGH")).toMatchObject({ grantId: "g-1" });

    const auth = new PrismaOidcAdapter("AuthorizationCode");
    await auth.upsert("code-1", { grantId: "g-1", accountId: "acc" }, 60);
    expect((await auth.find("code-1"))?.consumed).toBeUndefined();
    await new PrismaOidcAdapter("AuthorizationCode").consume("code-1");
    const consumed = await auth.find("code-1");
    expect(consumed?.consumed).toBeGreaterThan(Date.now() / 1000 - 60);

    // an upsert replaces the payload and refreshes the expiry
    await writer.upsert("sess-1", { uid: "uid-2", accountId: "acc" }, 600);
    expect(await reader.findByUid("uid-1")).toBeUndefined();
    expect(await reader.findByUid("uid-2")).toMatchObject({ accountId: "acc" });
    await reader.destroy("sess-1");
    expect(await writer.find("sess-1")).toBeUndefined();
  });

  it("revoking a grant removes that grant's codes and tokens of the model asked, and nothing else", async () => {
    const codes = new PrismaOidcAdapter("AuthorizationCode");
    const tokens = new PrismaOidcAdapter("AccessToken");
    await codes.upsert("code-g2", { grantId: "g-2" }, 60);
    await tokens.upsert("at-g2", { grantId: "g-2" }, 60);
    await tokens.upsert("at-g3", { grantId: "g-3" }, 60);
    await tokens.revokeByGrantId("g-2");
    expect(await tokens.find("at-g2")).toBeUndefined();
    expect(await tokens.find("at-g3")).toBeDefined();
    expect(await codes.find("code-g2")).toBeDefined(); // oidc-provider calls each grantable model's adapter itself
    await codes.revokeByGrantId("g-2");
    expect(await codes.find("code-g2")).toBeUndefined();
  });

  it("an expired row is never returned, and the sweep deletes it (rows without expiry stay)", async () => {
    const interactions = new PrismaOidcAdapter("Interaction");
    await interactions.upsert("int-old", { uid: "u-old" }, 1);
    await interactions.upsert("int-new", { uid: "u-new" }, 3600);
    await new PrismaOidcAdapter("Client").upsert("client-forever", { client_id: "x" });
    await new Promise((r) => setTimeout(r, 1100));
    expect(await interactions.find("int-old")).toBeUndefined();
    expect(await interactions.findByUid("u-old")).toBeUndefined();
    expect(await deleteExpiredOidcState()).toBeGreaterThanOrEqual(1);
    expect(await prisma.oidcPayload.count({ where: { id: "int-old" } })).toBe(0);
    expect(await prisma.oidcPayload.count({ where: { id: { in: ["int-new", "client-forever"] } } })).toBe(2);
  });

  it("processes starting together agree on one signing key, stored encrypted", async () => {
    const keys = await Promise.all([loadSigningKey(), loadSigningKey(), loadSigningKey()]);
    expect(new Set(keys.map((k) => (k as { kid?: string }).kid)).size).toBe(1);
    expect(keys[0]).toMatchObject({ kty: "RSA", alg: "RS256", use: "sig" });
    expect(typeof keys[0]!.d).toBe("string");
    const row = await prisma.oidcSigningKey.findFirstOrThrow();
    expect(row.jwk).not.toContain(keys[0]!.d!);
    expect((await loadSigningKey()).kid).toBe(keys[0]!.kid);
  });

  it("accounts are shared: one process remembers, another finds the claims", async () => {
    const id = await rememberAccount({ email: "  Robin@Example.com ", name: " Robin " });
    const account = await findLocalAccount(id);
    expect(await account?.claims("id_token", "openid")).toEqual({ sub: id, email: "robin@example.com", email_verified: true, name: "Robin" });
    expect(await rememberAccount({ email: "robin@example.com", name: "Robin R." })).toBe(id);
    expect(await (await findLocalAccount(id))?.claims("userinfo", "openid")).toMatchObject({ name: "Robin R." });
    expect(await findLocalAccount("nobody")).toBeUndefined();
  });
});

describe("rate limits in PostgreSQL", () => {
  it("two processes' limiters count together: 60 sign-in attempts pass, the 61st waits, whichever process gets it", async () => {
    const a = createRateLimiters();
    const b = createRateLimiters();
    const key = `10.0.0.${Math.floor(Math.random() * 200)}`;
    const answers: (number | null)[] = [];
    for (let i = 0; i < RATE_LIMITS.signin.points; i++) answers.push(await (i % 2 ? b : a)("signin", key));
    expect(answers.every((w) => w === null)).toBe(true);
    const wait = await a("signin", key);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(RATE_LIMITS.signin.durationSeconds);
    expect(await b("signin", key)).toBeGreaterThan(0);
    // per kind and per key
    expect(await b("generation", key)).toBeNull();
    expect(await b("signin", `${key}9`)).toBeNull();
    const row = await prisma.rateLimit.findUniqueOrThrow({ where: { key: `signin:60/60:${key}` } });
    expect(row.points).toBe(62);
  });

  it("concurrent attempts are all counted (one atomic upsert each)", async () => {
    const limits = { ...RATE_LIMITS, generation: { ...RATE_LIMITS.generation, points: 10 } };
    const processes = [createRateLimiters(limits), createRateLimiters(limits)];
    const waits = await Promise.all(Array.from({ length: 25 }, (_, i) => processes[i % 2]!("generation", "user-burst")));
    expect(waits.filter((w) => w === null)).toHaveLength(10);
  });

  it("with PostgreSQL unreachable, the in-memory insurance limiter still limits (per process) and nothing throws", async () => {
    const down = new pg.Pool({ connectionString: "postgresql://nobody:x@127.0.0.1:9/none", connectionTimeoutMillis: 500, max: 1 });
    try {
      const limits = { ...RATE_LIMITS, errorLog: { ...RATE_LIMITS.errorLog, points: 3 } };
      const consume = createRateLimiters(limits, { kind: "postgres", pool: down });
      const waits = [];
      for (let i = 0; i < 4; i++) waits.push(await consume("errorLog", "user-down"));
      expect(waits.slice(0, 3)).toEqual([null, null, null]);
      expect(waits[3]).toBeGreaterThan(0);
    } finally {
      await down.end();
    }
  });
});
