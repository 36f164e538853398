// A creator's YouTube connection, with the creator's own Google OAuth client from Settings: the authorization
// (offline access, PKCE, a state bound to the browser session that started it), the tokens (ciphertext in
// YoutubeConnection, refreshed on expiry, a refused refresh marks the connection for reconnecting), and the
// authorised googleapis client the upload activities and the category list use.
import { randomBytes } from "node:crypto";
import { auth as googleAuth, youtube as youtubeApi, type youtube_v3 } from "@googleapis/youtube";
import type { YoutubeConnection } from "~/generated/prisma/client";
import { isAllowedCategory, RECONNECT_MESSAGE, YOUTUBE_CATEGORY_TITLES, YOUTUBE_SCOPES, type YoutubeCategory } from "~/lib/youtube";
import { YOUTUBE_CATEGORY_IDS } from "~/lib/constants";
import { appOrigin, jsonError } from "./api.server";
import { prisma } from "./db.server";
import { decryptSecret, encryptSecret } from "./encryption.server";
import { getEnv } from "./env.server";
import { readSessionId } from "./session.server";
import { getGoogleOAuthClient } from "./settings.server";

export const YOUTUBE_CALLBACK_PATH = "/api/youtube/oauth/callback";
const AUTHORIZATION_TTL_MS = 10 * 60 * 1000;

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

