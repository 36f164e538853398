// Sessions, guards and the signed-in API without billing (self-hosted mode), called directly as Remix would.
import { afterAll, describe, expect, it, vi } from "vitest";
import { callRoute as call } from "../support/routes";

vi.hoisted(() => {
  process.env.OWNER_EMAIL = "owner@example.com";
  delete process.env.STRIPE_SECRET_KEY;
});

const { prisma } = await import("~/core/db.server");
const { requireUserId, getUserId } = await import("~/server/auth.server");
const { getSessionUserId, SESSION_READ_CACHE_MS } = await import("~/server/session.server");
const { getAccessLevel, maxRenderHeight, assertCanUseMusic, assertCanUpload } = await import("~/core/permissions.server");
const { loader: authUser } = await import("~/routes/auth/api.auth.user");
const { action: logoutAction } = await import("~/routes/auth/api.logout");
const { loader: globalBranding } = await import("~/routes/settings/api.global-branding");
const { createTestUser, sessionCookieFor } = await import("../support/auth");

afterAll(async () => {
  await prisma.$disconnect();
});

const url = "http://localhost:3000";
const get = (path: string, cookie?: string) => new Request(`${url}${path}`, { headers: cookie ? { Cookie: cookie } : {} });


describe("guards", () => {
  it("answers 401 JSON on /api paths and redirects pages to the landing page when signed out", async () => {
    const api = await requireUserId(get("/api/projects")).then(() => null, (e: Response) => e);
    expect(api?.status).toBe(401);
    expect(await api!.json()).toEqual({ message: "Not signed in" });
    const page = await requireUserId(get("/script")).then(() => null, (e: Response) => e);
    expect(page?.status).toBe(302);
    expect(page!.headers.get("Location")).toBe("/?from=%2Fscript");
  });

  it("knows the user from a signed session cookie", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    await expect(getUserId(get("/", cookie))).resolves.toBe(user.id);
  });

  it("rejects a tampered cookie and an expired session", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    const [name, value] = cookie.split("=") as [string, string];
    const tampered = `${name}=${value.slice(0, -3)}abc`;
    await expect(getSessionUserId(tampered)).resolves.toBeNull();

    const session = await prisma.session.findFirstOrThrow({ where: { userId: user.id } });
    await prisma.session.update({ where: { id: session.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await expect(getSessionUserId(cookie)).resolves.toBeNull();
    await expect(prisma.session.count({ where: { id: session.id } })).resolves.toBe(0);
  });

  it("signs out by POST: the session row is deleted and the cookie cleared", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    const response = await call(logoutAction, new Request(`${url}/api/logout`, { method: "POST", headers: { Cookie: cookie, Origin: url } }));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
    expect(response.headers.get("Set-Cookie")).toMatch(/reelsmith_session=;.*Max-Age=0/i);
    await expect(getSessionUserId(cookie)).resolves.toBeNull();
    expect((await call(authUser, get("/api/auth/user", cookie))).status).toBe(401);
  });

  it("reads a session row once for a request's gate and route; one deleted elsewhere is refused within SESSION_READ_CACHE_MS", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    await expect(getSessionUserId(cookie)).resolves.toBe(user.id);
    // another web process signs the user out: this process still has the row it read a moment ago...
    await prisma.session.deleteMany({ where: { userId: user.id } });
    await expect(getSessionUserId(cookie)).resolves.toBe(user.id);
    // ...and refuses it once that read is older than the bound
    await new Promise((r) => setTimeout(r, SESSION_READ_CACHE_MS + 50));
    await expect(getSessionUserId(cookie)).resolves.toBeNull();
  });

  it("sets the session cookie httpOnly and SameSite=Lax", async () => {
    const { createSession } = await import("~/server/session.server");
    const user = await createTestUser();
    const header = await createSession(user.id, { secure: false });
    expect(header).toMatch(/HttpOnly/);
    expect(header).toMatch(/SameSite=Lax/);
    expect(header).not.toMatch(/Secure/);
    expect(await createSession(user.id, { secure: true })).toMatch(/Secure/);
  });
});

describe("GET /api/auth/user", () => {
  it("answers 401 signed out and the user signed in", async () => {
    expect((await call(authUser, get("/api/auth/user"))).status).toBe(401);
    const user = await createTestUser("casey@example.com", "Casey");
    const response = await call(authUser, get("/api/auth/user", await sessionCookieFor(user.id)));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: user.id, email: "casey@example.com", name: "Casey", isOwner: false, accessLevel: "premium", selfHosted: true });
  });

  it("makes the OWNER_EMAIL account admin", async () => {
    const owner = await createTestUser("Owner@example.com", "Olive Owner");
    const body = await (await call(authUser, get("/api/auth/user", await sessionCookieFor(owner.id)))).json();
    expect(body).toMatchObject({ isOwner: true, accessLevel: "admin" });
  });
});

describe("self-hosted mode (no Stripe key)", () => {
  it("gives every signed-in user premium: music, upload, 4K", async () => {
    const user = await createTestUser();
    await expect(getAccessLevel(user)).resolves.toBe("premium");
    await expect(assertCanUseMusic(user.id)).resolves.toBeUndefined();
    await expect(assertCanUpload(user.id)).resolves.toBeUndefined();
    await expect(maxRenderHeight(user.id)).resolves.toBe(2160);
  });
});

describe("GET /api/global-branding", () => {
  it("answers 401 signed out and the owner's branding signed in", async () => {
    expect((await call(globalBranding, get("/api/global-branding"))).status).toBe(401);
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    expect(await (await call(globalBranding, get("/api/global-branding", cookie))).json()).toEqual({ customLogoUrl: null, customFaviconUrl: null });
    await prisma.globalBranding.create({ data: { id: 1, customLogoUrl: "/api/media/logo", customFaviconUrl: "/api/media/icon" } });
    expect(await (await call(globalBranding, get("/api/global-branding", cookie))).json()).toEqual({
      customLogoUrl: "/api/media/logo",
      customFaviconUrl: "/api/media/icon",
    });
  });
});
