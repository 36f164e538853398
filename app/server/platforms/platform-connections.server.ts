// A creator's TikTok and Instagram accounts (several per platform): the authorization (a state bound to the browser
// session that started it, PKCE for TikTok), the tokens (ciphertext, bound to the creator and the field, like the
// YouTube ones), refreshed before they expire, and marked for reconnecting when the platform refuses them.
import { stopPlatformPostWorkflows } from "./platform-post-stop.server";
import { randomBytes } from "node:crypto";
import { PLATFORM_NAMES, type Platform } from "~/lib/platform-rules";
import { appOrigin } from "../api.server";
import { prisma } from "~/core/db.server";
import { decryptSecret, encryptSecret } from "~/core/encryption.server";
import { readSessionId } from "../session.server";
import { exchangeInstagramCode, InstagramApiError, InstagramClient, instagramAuthorizeUrl } from "~/core/platforms/instagram-client.server";
import { instagramConfigured, tiktokConfigured } from "~/core/platforms/platform-env.server";
import { saveConnection, tokenField } from "~/core/platforms/platform-tokens.server";
import { exchangeTiktokCode, revokeTiktokToken, TikTokApiError, TikTokClient, tiktokAuthorizeUrl } from "~/core/platforms/tiktok-client.server";
import { refusal } from "~/core/refusal.server";

const AUTHORIZATION_TTL_MS = 10 * 60 * 1000;
export const NOT_CONFIGURED_MESSAGE: Record<Platform, string> = {
  tiktok: "TikTok is not set up on this server: the owner sets TIKTOK_CLIENT_KEY and TIKTOK_CLIENT_SECRET (a TikTok for Developers app with Login Kit and the Content Posting API).",
  instagram: "Instagram is not set up on this server: the owner sets INSTAGRAM_APP_ID and INSTAGRAM_APP_SECRET (a Meta app with the Instagram API with Instagram Login).",
};

export const platformCallbackPath = (platform: Platform) => `/api/platforms/${platform}/oauth/callback`;
const configured = (platform: Platform) => (platform === "tiktok" ? tiktokConfigured() : instagramConfigured());

/** GET /api/platforms/{platform}/oauth/authorize: the platform's consent URL, its state bound to this session. */
export async function startPlatformAuthorization(request: Request, userId: string, platform: Platform): Promise<{ authUrl: string }> {
  const sessionId = await readSessionId(request.headers.get("Cookie"));
  if (!sessionId) throw refusal(401, "Not signed in");
  if (!configured(platform)) throw refusal(400, NOT_CONFIGURED_MESSAGE[platform], { field: "platform" });
  const redirectUri = `${appOrigin(request)}${platformCallbackPath(platform)}`;
  const state = randomBytes(32).toString("base64url");
  const codeVerifier = platform === "tiktok" ? randomBytes(48).toString("base64url") : null;
  await prisma.platformOAuthRequest.deleteMany({ where: { OR: [{ userId, sessionId, platform }, { expiresAt: { lt: new Date() } }] } });
  await prisma.platformOAuthRequest.create({
    data: {
      state,
      userId,
      platform,
      sessionId,
      codeVerifierEnc: codeVerifier ? encryptSecret(codeVerifier, { userId, field: tokenField(platform, "CodeVerifier") }) : null,
      redirectUri,
      expiresAt: new Date(Date.now() + AUTHORIZATION_TTL_MS),
    },
  });
  const authUrl = platform === "tiktok" ? tiktokAuthorizeUrl({ redirectUri, state, codeVerifier: codeVerifier! }) : instagramAuthorizeUrl({ redirectUri, state });
  return { authUrl };
}

export type PlatformCallbackOutcome = { ok: true; connectionId: string; accountName: string | null } | { ok: false; message: string };

