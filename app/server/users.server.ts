// Users are created on their first sign-in and keyed by e-mail, whichever identity provider vouched for it.
import type { User } from "~/generated/prisma/client";
import { prisma } from "./db.server";

export type SignInProfile = { email: string; name?: string | null; avatarUrl?: string | null };

/** The user with this e-mail, created on first sign-in; name and picture follow the provider's latest values. */
export function upsertUserFromProfile(profile: SignInProfile): Promise<User> {
  const email = profile.email.trim().toLowerCase();
  const name = profile.name?.trim() || null;
  const avatarUrl = profile.avatarUrl || null;
  return prisma.user.upsert({
    where: { email },
    create: { email, name, avatarUrl },
    update: { name: name ?? undefined, avatarUrl: avatarUrl ?? undefined },
  });
}

export function findUserById(id: string): Promise<User | null> {
  return prisma.user.findUnique({ where: { id } });
}
