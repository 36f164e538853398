// The authorised YouTube client for one creator, shared by the web side and the upload activities: the OAuth
// client built from the creator's own Google OAuth credentials and Google endpoints from the configuration, the
// tokens decrypted from YoutubeConnection (refreshed tokens saved back encrypted; a refused refresh marks the
// connection revoked), and how Google's errors read.
import { auth as googleAuth, youtube as youtubeApi, type youtube_v3 } from "@googleapis/youtube";
import type { YoutubeConnection } from "~/generated/prisma/client";
import { RECONNECT_MESSAGE } from "~/lib/youtube";
import { prisma } from "./db.server";
import { decryptSecret, encryptSecret } from "./encryption.server";
import { getEnv } from "./env.server";
import { getGoogleOAuthClient } from "./settings.server";

export type OAuth2Client = InstanceType<typeof googleAuth.OAuth2>;

export const NO_OAUTH_CLIENT_MESSAGE =
  "Save your Google OAuth client ID and secret in Settings (YouTube Upload Integration) before connecting YouTube.";

/** Thrown when the creator must (re)connect YouTube before the call can work. */
export class YoutubeNotConnectedError extends Error {
  constructor(message = RECONNECT_MESSAGE) {
    super(message);
    this.name = "YoutubeNotConnectedError";
  }
}

export function oauthClient(credentials: { clientId: string; clientSecret: string }, redirectUri?: string): OAuth2Client {
  const env = getEnv();
  return new googleAuth.OAuth2({
    clientId: credentials.clientId,
    clientSecret: credentials.clientSecret,
    redirectUri,
    endpoints: {
      oauth2AuthBaseUrl: env.GOOGLE_OAUTH_AUTHORIZE_URL,
      oauth2TokenUrl: env.GOOGLE_OAUTH_TOKEN_URL,
      oauth2RevokeUrl: env.GOOGLE_OAUTH_REVOKE_URL,
    },
  });
}

/**
 * Per-call options for every googleapis YouTube method: the generated methods read rootUrl only from the call's
 * own options (the client-wide rootUrl is not used for the URL), so each call passes it.
 */
export const youtubeCallOptions = () => ({ rootUrl: getEnv().YOUTUBE_API_BASE_URL });

/** The creator's googleapis YouTube client; refreshed tokens are saved (encrypted) as Google hands them out. */
export async function authorizedYoutube(userId: string): Promise<{ auth: OAuth2Client; youtube: youtube_v3.Youtube; connection: YoutubeConnection }> {
  const connection = await prisma.youtubeConnection.findUnique({ where: { userId } });
  if (!connection || connection.revokedAt) throw new YoutubeNotConnectedError(connection ? RECONNECT_MESSAGE : "YouTube is not connected. Click Connect YouTube first.");
  const credentials = await getGoogleOAuthClient(userId);
  if (!credentials) throw new YoutubeNotConnectedError(NO_OAUTH_CLIENT_MESSAGE);
  const auth = oauthClient(credentials);
  auth.setCredentials({
    access_token: decryptSecret(connection.accessTokenEnc, { userId, field: "youtubeAccessToken" }),
    refresh_token: connection.refreshTokenEnc ? decryptSecret(connection.refreshTokenEnc, { userId, field: "youtubeRefreshToken" }) : undefined,
    expiry_date: connection.expiresAt?.getTime(),
  });
  auth.on("tokens", (tokens) => {
    if (!tokens.access_token) return;
    void prisma.youtubeConnection
      .updateMany({
        where: { userId },
        data: {
          accessTokenEnc: encryptSecret(tokens.access_token, { userId, field: "youtubeAccessToken" }),
          expiresAt: tokens.expiry_date ? new Date(tokens.expiry_date) : null,
          ...(tokens.refresh_token ? { refreshTokenEnc: encryptSecret(tokens.refresh_token, { userId, field: "youtubeRefreshToken" }) } : {}),
        },
      })
      .catch(() => {});
  });
  const youtube = youtubeApi({ version: "v3", auth, rootUrl: getEnv().YOUTUBE_API_BASE_URL });
  return { auth, youtube, connection };
}

/** A fresh access token (refreshing it when it expired); a refused refresh marks the connection revoked. */
export async function freshAccessToken(userId: string, auth: OAuth2Client): Promise<string> {
  try {
    const { token } = await auth.getAccessToken();
    if (!token) throw new YoutubeNotConnectedError();
    return token;
  } catch (e) {
    if (isInvalidGrant(e)) {
      await markConnectionRevoked(userId);
      throw new YoutubeNotConnectedError();
    }
    throw e;
  }
}

export async function markConnectionRevoked(userId: string): Promise<void> {
  await prisma.youtubeConnection.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: new Date() } });
}

// ---- Google's errors ----

type GoogleErrorShape = {
  status?: number;
  code?: number | string;
  message?: string;
  response?: { status?: number; data?: unknown };
};

/** The HTTP status and YouTube's reason (quotaExceeded, authError, ...) inside a gaxios error. */
export function googleErrorDetails(e: unknown): { status: number | null; reason: string | null; message: string } {
  const error = (e ?? {}) as GoogleErrorShape;
  const status = error.response?.status ?? (typeof error.status === "number" ? error.status : null);
  const data = error.response?.data as { error?: string | { message?: string; errors?: { reason?: string }[] }; error_description?: string } | undefined;
  let reason: string | null = null;
  let message = error.message ?? String(e);
  if (data && typeof data.error === "object") {
    reason = data.error.errors?.[0]?.reason ?? null;
    message = data.error.message ?? message;
  } else if (data && typeof data.error === "string") {
    reason = data.error;
    message = data.error_description ?? data.error;
  }
  return { status, reason, message };
}

export function isInvalidGrant(e: unknown): boolean {
  return googleErrorDetails(e).reason === "invalid_grant";
}

export function googleErrorText(e: unknown): string {
  const { status, message } = googleErrorDetails(e);
  return status ? `HTTP ${status}, ${message}` : message;
}