/** The callback: the state checked against this session, the code exchanged, the tokens stored encrypted. */
export async function completePlatformAuthorization(request: Request, userId: string, platform: Platform): Promise<PlatformCallbackOutcome> {
  const url = new URL(request.url);
  const state = url.searchParams.get("state") ?? "";
  const sessionId = await readSessionId(request.headers.get("Cookie"));
  const name = PLATFORM_NAMES[platform];
  const pending = state ? await prisma.platformOAuthRequest.findUnique({ where: { state } }) : null;
  if (!pending || pending.userId !== userId || pending.platform !== platform || pending.sessionId !== sessionId || pending.expiresAt.getTime() < Date.now()) {
    return { ok: false, message: `This ${name} authorization was not started from this browser session (or it expired). Connect ${name} again.` };
  }
  await prisma.platformOAuthRequest.delete({ where: { id: pending.id } });
  const error = url.searchParams.get("error");
  if (error) return { ok: false, message: error === "access_denied" ? `${name} access was not granted.` : `${name} refused the authorization (${error}).` };
  // Instagram appends "#_" to the redirect; a URL's fragment never reaches the server, but a pasted one might
  const code = (url.searchParams.get("code") ?? "").replace(/#_$/, "");
  if (!code) return { ok: false, message: `${name} sent no authorization code. Connect ${name} again.` };

  try {
    if (platform === "tiktok") {
      const verifier = decryptSecret(pending.codeVerifierEnc ?? "", { userId, field: tokenField(platform, "CodeVerifier") });
      const tokens = await exchangeTiktokCode(code, pending.redirectUri, verifier);
      let accountName: string | null = null;
      try {
        accountName = (await new TikTokClient(tokens.accessToken).creatorInfo()).creatorNickname || null;
      } catch {
        /* shown without a nickname: the export step reads creator info again */
      }
      const connection = await saveConnection(userId, platform, tokens.openId, accountName, {
        accessToken: tokens.accessToken,
        refreshToken: tokens.refreshToken,
        expiresAt: new Date(Date.now() + tokens.expiresIn * 1000),
        refreshExpiresAt: tokens.refreshExpiresIn ? new Date(Date.now() + tokens.refreshExpiresIn * 1000) : null,
        scope: tokens.scope,
      });
      return { ok: true, connectionId: connection.id, accountName };
    }
    const tokens = await exchangeInstagramCode(code, pending.redirectUri);
    let accountName: string | null = null;
    let accountId = tokens.userId;
    try {
      const me = await new InstagramClient(tokens.accessToken).me();
      accountName = me.username ?? null;
      accountId = me.user_id ?? me.id ?? accountId;
    } catch {
      /* shown without a username */
    }
    const connection = await saveConnection(userId, platform, accountId, accountName, {
      accessToken: tokens.accessToken,
      refreshToken: null,
      expiresAt: new Date(Date.now() + tokens.expiresIn * 1000),
      refreshExpiresAt: null,
      scope: tokens.permissions,
    });
    return { ok: true, connectionId: connection.id, accountName };
  } catch (e) {
    if (e instanceof TikTokApiError || e instanceof InstagramApiError) return { ok: false, message: `${name} did not accept the authorization: ${e.message}. Connect ${name} again.` };
    throw e;
  }
}

export type PlatformConnectionView = { id: string; platform: Platform; accountName: string | null; needsReconnect: boolean; connectedAt: string };

export async function listPlatformConnections(userId: string): Promise<PlatformConnectionView[]> {
  const rows = await prisma.platformConnection.findMany({ where: { userId }, orderBy: { createdAt: "asc" } });
  return rows.map((r) => ({ id: r.id, platform: r.platform as Platform, accountName: r.accountName, needsReconnect: r.revokedAt !== null, connectedAt: r.createdAt.toISOString() }));
}

/** The creator's own connection, or 404 (another creator's id reads as unknown). */
export async function ownConnection(userId: string, connectionId: string) {
  const connection = await prisma.platformConnection.findFirst({ where: { id: connectionId, userId } });
  if (!connection) throw refusal(404, "That account is not one of your connections.", { field: "connectionId" });
  return connection;
}

/**
 * Forgets the account (TikTok's grant is revoked too when TikTok can be reached); its scheduled posts are dropped:
 * their workflows are stopped first, so none fires later and no upload under way goes live. Answers how many were.
 */
export async function disconnectPlatform(userId: string, connectionId: string): Promise<{ postsDropped: number }> {
  const connection = await ownConnection(userId, connectionId);
  const postsDropped = await stopPlatformPostWorkflows({ userId, connectionId: connection.id });
  if (connection.platform === "tiktok" && !connection.revokedAt) {
    try {
      await revokeTiktokToken(decryptSecret(connection.accessTokenEnc, { userId, field: tokenField("tiktok", "AccessToken") }));
    } catch {
      // TikTok unreachable or the token already gone: the local tokens are removed regardless
    }
  }
  await prisma.platformConnection.deleteMany({ where: { id: connectionId, userId } });
  return { postsDropped };
}

