// A creator's YouTube connection, with the creator's own Google OAuth client from Settings: the authorization
// (offline access, PKCE, a state bound to the browser session that started it), the tokens (ciphertext in
// YoutubeConnection, refreshed on expiry, a refused refresh marks the connection for reconnecting), and the
// authorised googleapis client the upload activities and the category list use.
import { randomBytes } from "node:crypto";
import { isAllowedCategory, YOUTUBE_CATEGORY_TITLES, YOUTUBE_SCOPES, type YoutubeCategory } from "~/lib/youtube";
import { YOUTUBE_CATEGORY_IDS } from "~/lib/constants";
import { appOrigin } from "./api.server";
import { prisma } from "~/core/db.server";
import { decryptSecret, encryptSecret } from "~/core/encryption.server";
import { readSessionId } from "./session.server";
import { getGoogleOAuthClient } from "~/core/settings.server";
import {
  authorizedYoutube,
  freshAccessToken,
  googleErrorText,
  isInvalidGrant,
  markConnectionRevoked,
  NO_OAUTH_CLIENT_MESSAGE,
  oauthClient,
  youtubeCallOptions,
  type OAuth2Client,
} from "~/core/youtube-client.server";
import { refusal } from "~/core/refusal.server";

export { NO_OAUTH_CLIENT_MESSAGE };

export const YOUTUBE_CALLBACK_PATH = "/api/youtube/oauth/callback";
const AUTHORIZATION_TTL_MS = 10 * 60 * 1000;

async function requireOAuthCredentials(userId: string) {
  const credentials = await getGoogleOAuthClient(userId);
  if (!credentials) throw refusal(400, NO_OAUTH_CLIENT_MESSAGE, { field: "googleOAuthClientId" });
  return credentials;
}

export const youtubeRedirectUri = (request: Request) => `${appOrigin(request)}${YOUTUBE_CALLBACK_PATH}`;

/** GET /api/youtube/oauth/authorize: Google's consent URL for this creator's OAuth client. */
export async function startYoutubeAuthorization(request: Request, userId: string): Promise<{ authUrl: string }> {
  const sessionId = await readSessionId(request.headers.get("Cookie"));
  if (!sessionId) throw refusal(401, "Not signed in");
  const credentials = await requireOAuthCredentials(userId);
  const redirectUri = youtubeRedirectUri(request);
  const client = oauthClient(credentials, redirectUri);
  const { codeVerifier, codeChallenge } = await client.generateCodeVerifierAsync();
  const state = randomBytes(32).toString("base64url");
  await prisma.youtubeOAuthRequest.deleteMany({ where: { OR: [{ userId, sessionId }, { expiresAt: { lt: new Date() } }] } });
  await prisma.youtubeOAuthRequest.create({
    data: { state, userId, sessionId, codeVerifierEnc: encryptSecret(codeVerifier, { userId, field: "youtubeCodeVerifier" }), redirectUri, expiresAt: new Date(Date.now() + AUTHORIZATION_TTL_MS) },
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
    const response = await client.getToken({ code, codeVerifier: decryptSecret(pending.codeVerifierEnc, { userId, field: "youtubeCodeVerifier" }), redirect_uri: pending.redirectUri });
    tokens = response.tokens;
  } catch (e) {
    return { ok: false, message: `Google did not accept the authorization: ${googleErrorText(e)}. Check the OAuth client ID and secret in Settings.` };
  }
  if (!tokens.access_token) return { ok: false, message: "Google returned no access token. Connect YouTube again." };
  const existing = await prisma.youtubeConnection.findUnique({ where: { userId } });
  const refreshTokenEnc = tokens.refresh_token ? encryptSecret(tokens.refresh_token, { userId, field: "youtubeRefreshToken" }) : (existing?.refreshTokenEnc ?? null);
  const data = {
    accessTokenEnc: encryptSecret(tokens.access_token, { userId, field: "youtubeAccessToken" }),
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
    const token = connection.refreshTokenEnc ? decryptSecret(connection.refreshTokenEnc, { userId, field: "youtubeRefreshToken" }) : decryptSecret(connection.accessTokenEnc, { userId, field: "youtubeAccessToken" });
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
  if (!isAllowedCategory(categoryId)) throw refusal(400, `categoryId must be one of ${YOUTUBE_CATEGORY_IDS.join(", ")}.`, { field: "categoryId" });
  await prisma.userSettings.upsert({ where: { userId }, create: { userId, youtubePreferredCategory: categoryId }, update: { youtubePreferredCategory: categoryId } });
  return { categoryId };
}

