// Users are created on their first sign-in and keyed by the identity provider's issuer and subject id.
// The e-mail must be verified by the provider; an account known by e-mail only (created before the keying,
// or by an earlier provider) is linked on a verified sign-in when it has no identity yet. ALLOWED_EMAILS /
// ALLOWED_DOMAINS close sign-up; the owner account is never claimed through the built-in provider unless
// BUILTIN_SIGNIN_ALLOWS_OWNER=true.
import type { User } from "~/generated/prisma/client";
import { Prisma } from "~/generated/prisma/client";
import { prisma } from "~/core/db.server";
import { getEnv } from "~/core/env.server";

export type SignInProfile = {
  issuer: string;
  subject: string;
  email: string;
  emailVerified: boolean;
  name?: string | null;
  avatarUrl?: string | null;
  /** true when the built-in provider (no password, local use) vouched for this profile */
  builtin?: boolean;
};

/** A sign-in this server refuses: a code for /login-failed and a message a person can act on. */
export class SignInRefused extends Error {
  constructor(
    readonly code: "email_not_verified" | "not_allowed" | "owner_not_allowed" | "account_conflict",
    message: string,
  ) {
    super(message);
    this.name = "SignInRefused";
  }
}

/** Whether ALLOWED_EMAILS / ALLOWED_DOMAINS let this e-mail sign in (both unset: everyone). */
export function isEmailAllowed(email: string, env: { ALLOWED_EMAILS?: string[]; ALLOWED_DOMAINS?: string[] } = getEnv()): boolean {
  const emails = env.ALLOWED_EMAILS ?? [];
  const domains = env.ALLOWED_DOMAINS ?? [];
  if (!emails.length && !domains.length) return true;
  const address = email.trim().toLowerCase();
  const domain = address.slice(address.lastIndexOf("@") + 1);
  return emails.includes(address) || domains.includes(domain);
}

/** Checks the profile against the operator's rules; throws SignInRefused. */
export function checkSignInPolicy(profile: SignInProfile): void {
  const env = getEnv();
  const email = profile.email.trim().toLowerCase();
  if (profile.emailVerified !== true) {
    throw new SignInRefused("email_not_verified", "Your e-mail address is not verified with the sign-in provider. Verify it there, then sign in again.");
  }
  if (!isEmailAllowed(email, env)) {
    throw new SignInRefused("not_allowed", "This Reelsmith does not accept sign-ups from your e-mail address. Ask its operator to add you.");
  }
  if (profile.builtin && env.OWNER_EMAIL && email === env.OWNER_EMAIL.toLowerCase() && !env.BUILTIN_SIGNIN_ALLOWS_OWNER) {
    throw new SignInRefused(
      "owner_not_allowed",
      "The owner account cannot be used through the built-in sign-in. The operator can allow it with BUILTIN_SIGNIN_ALLOWS_OWNER=true, or set up a real sign-in provider.",
    );
  }
}

/** The user for this issuer and subject, created (or linked by verified e-mail) on first sign-in. */
export async function upsertUserFromProfile(profile: SignInProfile): Promise<User> {
  checkSignInPolicy(profile);
  const email = profile.email.trim().toLowerCase();
  const name = profile.name?.trim() || null;
  const avatarUrl = profile.avatarUrl || null;
  const identity = { authIssuer: profile.issuer, authSubject: profile.subject };

  const known = await prisma.user.findUnique({ where: { authIssuer_authSubject: identity } });
  if (known) {
    // The provider's latest profile; the e-mail follows it unless another account already has that address.
    const emailTaken = known.email !== email && (await prisma.user.findUnique({ where: { email } }));
    return prisma.user.update({
      where: { id: known.id },
      data: { ...(emailTaken ? {} : { email }), name: name ?? undefined, avatarUrl: avatarUrl ?? undefined },
    });
  }

  const byEmail = await prisma.user.findUnique({ where: { email } });
  if (byEmail) {
    if (byEmail.authIssuer || byEmail.authSubject) {
      throw new SignInRefused(
        "account_conflict",
        "An account with this e-mail address already signs in with another identity. Sign in the way you did before.",
      );
    }
    // An e-mail-only account (from before accounts were keyed by identity): linked on this verified sign-in.
    const linked = await prisma.user.updateMany({ where: { id: byEmail.id, authIssuer: null, authSubject: null }, data: { ...identity, name: name ?? undefined, avatarUrl: avatarUrl ?? undefined } });
    if (linked.count === 1) return (await prisma.user.findUnique({ where: { id: byEmail.id } }))!;
    return upsertUserFromProfile(profile);
  }

  try {
    return await prisma.user.create({ data: { email, name, avatarUrl, ...identity } });
  } catch (e) {
    // Two first sign-ins at once: the other one created the row; use it.
    if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002") {
      const again = await prisma.user.findUnique({ where: { authIssuer_authSubject: identity } });
      if (again) return again;
    }
    throw e;
  }
}

export function findUserById(id: string): Promise<User | null> {
  return prisma.user.findUnique({ where: { id } });
}
