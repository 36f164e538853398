// A TikTok or Instagram connection's tokens, as the web and the worker use them (decision 217): kept as ciphertext
// bound to the creator and the field (like the YouTube ones), refreshed before they expire, and marked for
// reconnecting when the platform refuses them. The authorization itself is the web's (app/server/platforms).
// Refreshes are serialised per connection (the row locked): TikTok rotates the refresh token, so two refreshes at
// once would leave the loser with a spent token (invalid_grant) and the account wrongly marked for reconnecting.
import { PLATFORM_NAMES, type Platform } from "~/lib/platform-rules";
import type { PlatformConnection, Prisma } from "~/generated/prisma/client";
import { prisma } from "~/core/db.server";
import { decryptSecret, encryptSecret } from "~/core/encryption.server";
import { InstagramApiError, refreshInstagramToken } from "./instagram-client.server";
import { refreshTiktokToken, TikTokApiError } from "./tiktok-client.server";

/** TikTok's access token lives 24 hours: refreshed when less than this is left. */
const TIKTOK_REFRESH_MARGIN_MS = 5 * 60 * 1000;
/** Instagram's long-lived token lives 60 days and may be refreshed once it is a day old: refreshed a week ahead. */
const INSTAGRAM_REFRESH_MARGIN_MS = 7 * 24 * 3600 * 1000;

export const reconnectMessage = (platform: Platform) => `Your ${PLATFORM_NAMES[platform]} connection is no longer valid. Reconnect ${platform === "tiktok" ? "TikTok" : "Instagram"} in Settings.`;
/** The creator must (re)connect this account before it can post. */
export class PlatformNotConnectedError extends Error {
  constructor(readonly platform: Platform, message = reconnectMessage(platform)) {
    super(message);
    this.name = "PlatformNotConnectedError";
  }
}

export const tokenField = (platform: Platform, what: string) => `${platform}${what}`;
export type TokenSet = { accessToken: string; refreshToken: string | null; expiresAt: Date | null; refreshExpiresAt: Date | null; scope: string | null };

/** Saves (or renews) a connection's tokens, encrypted (in `db`'s transaction when given). */
export async function saveConnection(userId: string, platform: Platform, accountId: string, accountName: string | null, tokens: TokenSet, db: Pick<typeof prisma, "platformConnection"> = prisma) {
  const data = {
    accessTokenEnc: encryptSecret(tokens.accessToken, { userId, field: tokenField(platform, "AccessToken") }),
    refreshTokenEnc: tokens.refreshToken ? encryptSecret(tokens.refreshToken, { userId, field: tokenField(platform, "RefreshToken") }) : null,
    expiresAt: tokens.expiresAt,
    refreshExpiresAt: tokens.refreshExpiresAt,
    scope: tokens.scope,
    revokedAt: null,
    ...(accountName ? { accountName } : {}),
  };
  return db.platformConnection.upsert({
    where: { userId_platform_accountId: { userId, platform, accountId } },
    create: { userId, platform, accountId, ...data },
    update: data,
  });
}

/** The creator must connect the account again: the platform refused its tokens. */
export async function markRevoked(connectionId: string) {
  await prisma.platformConnection.updateMany({ where: { id: connectionId, revokedAt: null }, data: { revokedAt: new Date() } });
}

/** What a refresh under the lock came to: a token to use, or the platform's refusal (recorded once the lock is gone). */
type Refreshed = { token: string } | { revoked: true };

/** A refresh may wait for the TikTok or Instagram answer while it holds the row: this long at most. */
const REFRESH_TX_MS = 60_000;

/**
 * Runs `refresh` holding the connection's row (SELECT ... FOR UPDATE), with the row read again under the lock. When
 * another refresh saved new tokens since `seen` was read, its fresher access token is used and nothing is refreshed.
 */
