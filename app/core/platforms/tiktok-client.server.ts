// TikTok's Login Kit (OAuth 2.0 with PKCE, refresh) and Content Posting API (creator info, Direct Post and inbox
// upload with FILE_UPLOAD, the chunked PUTs, the status fetch), as decision 216 quotes them. Plain fetch: TikTok
// publishes no Node SDK for these endpoints.
import { createHash } from "node:crypto";
import type { TikTokPrivacyLevel } from "~/lib/platform-rules";
import { platformEnv } from "./platform-env.server";

export const TIKTOK_SCOPES = ["user.info.basic", "video.publish", "video.upload"] as const;

/** A refusal from TikTok: its error code ("access_token_invalid", "spam_risk_too_many_posts", ...) and message. */
export class TikTokApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly logId: string | null = null,
  ) {
    super(message);
    this.name = "TikTokApiError";
  }
  /** The token is no longer taken: refresh it (once), or the creator must reconnect. */
  get unauthorized() {
    return this.status === 401 || this.code === "access_token_invalid" || this.code === "invalid_grant";
  }
  /** Retrying later may pass (rate limits, TikTok's own trouble); anything else is final. */
  get retryable() {
    return this.status === 429 || this.status >= 500 || this.code === "rate_limit_exceeded" || this.code === "internal_error";
  }
}

export type TikTokTokens = { openId: string; scope: string; accessToken: string; expiresIn: number; refreshToken: string; refreshExpiresIn: number };

export const pkceChallenge = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");

export function tiktokAuthorizeUrl(options: { redirectUri: string; state: string; codeVerifier: string }): string {
  const env = platformEnv();
  const url = new URL(env.TIKTOK_AUTHORIZE_URL);
  url.searchParams.set("client_key", env.TIKTOK_CLIENT_KEY ?? "");
  url.searchParams.set("scope", TIKTOK_SCOPES.join(","));
  url.searchParams.set("response_type", "code");
  url.searchParams.set("redirect_uri", options.redirectUri);
  url.searchParams.set("state", options.state);
  url.searchParams.set("code_challenge", pkceChallenge(options.codeVerifier));
  url.searchParams.set("code_challenge_method", "S256");
  return url.toString();
}

async function tokenRequest(form: Record<string, string>): Promise<TikTokTokens> {
  const env = platformEnv();
  const response = await fetch(new URL("/v2/oauth/token/", env.TIKTOK_API_BASE_URL), {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "Cache-Control": "no-cache" },
    body: new URLSearchParams({ client_key: env.TIKTOK_CLIENT_KEY ?? "", client_secret: env.TIKTOK_CLIENT_SECRET ?? "", ...form }),
  });
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok || typeof body.error === "string" || typeof body.access_token !== "string") {
    const code = typeof body.error === "string" ? body.error : `http_${response.status}`;
    throw new TikTokApiError(response.status === 200 ? 400 : response.status, code, String(body.error_description ?? code), (body.log_id as string) ?? null);
  }
  return {
    openId: String(body.open_id ?? ""),
    scope: String(body.scope ?? ""),
    accessToken: body.access_token,
    expiresIn: Number(body.expires_in ?? 86400),
    refreshToken: String(body.refresh_token ?? ""),
    refreshExpiresIn: Number(body.refresh_expires_in ?? 0),
  };
}

export const exchangeTiktokCode = (code: string, redirectUri: string, codeVerifier: string) =>
  tokenRequest({ code, grant_type: "authorization_code", redirect_uri: redirectUri, code_verifier: codeVerifier });

export const refreshTiktokToken = (refreshToken: string) => tokenRequest({ grant_type: "refresh_token", refresh_token: refreshToken });

export async function revokeTiktokToken(accessToken: string): Promise<void> {
  const env = platformEnv();
  await fetch(new URL("/v2/oauth/revoke/", env.TIKTOK_API_BASE_URL), {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ client_key: env.TIKTOK_CLIENT_KEY ?? "", client_secret: env.TIKTOK_CLIENT_SECRET ?? "", token: accessToken }),
  });
}

export type TikTokCreatorInfo = {
  creatorNickname: string;
  creatorUsername: string;
  creatorAvatarUrl: string | null;
  privacyLevelOptions: TikTokPrivacyLevel[];
  commentDisabled: boolean;
  duetDisabled: boolean;
  stitchDisabled: boolean;
  maxVideoPostDurationSec: number;
};

export type TikTokPostInfo = {
  title: string;
  privacyLevel: TikTokPrivacyLevel;
  disableComment: boolean;
  disableDuet: boolean;
  disableStitch: boolean;
  videoCoverTimestampMs?: number;
  isAigc: boolean;
};

export type TikTokSourceInfo = { videoSize: number; chunkSize: number; totalChunkCount: number };
export type TikTokPostStatus = {
  status: "PROCESSING_UPLOAD" | "PROCESSING_DOWNLOAD" | "SEND_TO_USER_INBOX" | "PUBLISH_COMPLETE" | "FAILED";
  failReason: string | null;
  publicPostIds: string[];
  uploadedBytes: number | null;
};

/** The Content Posting API for one creator's access token. */
export class TikTokClient {
  constructor(
    private readonly accessToken: string,
    private readonly baseUrl = platformEnv().TIKTOK_API_BASE_URL,
    private readonly signal?: AbortSignal,
  ) {}

