// Sessions are rows (model Session); the cookie holds only the row's id, signed with SESSION_SECRET, so a
// session can be revoked and expires on the server.
import { createCookie, type Cookie } from "@remix-run/node";
import { prisma } from "~/core/db.server";
import { getEnv } from "~/core/env.server";

export const SESSION_COOKIE_NAME = "reelsmith_session";
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

let cookie: Cookie | undefined;
function sessionCookie(): Cookie {
  cookie ??= createCookie(SESSION_COOKIE_NAME, {
    secrets: [getEnv().SESSION_SECRET],
    httpOnly: true,
    sameSite: "lax",
    path: "/",
  });
  return cookie;
}

/** Creates a session row for the user and returns the Set-Cookie header value that carries it. */
export async function createSession(userId: string, { secure }: { secure: boolean }): Promise<string> {
  const expiresAt = new Date(Date.now() + SESSION_TTL_MS);
  const session = await prisma.session.create({ data: { userId, expiresAt } });
  return sessionCookie().serialize(session.id, { expires: expiresAt, secure });
}

/** The signed session id in a Cookie header, or null when absent or tampered with. */
export async function readSessionId(cookieHeader: string | null): Promise<string | null> {
  if (!cookieHeader) return null;
  const value: unknown = await sessionCookie().parse(cookieHeader);
  return typeof value === "string" && value ? value : null;
}

/**
 * Sessions read in the last SESSION_READ_CACHE_MS (issue 36): a request is looked up by the /api gate and again
 * by its route, and a page polls every 2 s; the row is read once for both. A sign-out in this process forgets
 * the session at once; one deleted elsewhere (another web process, a deleted account) is refused at most
 * SESSION_READ_CACHE_MS later. Bounded in size. Kept on globalThis: server.ts's gates load this module from the
 * sources and the routes from the server build, and both must see one cache (a sign-out through a route must
 * reach the gate's reads too).
 */
export const SESSION_READ_CACHE_MS = 2000;
const SESSION_READ_CACHE_MAX = 10_000;
type RecentSession = { session: { userId: string; expiresAt: Date } | null; readAt: number };

declare global {
  var __reelsmithRecentSessions: Map<string, RecentSession> | undefined;
}

function recentSessions(): Map<string, RecentSession> {
  globalThis.__reelsmithRecentSessions ??= new Map();
  return globalThis.__reelsmithRecentSessions;
}

async function readSession(id: string): Promise<RecentSession> {
  const recent = recentSessions();
  const now = Date.now();
  const cached = recent.get(id);
  if (cached && now - cached.readAt < SESSION_READ_CACHE_MS) return cached;
  const session = await prisma.session.findUnique({ where: { id }, select: { userId: true, expiresAt: true } });
  if (recent.size >= SESSION_READ_CACHE_MAX) {
    for (const [key, entry] of recent) if (now - entry.readAt >= SESSION_READ_CACHE_MS) recent.delete(key);
    if (recent.size >= SESSION_READ_CACHE_MAX) recent.clear();
  }
  const entry = { session, readAt: now };
  recent.set(id, entry);
  return entry;
}

/**
 * The user of a live session in the Cookie header, with when its row was read (at most SESSION_READ_CACHE_MS
 * ago); null when signed out. Expired sessions are deleted on sight.
 */
export async function getSessionUser(cookieHeader: string | null): Promise<{ userId: string; readAt: number } | null> {
  const id = await readSessionId(cookieHeader);
  if (!id) return null;
  const { session, readAt } = await readSession(id);
  if (!session) return null;
  if (session.expiresAt.getTime() <= Date.now()) {
    recentSessions().delete(id);
    await prisma.session.deleteMany({ where: { id } });
    return null;
  }
  return { userId: session.userId, readAt };
}

/** The user id of a live session in the Cookie header; expired sessions are deleted on sight. */
export async function getSessionUserId(cookieHeader: string | null): Promise<string | null> {
  return (await getSessionUser(cookieHeader))?.userId ?? null;
}

/** Deletes the session named by the Cookie header; returns the Set-Cookie value that clears the cookie. */
export async function destroySession(cookieHeader: string | null, { secure }: { secure: boolean }): Promise<string> {
  const id = await readSessionId(cookieHeader);
  if (id) {
    recentSessions().delete(id);
    await prisma.session.deleteMany({ where: { id } });
  }
  return sessionCookie().serialize("", { expires: new Date(0), maxAge: 0, secure });
}
