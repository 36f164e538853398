// A TikTok or Instagram connection's tokens, as the web and the worker use them (decision 217): kept as ciphertext
// bound to the creator and the field (like the YouTube ones), refreshed before they expire, and marked for
// reconnecting when the platform refuses them. The authorization itself is the web's (app/server/platforms).
import { PLATFORM_NAMES, type Platform } from "~/lib/platform-rules";
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

/** Saves (or renews) a connection's tokens, encrypted. */
export async function saveConnection(userId: string, platform: Platform, accountId: string, accountName: string | null, tokens: TokenSet) {
  const data = {
    accessTokenEnc: encryptSecret(tokens.accessToken, { userId, field: tokenField(platform, "AccessToken") }),
    refreshTokenEnc: tokens.refreshToken ? encryptSecret(tokens.refreshToken, { userId, field: tokenField(platform, "RefreshToken") }) : null,
    expiresAt: tokens.expiresAt,
    refreshExpiresAt: tokens.refreshExpiresAt,
    scope: tokens.scope,
    revokedAt: null,
    ...(accountName ? { accountName } : {}),
  };
  return prisma.platformConnection.upsert({
    where: { userId_platform_accountId: { userId, platform, accountId } },
    create: { userId, platform, accountId, ...data },
    update: data,
  });
}

export async function markRevoked(connectionId: string) {
  await prisma.platformConnection.updateMany({ where: { id: connectionId, revokedAt: null }, data: { revokedAt: new Date() } });
}

/**
 * A usable access token for the connection: refreshed first when it is about to expire (or `force`, after the
 * platform refused it once); a refused refresh marks the connection for reconnecting and throws.
 */
export async function platformAccessToken(userId: string, connectionId: string, options: { force?: boolean } = {}): Promise<string> {
  const connection = await prisma.platformConnection.findFirst({ where: { id: connectionId, userId } });
  const platform = (connection?.platform ?? "tiktok") as Platform;
  if (!connection || connection.revokedAt) throw new PlatformNotConnectedError(platform);
  const access = decryptSecret(connection.accessTokenEnc, { userId, field: tokenField(platform, "AccessToken") });
  const expiresAt = connection.expiresAt?.getTime() ?? Infinity;
  if (platform === "tiktok") {
    if (!options.force && expiresAt > Date.now() + TIKTOK_REFRESH_MARGIN_MS) return access;
    if (!connection.refreshTokenEnc) throw new PlatformNotConnectedError(platform);
    try {
      const tokens = await refreshTiktokToken(decryptSecret(connection.refreshTokenEnc, { userId, field: tokenField(platform, "RefreshToken") }));
      await saveConnection(userId, platform, connection.accountId, null, {
        accessToken: tokens.accessToken,
        refreshToken: tokens.refreshToken || decryptSecret(connection.refreshTokenEnc, { userId, field: tokenField(platform, "RefreshToken") }),
        expiresAt: new Date(Date.now() + tokens.expiresIn * 1000),
        refreshExpiresAt: tokens.refreshExpiresIn ? new Date(Date.now() + tokens.refreshExpiresIn * 1000) : connection.refreshExpiresAt,
        scope: tokens.scope || connection.scope,
      });
      return tokens.accessToken;
    } catch (e) {
      if (e instanceof TikTokApiError && !e.retryable) {
        await markRevoked(connection.id);
        throw new PlatformNotConnectedError(platform);
      }
      throw e;
    }
  }
  // Instagram: an expired long-lived token cannot be refreshed; one a day old may be, for 60 more days
  // (a token Instagram refused mid-post, `force`, cannot be renewed either: the creator reconnects)
  if (expiresAt <= Date.now() || options.force) {
    await markRevoked(connection.id);
    throw new PlatformNotConnectedError(platform);
  }
  const oldEnough = connection.updatedAt.getTime() < Date.now() - 24 * 3600 * 1000;
  if (expiresAt > Date.now() + INSTAGRAM_REFRESH_MARGIN_MS || !oldEnough) return access;
  try {
    const tokens = await refreshInstagramToken(access);
    await saveConnection(userId, platform, connection.accountId, null, { accessToken: tokens.accessToken, refreshToken: null, expiresAt: new Date(Date.now() + tokens.expiresIn * 1000), refreshExpiresAt: null, scope: connection.scope });
    return tokens.accessToken;
  } catch (e) {
    if (e instanceof InstagramApiError && e.unauthorized) {
      await markRevoked(connection.id);
      throw new PlatformNotConnectedError(platform);
    }
    // the token still works for a week: a failed early refresh is tried again next time
    return access;
  }
}

/** After the platform refused a token mid-post: Instagram's cannot be renewed; TikTok's is refreshed once. */
export async function markPlatformConnectionRevoked(connectionId: string) {
  await markRevoked(connectionId);
}