function oauthClient(credentials: { clientId: string; clientSecret: string }, redirectUri?: string): OAuth2Client {
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

async function requireOAuthCredentials(userId: string) {
  const credentials = await getGoogleOAuthClient(userId);
  if (!credentials) throw jsonError(400, NO_OAUTH_CLIENT_MESSAGE, { field: "googleOAuthClientId" });
  return credentials;
}

export const youtubeRedirectUri = (request: Request) => `${appOrigin(request)}${YOUTUBE_CALLBACK_PATH}`;

/** GET /api/youtube/oauth/authorize: Google's consent URL for this creator's OAuth client. */
export async function startYoutubeAuthorization(request: Request, userId: string): Promise<{ authUrl: string }> {
  const sessionId = await readSessionId(request.headers.get("Cookie"));
  if (!sessionId) throw jsonError(401, "Not signed in");
  const credentials = await requireOAuthCredentials(userId);
  const redirectUri = youtubeRedirectUri(request);
  const client = oauthClient(credentials, redirectUri);
  const { codeVerifier, codeChallenge } = await client.generateCodeVerifierAsync();
  const state = randomBytes(32).toString("base64url");
  await prisma.youtubeOAuthRequest.deleteMany({ where: { OR: [{ userId, sessionId }, { expiresAt: { lt: new Date() } }] } });
  await prisma.youtubeOAuthRequest.create({
    data: { state, userId, sessionId, codeVerifierEnc: encryptSecret(codeVerifier), redirectUri, expiresAt: new Date(Date.now() + AUTHORIZATION_TTL_MS) },
  });
  const authUrl = client.generateAuthUrl({
    access_type: "offline",
    // consent every time, so Google sends a refresh token even to a creator who connected before
    prompt: "consent",
    include_granted_scopes: true,
    scope: YOUTUBE_SCOPES,
    state,
    code_challenge: codeChallenge,
    code_challenge_method: "S256" as Parameters<OAuth2Client["generateAuthUrl"]>[0] extends infer O ? O extends { code_challenge_method?: infer M } ? M : never : never,
  });
  return { authUrl };
}

export type CallbackOutcome = { ok: true; channelTitle: string | null } | { ok: false; message: string };

/** /api/youtube/oauth/callback: checks the state against the session, exchanges the code, stores the tokens. */
export async function completeYoutubeAuthorization(request: Request, userId: string): Promise<CallbackOutcome> {
  const url = new URL(request.url);
  const state = url.searchParams.get("state") ?? "";
  const sessionId = await readSessionId(request.headers.get("Cookie"));
  const pending = state ? await prisma.youtubeOAuthRequest.findUnique({ where: { state } }) : null;
  if (!pending || pending.userId !== userId || pending.sessionId !== sessionId || pending.expiresAt.getTime() < Date.now()) {
    return { ok: false, message: "This YouTube authorization was not started from this browser session (or it expired). Click Connect YouTube again." };
  }
  await prisma.youtubeOAuthRequest.delete({ where: { id: pending.id } });
  const error = url.searchParams.get("error");
  if (error) {
    return {
      ok: false,
      message:
        error === "access_denied"
          ? "YouTube access was not granted. If your OAuth app is in testing mode, add your Google account to its Test users, then connect again."
          : `Google refused the authorization (${error}). Check the OAuth client in Settings, then connect again.`,
    };
  }
  const code = url.searchParams.get("code");
  if (!code) return { ok: false, message: "Google sent no authorization code. Connect YouTube again." };

  const credentials = await getGoogleOAuthClient(userId);
  if (!credentials) return { ok: false, message: NO_OAUTH_CLIENT_MESSAGE };
  const client = oauthClient(credentials, pending.redirectUri);
  let tokens: Parameters<OAuth2Client["setCredentials"]>[0];
  try {
    const response = await client.getToken({ code, codeVerifier: decryptSecret(pending.codeVerifierEnc), redirect_uri: pending.redirectUri });
    tokens = response.tokens;
  } catch (e) {
    return { ok: false, message: `Google did not accept the authorization: ${googleErrorText(e)}. Check the OAuth client ID and secret in Settings.` };
  }
  if (!tokens.access_token) return { ok: false, message: "Google returned no access token. Connect YouTube again." };
  const existing = await prisma.youtubeConnection.findUnique({ where: { userId } });
  const refreshTokenEnc = tokens.refresh_token ? encryptSecret(tokens.refresh_token) : (existing?.refreshTokenEnc ?? null);
  const data = {
    accessTokenEnc: encryptSecret(tokens.access_token),
    refreshTokenEnc,
    expiresAt: tokens.expiry_date ? new Date(tokens.expiry_date) : null,
    scope: tokens.scope ?? YOUTUBE_SCOPES.join(" "),
    revokedAt: null,
  };
  await prisma.youtubeConnection.upsert({ where: { userId }, create: { userId, ...data }, update: data });

  // the channel's name is a courtesy for the page: a failure here does not undo the connection
  let channelTitle: string | null = null;
  try {
    const { youtube } = await authorizedYoutube(userId);
    const channel = (await youtube.channels.list({ part: ["snippet"], mine: true }, youtubeCallOptions())).data.items?.[0];
    channelTitle = channel?.snippet?.title ?? null;
    await prisma.youtubeConnection.update({ where: { userId }, data: { channelId: channel?.id ?? null, channelTitle } });
  } catch {
    /* shown without a channel name */
  }
  return { ok: true, channelTitle };
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
    access_token: decryptSecret(connection.accessTokenEnc),
    refresh_token: connection.refreshTokenEnc ? decryptSecret(connection.refreshTokenEnc) : undefined,
    expiry_date: connection.expiresAt?.getTime(),
  });
  auth.on("tokens", (tokens) => {
    if (!tokens.access_token) return;
    void prisma.youtubeConnection
      .updateMany({
        where: { userId },
        data: {
          accessTokenEnc: encryptSecret(tokens.access_token),
          expiresAt: tokens.expiry_date ? new Date(tokens.expiry_date) : null,
          ...(tokens.refresh_token ? { refreshTokenEnc: encryptSecret(tokens.refresh_token) } : {}),
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

export type YoutubeAuthStatus = { isAuthenticated: boolean; needsReconnect: boolean; channelTitle: string | null; hasOAuthClient: boolean };

/** GET /api/youtube/auth-status. An expired access token is refreshed here, so a revoked grant shows at once. */
export async function getYoutubeAuthStatus(userId: string): Promise<YoutubeAuthStatus> {
  const [connection, credentials] = await Promise.all([prisma.youtubeConnection.findUnique({ where: { userId } }), getGoogleOAuthClient(userId).catch(() => null)]);
  const hasOAuthClient = Boolean(credentials);
  if (!connection) return { isAuthenticated: false, needsReconnect: false, channelTitle: null, hasOAuthClient };
  if (!connection.revokedAt && connection.expiresAt && connection.expiresAt.getTime() < Date.now() + 60_000) {
    try {
      const { auth } = await authorizedYoutube(userId);
      await freshAccessToken(userId, auth);
    } catch {
      // a network failure is not a revocation: the connection stays as it is
    }
    const after = await prisma.youtubeConnection.findUnique({ where: { userId } });
    if (after?.revokedAt) return { isAuthenticated: false, needsReconnect: true, channelTitle: after.channelTitle, hasOAuthClient };
  }
  if (connection.revokedAt) return { isAuthenticated: false, needsReconnect: true, channelTitle: connection.channelTitle, hasOAuthClient };
  return { isAuthenticated: true, needsReconnect: false, channelTitle: connection.channelTitle, hasOAuthClient };
}

/** Forgets the connection; the grant is revoked at Google too when Google can be reached. */
export async function disconnectYoutube(userId: string): Promise<void> {
  const connection = await prisma.youtubeConnection.findUnique({ where: { userId } });
  if (!connection) return;
  try {
    const credentials = await getGoogleOAuthClient(userId);
    const token = connection.refreshTokenEnc ? decryptSecret(connection.refreshTokenEnc) : decryptSecret(connection.accessTokenEnc);
    if (credentials && !connection.revokedAt) await oauthClient(credentials).revokeToken(token);
  } catch {
    // already revoked, or Google unreachable: the local tokens are removed regardless
  }
  await prisma.youtubeConnection.deleteMany({ where: { userId } });
}

const STATIC_CATEGORIES: YoutubeCategory[] = YOUTUBE_CATEGORY_IDS.map((id) => ({ id, title: YOUTUBE_CATEGORY_TITLES[id] }));

/** GET /api/youtube/categories: the spec's allowed ids, named by YouTube when connected (else by our list). */
export async function listYoutubeCategories(userId: string): Promise<{ categories: YoutubeCategory[]; source: "youtube" | "builtin" }> {
  const connection = await prisma.youtubeConnection.findUnique({ where: { userId }, select: { revokedAt: true } });
  if (!connection || connection.revokedAt) return { categories: STATIC_CATEGORIES, source: "builtin" };
  try {
    const { youtube } = await authorizedYoutube(userId);
    const items = (await youtube.videoCategories.list({ part: ["snippet"], regionCode: "US" }, youtubeCallOptions())).data.items ?? [];
    const named = new Map(items.filter((c) => c.id && c.snippet?.assignable !== false).map((c) => [c.id!, c.snippet?.title ?? ""]));
    const categories = YOUTUBE_CATEGORY_IDS.filter((id) => named.has(id)).map((id) => ({ id, title: named.get(id) || YOUTUBE_CATEGORY_TITLES[id] }));
    return categories.length ? { categories, source: "youtube" } : { categories: STATIC_CATEGORIES, source: "builtin" };
  } catch (e) {
    if (isInvalidGrant(e)) await markConnectionRevoked(userId);
    return { categories: STATIC_CATEGORIES, source: "builtin" };
  }
}

export async function setPreferredCategory(userId: string, categoryId: string): Promise<{ categoryId: string }> {
  if (!isAllowedCategory(categoryId)) throw jsonError(400, `categoryId must be one of ${YOUTUBE_CATEGORY_IDS.join(", ")}.`, { field: "categoryId" });
  await prisma.userSettings.upsert({ where: { userId }, create: { userId, youtubePreferredCategory: categoryId }, update: { youtubePreferredCategory: categoryId } });
  return { categoryId };
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

function googleErrorText(e: unknown): string {
  const { status, message } = googleErrorDetails(e);
  return status ? `HTTP ${status}, ${message}` : message;
}
