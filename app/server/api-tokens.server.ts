// Personal API tokens (issue 32, decision 160): a program sends `Authorization: Bearer rs_pat_...` to /api/v1 or
// /mcp and acts as the token's owner, with the owner's permissions and plan limits. A token is 32 random bytes
// behind a recognisable prefix (so secret scanners can find a leaked one); only its sha256 is stored, so the
// token is shown once, when it is made. Scopes: "read" (GET only) or "full". Every request reads its token's row
// (one unique-index lookup), so revoking is immediate in every web process.
import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import { prisma } from "~/core/db.server";
import { API_TOKEN_NAME_MAX, API_TOKEN_PREFIX, API_TOKEN_SCOPES, MAX_API_TOKENS_PER_USER, type ApiTokenScope, type ApiTokenView } from "~/lib/api-tokens";
import { refusal } from "~/core/refusal.server";

export { API_TOKEN_PREFIX, type ApiTokenScope, type ApiTokenView };
/** rs_pat_ + 43 base64url characters (256 bits). */
export const API_TOKEN_PATTERN = /^rs_pat_[A-Za-z0-9_-]{43}$/;
/** last use is written at most this often per token (a request must not cost a write each time) */
const LAST_USED_WRITE_MS = 60_000;

export const CreateApiTokenSchema = z.object({
  name: z.string().trim().min(1, "Give the token a name, e.g. the program that will use it.").max(API_TOKEN_NAME_MAX, `A token name has at most ${API_TOKEN_NAME_MAX} characters.`),
  scope: z.enum(API_TOKEN_SCOPES, { message: 'Scope is "read" (read-only) or "full".' }),
  /** days until it expires; null: never */
  expiresInDays: z.union([z.literal(7), z.literal(30), z.literal(90), z.literal(365), z.null()], { message: "Expiry is 7, 30, 90 or 365 days, or never (null)." }),
});
export type CreateApiToken = z.infer<typeof CreateApiTokenSchema>;

export function hashApiToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

export function newApiTokenSecret(): string {
  return API_TOKEN_PREFIX + randomBytes(32).toString("base64url");
}

function toView(row: { id: string; name: string; prefix: string; scope: string; createdAt: Date; expiresAt: Date | null; lastUsedAt: Date | null }, now = Date.now()): ApiTokenView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scope: row.scope === "full" ? "full" : "read",
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expired: Boolean(row.expiresAt && row.expiresAt.getTime() <= now),
  };
}

/** Makes a token; the answer's `token` is the only time the secret exists outside the caller. */
export async function createApiToken(userId: string, input: CreateApiToken): Promise<{ token: string; apiToken: ApiTokenView }> {
  const live = await prisma.apiToken.count({ where: { userId, revokedAt: null } });
  if (live >= MAX_API_TOKENS_PER_USER) {
    throw refusal(409, `You have ${MAX_API_TOKENS_PER_USER} tokens, the most an account may hold. Revoke one you no longer use, then make a new one.`, { field: null });
  }
  const token = newApiTokenSecret();
  const row = await prisma.apiToken.create({
    data: {
      userId,
      name: input.name,
      scope: input.scope,
      tokenHash: hashApiToken(token),
      prefix: token.slice(0, API_TOKEN_PREFIX.length + 4),
      expiresAt: input.expiresInDays === null ? null : new Date(Date.now() + input.expiresInDays * 86_400_000),
    },
  });
  return { token, apiToken: toView(row) };
}

/** The user's tokens that are not revoked, newest first (expired ones stay listed, marked, until revoked). */
export async function listApiTokens(userId: string): Promise<ApiTokenView[]> {
  const rows = await prisma.apiToken.findMany({ where: { userId, revokedAt: null }, orderBy: { createdAt: "desc" } });
  const now = Date.now();
  return rows.map((r) => toView(r, now));
}

/** Revokes one of the user's tokens at once; another user's id (or an unknown one) is a 404. */
export async function revokeApiToken(userId: string, tokenId: string): Promise<void> {
  const row = await prisma.apiToken.findFirst({ where: { id: tokenId, userId, revokedAt: null }, select: { id: true } });
  if (!row) throw refusal(404, "Token not found. It may already be revoked.", { field: "id" });
  await prisma.apiToken.update({ where: { id: row.id }, data: { revokedAt: new Date() } });
}

export type ApiCaller = { userId: string; tokenId: string; scope: ApiTokenScope };
export type ApiTokenRefusal = "missing" | "malformed" | "unknown" | "revoked" | "expired";

export const API_TOKEN_REFUSALS: Record<ApiTokenRefusal, string> = {
  missing: "This address needs an API token: send `Authorization: Bearer <token>`. Make a token under Settings > API tokens.",
  malformed: "The Authorization header does not hold a Reelsmith API token (they start with rs_pat_). Make one under Settings > API tokens.",
  unknown: "This API token is not known. Check that it was copied whole, or make a new one under Settings > API tokens.",
  revoked: "This API token was revoked. Make a new one under Settings > API tokens.",
  expired: "This API token has expired. Make a new one under Settings > API tokens.",
};

/** The token in an Authorization header: null without a Bearer header, "" when the header is not a bearer token. */
export function bearerTokenOf(authorization: string | null | undefined): string | null {
  if (!authorization) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  return match ? match[1]! : "";
}

type TokenRow = { id: string; userId: string; scope: string; expiresAt: Date | null; revokedAt: Date | null; lastUsedAt: Date | null };

function readToken(hash: string): Promise<TokenRow | null> {
  return prisma.apiToken.findUnique({ where: { tokenHash: hash }, select: { id: true, userId: true, scope: true, expiresAt: true, revokedAt: true, lastUsedAt: true } });
}

/** Who a bearer token speaks for, or why it is refused. Records the token's last use (at most once a minute). */
export async function authenticateApiToken(authorization: string | null | undefined): Promise<{ ok: true; caller: ApiCaller } | { ok: false; reason: ApiTokenRefusal }> {
  const token = bearerTokenOf(authorization);
  if (token === null) return { ok: false, reason: "missing" };
  if (!API_TOKEN_PATTERN.test(token)) return { ok: false, reason: "malformed" };
  const hash = hashApiToken(token);
  const row = await readToken(hash);
  if (!row) return { ok: false, reason: "unknown" };
  if (row.revokedAt) return { ok: false, reason: "revoked" };
  const now = Date.now();
  if (row.expiresAt && row.expiresAt.getTime() <= now) return { ok: false, reason: "expired" };
  if (!row.lastUsedAt || now - row.lastUsedAt.getTime() > LAST_USED_WRITE_MS) {
    row.lastUsedAt = new Date(now);
    await prisma.apiToken.update({ where: { id: row.id }, data: { lastUsedAt: row.lastUsedAt } }).catch(() => {});
  }
  return { ok: true, caller: { userId: row.userId, tokenId: row.id, scope: row.scope === "full" ? "full" : "read" } };
}