  private async call<T>(path: string, body: unknown): Promise<T> {
    const response = await fetch(new URL(path, this.baseUrl), {
      method: "POST",
      headers: { Authorization: `Bearer ${this.accessToken}`, "Content-Type": "application/json; charset=UTF-8" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: this.signal,
    });
    const parsed = (await response.json().catch(() => null)) as { data?: T; error?: { code?: string; message?: string; log_id?: string } } | null;
    const code = parsed?.error?.code ?? (response.ok ? "ok" : `http_${response.status}`);
    if (!response.ok || code !== "ok") throw new TikTokApiError(response.status, code, parsed?.error?.message || `TikTok answered HTTP ${response.status}`, parsed?.error?.log_id ?? null);
    return (parsed?.data ?? {}) as T;
  }

  async creatorInfo(): Promise<TikTokCreatorInfo> {
    const d = await this.call<Record<string, unknown>>("/v2/post/publish/creator_info/query/", undefined);
    return {
      creatorNickname: String(d.creator_nickname ?? ""),
      creatorUsername: String(d.creator_username ?? ""),
      creatorAvatarUrl: (d.creator_avatar_url as string) ?? null,
      privacyLevelOptions: (d.privacy_level_options as TikTokPrivacyLevel[]) ?? [],
      commentDisabled: Boolean(d.comment_disabled),
      duetDisabled: Boolean(d.duet_disabled),
      stitchDisabled: Boolean(d.stitch_disabled),
      maxVideoPostDurationSec: Number(d.max_video_post_duration_sec ?? 600),
    };
  }

  private static source(source: TikTokSourceInfo) {
    return { source: "FILE_UPLOAD", video_size: source.videoSize, chunk_size: source.chunkSize, total_chunk_count: source.totalChunkCount };
  }

  /** Direct Post: init answers the publish id and the upload URL. */
  async initDirectPost(post: TikTokPostInfo, source: TikTokSourceInfo): Promise<{ publishId: string; uploadUrl: string }> {
    const d = await this.call<{ publish_id?: string; upload_url?: string }>("/v2/post/publish/video/init/", {
      post_info: {
        title: post.title,
        privacy_level: post.privacyLevel,
        disable_comment: post.disableComment,
        disable_duet: post.disableDuet,
        disable_stitch: post.disableStitch,
        video_cover_timestamp_ms: post.videoCoverTimestampMs ?? 0,
        is_aigc: post.isAigc,
      },
      source_info: TikTokClient.source(source),
    });
    if (!d.publish_id || !d.upload_url) throw new TikTokApiError(200, "missing_publish_id", "TikTok accepted the post but sent no publish id or upload URL");
    return { publishId: d.publish_id, uploadUrl: d.upload_url };
  }

  /** Upload to the creator's inbox (a draft the creator finishes in the TikTok app). */
  async initInboxUpload(source: TikTokSourceInfo): Promise<{ publishId: string; uploadUrl: string }> {
    const d = await this.call<{ publish_id?: string; upload_url?: string }>("/v2/post/publish/inbox/video/init/", { source_info: TikTokClient.source(source) });
    if (!d.publish_id || !d.upload_url) throw new TikTokApiError(200, "missing_publish_id", "TikTok accepted the upload but sent no publish id or upload URL");
    return { publishId: d.publish_id, uploadUrl: d.upload_url };
  }

  /** One chunk: `PUT {upload_url}` with Content-Range; TikTok answers 206 while chunks remain, 201 after the last. */
  async putChunk(uploadUrl: string, bytes: Uint8Array<ArrayBuffer>, start: number, total: number, mimeType = "video/mp4"): Promise<"partial" | "complete"> {
    const response = await fetch(uploadUrl, {
      method: "PUT",
      headers: { "Content-Type": mimeType, "Content-Length": String(bytes.length), "Content-Range": `bytes ${start}-${start + bytes.length - 1}/${total}` },
      body: bytes,
      signal: this.signal,
    });
    const text = await response.text().catch(() => "");
    if (response.status === 201) return "complete";
    if (response.status === 206 || response.status === 200) return "partial";
    let code = `http_${response.status}`;
    let message = text || `TikTok answered HTTP ${response.status} to a chunk`;
    try {
      const parsed = JSON.parse(text) as { error?: { code?: string; message?: string } };
      code = parsed.error?.code ?? code;
      message = parsed.error?.message ?? message;
    } catch {
      /* not JSON */
    }
    throw new TikTokApiError(response.status, code, message);
  }

  async fetchStatus(publishId: string): Promise<TikTokPostStatus> {
    const d = await this.call<Record<string, unknown>>("/v2/post/publish/status/fetch/", { publish_id: publishId });
    return {
      status: d.status as TikTokPostStatus["status"],
      failReason: (d.fail_reason as string) || null,
      // TikTok's own spelling
      publicPostIds: ((d.publicaly_available_post_id as (string | number)[]) ?? []).map(String),
      uploadedBytes: typeof d.uploaded_bytes === "number" ? d.uploaded_bytes : null,
    };
  }
}

export const tiktokPostUrl = (username: string, postId: string) => `https://www.tiktok.com/@${encodeURIComponent(username)}/video/${encodeURIComponent(postId)}`;
