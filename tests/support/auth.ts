// Signed-in users for integration tests, which call route loaders and actions directly with a Request.
import { randomUUID } from "node:crypto";
import type { User } from "~/generated/prisma/client";
import { prisma } from "~/core/db.server";
import { createSession } from "~/server/session.server";

/** A user row, as a first sign-in would create it; a unique e-mail unless one is given. */
export function createTestUser(email = `user-${randomUUID()}@example.com`, name = "Test User"): Promise<User> {
  return prisma.user.create({ data: { email: email.toLowerCase(), name } });
}

/** A Cookie header value for a live session of this user: `new Request(url, { headers: { Cookie } })`. */
export async function sessionCookieFor(userId: string): Promise<string> {
  const setCookie = await createSession(userId, { secure: false });
  return setCookie.split(";")[0]!;
}