async function underRefreshLock(userId: string, seen: PlatformConnection, refresh: (fresh: PlatformConnection, tx: Prisma.TransactionClient) => Promise<Refreshed>): Promise<string> {
  const platform = seen.platform as Platform;
  const outcome = await prisma.$transaction(
    async (tx): Promise<Refreshed> => {
      await tx.$queryRaw`SELECT id FROM "PlatformConnection" WHERE id = ${seen.id} FOR UPDATE`;
      const fresh = await tx.platformConnection.findFirst({ where: { id: seen.id, userId } });
      if (!fresh || fresh.revokedAt) return { revoked: true };
      if (fresh.accessTokenEnc !== seen.accessTokenEnc) return { token: decryptSecret(fresh.accessTokenEnc, { userId, field: tokenField(platform, "AccessToken") }) };
      return refresh(fresh, tx);
    },
    { maxWait: REFRESH_TX_MS, timeout: REFRESH_TX_MS },
  );
  if ("token" in outcome) return outcome.token;
  await markRevoked(seen.id);
  throw new PlatformNotConnectedError(platform);
}

/**
 * A usable access token for the connection: refreshed first when it is about to expire, or when the platform refused
 * `options.refused` (unless the connection already holds a newer token, saved by a refresh running beside this one);
 * a refused refresh marks the connection for reconnecting and throws.
 */
export async function platformAccessToken(userId: string, connectionId: string, options: { refused?: string } = {}): Promise<string> {
  const connection = await prisma.platformConnection.findFirst({ where: { id: connectionId, userId } });
  const platform = (connection?.platform ?? "tiktok") as Platform;
  if (!connection || connection.revokedAt) throw new PlatformNotConnectedError(platform);
  const access = decryptSecret(connection.accessTokenEnc, { userId, field: tokenField(platform, "AccessToken") });
  const expiresAt = connection.expiresAt?.getTime() ?? Infinity;
  const refused = options.refused === access;
  if (platform === "tiktok") {
    if (!refused && expiresAt > Date.now() + TIKTOK_REFRESH_MARGIN_MS) return access;
    if (!connection.refreshTokenEnc) throw new PlatformNotConnectedError(platform);
    return underRefreshLock(userId, connection, async (fresh, tx) => {
      if (!fresh.refreshTokenEnc) return { revoked: true };
      const refreshToken = decryptSecret(fresh.refreshTokenEnc, { userId, field: tokenField(platform, "RefreshToken") });
      try {
        const tokens = await refreshTiktokToken(refreshToken);
        const expiry = {
          expiresAt: new Date(Date.now() + tokens.expiresIn * 1000),
          refreshExpiresAt: tokens.refreshExpiresIn ? new Date(Date.now() + tokens.refreshExpiresIn * 1000) : fresh.refreshExpiresAt,
        };
        await saveConnection(userId, platform, fresh.accountId, null, { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken || refreshToken, ...expiry, scope: tokens.scope || fresh.scope }, tx);
        return { token: tokens.accessToken };
      } catch (e) {
        if (e instanceof TikTokApiError && !e.retryable) return { revoked: true };
        throw e;
      }
    });
  }
  // Instagram: an expired long-lived token cannot be refreshed; one a day old may be, for 60 more days
  // (a token Instagram refused mid-post cannot be renewed either: the creator reconnects)
  if (expiresAt <= Date.now() || refused) {
    await markRevoked(connection.id);
    throw new PlatformNotConnectedError(platform);
  }
  const oldEnough = connection.updatedAt.getTime() < Date.now() - 24 * 3600 * 1000;
  if (expiresAt > Date.now() + INSTAGRAM_REFRESH_MARGIN_MS || !oldEnough) return access;
  return underRefreshLock(userId, connection, async (fresh, tx) => {
    try {
      const tokens = await refreshInstagramToken(access);
      await saveConnection(userId, platform, fresh.accountId, null, { accessToken: tokens.accessToken, refreshToken: null, expiresAt: new Date(Date.now() + tokens.expiresIn * 1000), refreshExpiresAt: null, scope: fresh.scope }, tx);
      return { token: tokens.accessToken };
    } catch (e) {
      if (e instanceof InstagramApiError && e.unauthorized) return { revoked: true };
      // the token still works for a week: a failed early refresh is tried again next time
      return { token: access };
    }
  });
}
