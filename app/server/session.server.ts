// Sessions are rows (model Session); the cookie holds only the row's id, signed with SESSION_SECRET, so a
// session can be revoked and expires on the server.
import { createCookie, type Cookie } from "@remix-run/node";
import { prisma } from "./db.server";
import { getEnv } from "./env.server";

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

/** The user id of a live session in the Cookie header; expired sessions are deleted on sight. */
export async function getSessionUserId(cookieHeader: string | null): Promise<string | null> {
  const id = await readSessionId(cookieHeader);
  if (!id) return null;
  const session = await prisma.session.findUnique({ where: { id }, select: { userId: true, expiresAt: true } });
  if (!session) return null;
  if (session.expiresAt.getTime() <= Date.now()) {
    await prisma.session.deleteMany({ where: { id } });
    return null;
  }
  return session.userId;
}

/** Deletes the session named by the Cookie header; returns the Set-Cookie value that clears the cookie. */
export async function destroySession(cookieHeader: string | null, { secure }: { secure: boolean }): Promise<string> {
  const id = await readSessionId(cookieHeader);
  if (id) await prisma.session.deleteMany({ where: { id } });
  return sessionCookie().serialize("", { expires: new Date(0), maxAge: 0, secure });
}
