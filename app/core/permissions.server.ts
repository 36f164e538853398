// Roles and limits: admin (everything), premium, free (one project, 720p, no music, no upload). The OWNER_EMAIL account is admin. Without STRIPE_SECRET_KEY billing is
// off and every signed-in user gets premium ("self-hosted mode"). With it, premium needs an active
// subscription; everybody else is free: one project, 720p at most, no background music, no upload.
import type { User } from "~/generated/prisma/client";
import { refusal } from "./refusal.server";
import { prisma, type DbClient } from "./db.server";
import { getEnv } from "./env.server";
import type { AccessLevel } from "~/lib/subscription";

export type { AccessLevel };

export const FREE_PROJECT_LIMIT = 1;
export const FREE_MAX_RENDER_HEIGHT = 720;
export const PREMIUM_MAX_RENDER_HEIGHT = 2160;

const ACTIVE_SUBSCRIPTION_STATUSES = new Set(["active", "trialing"]);

export function isBillingEnabled(): boolean {
  return Boolean(getEnv().STRIPE_SECRET_KEY);
}

export function isOwner(user: Pick<User, "email">): boolean {
  const owner = getEnv().OWNER_EMAIL;
  return Boolean(owner) && user.email.trim().toLowerCase() === owner!.trim().toLowerCase();
}

/**
 * Whether this creator's webhooks and model server may be at private, loopback or link-local addresses (decision
 * 196): only when the operator allows it for everyone (ALLOW_PRIVATE_TARGETS=true) or the account is the owner's.
 */
export function mayUsePrivateTargets(user: Pick<User, "email">): boolean {
  return getEnv().ALLOW_PRIVATE_TARGETS || isOwner(user);
}

/** mayUsePrivateTargets for a user id; false for a user that no longer exists. */
export async function privateTargetsAllowedFor(userId: string, db: DbClient = prisma): Promise<boolean> {
  if (getEnv().ALLOW_PRIVATE_TARGETS) return true;
  const user = await db.user.findUnique({ where: { id: userId }, select: { email: true } });
  return Boolean(user) && isOwner(user!);
}

/** A subscription counts while Stripe calls it active (or trialing) and its paid period has not ended. */
export function isSubscriptionActive(subscription: { status: string; currentPeriodEnd: Date | null } | null, now = new Date()): boolean {
  if (!subscription || !ACTIVE_SUBSCRIPTION_STATUSES.has(subscription.status)) return false;
  return !subscription.currentPeriodEnd || subscription.currentPeriodEnd.getTime() > now.getTime();
}

/** `db`: a transaction's client when the caller holds one (a second pool connection inside it could starve the pool). */
export async function getAccessLevel(user: Pick<User, "id" | "email">, db: DbClient = prisma): Promise<AccessLevel> {
  if (isOwner(user)) return "admin";
  if (!isBillingEnabled()) return "premium";
  const subscription = await db.subscription.findUnique({ where: { userId: user.id }, select: { status: true, currentPeriodEnd: true } });
  return isSubscriptionActive(subscription) ? "premium" : "free";
}

async function accessLevelOf(userId: string, db: DbClient = prisma): Promise<AccessLevel> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { id: true, email: true } });
  if (!user) throw refusal(401, "Not signed in");
  return getAccessLevel(user, db);
}

const UPGRADE_HINT = "Upgrade to Premium on the Subscription page (/subscription) to unlock it.";

export const LIMIT_MESSAGES = {
  projects: `Free accounts can have ${FREE_PROJECT_LIMIT} project. Upgrade to Premium on the Subscription page (/subscription) for unlimited projects.`,
  music: `Background music is a Premium feature. ${UPGRADE_HINT}`,
  upload: `Uploading to YouTube is a Premium feature. ${UPGRADE_HINT} You can still download the video and upload it yourself.`,
} as const;

/** Throws 402 when a free account already has its one project. Inside a transaction, pass its client as `db`. */
export async function assertCanCreateProject(userId: string, db: DbClient = prisma): Promise<void> {
  if ((await accessLevelOf(userId, db)) !== "free") return;
  const count = await db.project.count({ where: { userId } });
  if (count >= FREE_PROJECT_LIMIT) throw refusal(402, LIMIT_MESSAGES.projects, { limit: "projects" });
}

export async function assertCanUseMusic(userId: string): Promise<void> {
  if (!(await canUseMusic(userId))) throw refusal(402, LIMIT_MESSAGES.music, { limit: "music" });
}

/** Background music (generation, volume, mixing, the render's music layer) is for premium and admin accounts. */
export async function canUseMusic(userId: string): Promise<boolean> {
  return (await accessLevelOf(userId)) !== "free";
}

export async function assertCanUpload(userId: string): Promise<void> {
  if ((await accessLevelOf(userId)) === "free") throw refusal(402, LIMIT_MESSAGES.upload, { limit: "upload" });
}

/** The tallest render this account may make: free 720p; premium and admin up to 4K. */
export async function maxRenderHeight(userId: string): Promise<720 | 1080 | 2160> {
  return (await accessLevelOf(userId)) === "free" ? FREE_MAX_RENDER_HEIGHT : PREMIUM_MAX_RENDER_HEIGHT;
}
