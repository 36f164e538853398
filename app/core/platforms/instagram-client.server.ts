// The Instagram API with Instagram Login, as decision 216 quotes it: Business Login (code -> short-lived token ->
// long-lived token, refreshed), and Reels publishing: a REELS container made with upload_type=resumable, the bytes
// sent to the upload host named by the container's `uri` (resumable from the offset the container reports), the
// container's status_code polled until FINISHED, then media_publish.
import { platformEnv } from "./platform-env.server";

export const INSTAGRAM_SCOPES = ["instagram_business_basic", "instagram_business_content_publish"] as const;

/** A Graph API error: { error: { message, type, code, error_subcode, fbtrace_id } }. */
export class InstagramApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number | null,
    readonly subcode: number | null,
    message: string,
  ) {
    super(message);
    this.name = "InstagramApiError";
  }
  /** Code 190: the token is invalid, expired or revoked: the creator must reconnect. */
  get unauthorized() {
    return this.code === 190 || this.status === 401;
  }
  /** Code 9 subcode 2207042: the account's API publishing limit for the moving 24 hours is used up. */
  get publishingLimit() {
    return this.code === 9 && this.subcode === 2207042;
  }
  /** Rate limits and Meta's own trouble pass on a later try; anything else is final. */
  get retryable() {
    return !this.publishingLimit && ([4, 17, 32, 613, 2].includes(this.code ?? -1) || this.status === 429 || this.status >= 500);
  }
}

async function graphJson<T>(response: Response): Promise<T> {
  const body = (await response.json().catch(() => null)) as (T & { error?: { message?: string; code?: number; error_subcode?: number } }) | null;
  if (!response.ok || !body || body.error) {
    const e = body?.error;
    throw new InstagramApiError(response.status, e?.code ?? null, e?.error_subcode ?? null, e?.message ?? `Instagram answered HTTP ${response.status}`);
  }
  return body;
}

export function instagramAuthorizeUrl(options: { redirectUri: string; state: string }): string {
  const env = platformEnv();
  const url = new URL(env.INSTAGRAM_AUTHORIZE_URL);
  url.searchParams.set("client_id", env.INSTAGRAM_APP_ID ?? "");
  url.searchParams.set("redirect_uri", options.redirectUri);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("scope", INSTAGRAM_SCOPES.join(","));
  url.searchParams.set("state", options.state);
  return url.toString();
}

export type InstagramTokens = { userId: string; accessToken: string; expiresIn: number; permissions: string };

/** The code for a short-lived token, then that for a long-lived one (60 days). */
export async function exchangeInstagramCode(code: string, redirectUri: string): Promise<InstagramTokens> {
  const env = platformEnv();
  const short = await graphJson<{ access_token: string; user_id: string | number; permissions?: string | string[] }>(
    await fetch(env.INSTAGRAM_TOKEN_URL, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ client_id: env.INSTAGRAM_APP_ID ?? "", client_secret: env.INSTAGRAM_APP_SECRET ?? "", grant_type: "authorization_code", redirect_uri: redirectUri, code }),
    }),
  );
  const url = new URL("/access_token", env.INSTAGRAM_GRAPH_BASE_URL);
  url.searchParams.set("grant_type", "ig_exchange_token");
  url.searchParams.set("client_secret", env.INSTAGRAM_APP_SECRET ?? "");
  url.searchParams.set("access_token", short.access_token);
  const long = await graphJson<{ access_token: string; expires_in: number }>(await fetch(url));
  return {
    userId: String(short.user_id),
    accessToken: long.access_token,
    expiresIn: long.expires_in,
    permissions: Array.isArray(short.permissions) ? short.permissions.join(",") : (short.permissions ?? INSTAGRAM_SCOPES.join(",")),
  };
}

/** A long-lived token at least 24 hours old and not expired, for another 60 days. */
export async function refreshInstagramToken(accessToken: string): Promise<{ accessToken: string; expiresIn: number }> {
  const url = new URL("/refresh_access_token", platformEnv().INSTAGRAM_GRAPH_BASE_URL);
  url.searchParams.set("grant_type", "ig_refresh_token");
  url.searchParams.set("access_token", accessToken);
  const body = await graphJson<{ access_token: string; expires_in: number }>(await fetch(url));
  return { accessToken: body.access_token, expiresIn: body.expires_in };
}

export type InstagramContainerStatus = {
  statusCode: "IN_PROGRESS" | "FINISHED" | "PUBLISHED" | "ERROR" | "EXPIRED";
  status: string | null;
  bytesTransferred: number | null;
};

/** The Graph API for one creator's long-lived token. */
export class InstagramClient {
  private readonly env = platformEnv();
  constructor(
    private readonly accessToken: string,
    private readonly signal?: AbortSignal,
  ) {}

  private url(path: string, params: Record<string, string | undefined> = {}) {
    const url = new URL(`/${this.env.INSTAGRAM_API_VERSION}/${path.replace(/^\//, "")}`, this.env.INSTAGRAM_GRAPH_BASE_URL);
    for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
    return url;
  }

  private get<T>(path: string, params: Record<string, string | undefined> = {}) {
    return fetch(this.url(path, params), { headers: { Authorization: `Bearer ${this.accessToken}` }, signal: this.signal }).then((r) => graphJson<T>(r));
  }

  private post<T>(path: string, params: Record<string, string | undefined>) {
    return fetch(this.url(path, params), { method: "POST", headers: { Authorization: `Bearer ${this.accessToken}` }, signal: this.signal }).then((r) => graphJson<T>(r));
  }

  me() {
    return this.get<{ user_id?: string; id: string; username: string }>("me", { fields: "user_id,username" });
  }

  /** How many posts the account published through the API in the moving 24 hours, and its limit. */
  async publishingLimit(igUserId: string): Promise<{ used: number; total: number }> {
    const body = await this.get<{ data: { quota_usage: number; config?: { quota_total?: number } }[] }>(`${igUserId}/content_publishing_limit`, { fields: "quota_usage,config" });
    const row = body.data[0];
    return { used: row?.quota_usage ?? 0, total: row?.config?.quota_total ?? 100 };
  }

  /** A REELS container for a resumable upload: answers its id and the upload host's uri. */
  async createReelContainer(igUserId: string, options: { caption: string; shareToFeed: boolean; thumbOffsetMs?: number }): Promise<{ id: string; uri: string }> {
    const body = await this.post<{ id: string; uri?: string }>(`${igUserId}/media`, {
      media_type: "REELS",
      upload_type: "resumable",
      caption: options.caption,
      share_to_feed: String(options.shareToFeed),
      thumb_offset: options.thumbOffsetMs !== undefined ? String(Math.round(options.thumbOffsetMs)) : undefined,
    });
    if (!body.id || !body.uri) throw new InstagramApiError(200, null, null, "Instagram made the container but sent no id or upload uri");
    return { id: body.id, uri: body.uri };
  }

  /** Sends bytes [offset, total) to the upload host; `offset` resumes an interrupted upload. */
  async upload(uri: string, body: Uint8Array<ArrayBuffer>, offset: number, total: number): Promise<void> {
    const response = await fetch(uri, {
      method: "POST",
      headers: { Authorization: `OAuth ${this.accessToken}`, offset: String(offset), file_size: String(total), "Content-Type": "application/octet-stream" },
      body,
      signal: this.signal,
    });
    const parsed = await graphJson<{ success?: boolean; debug_info?: { message?: string } }>(response);
    if (parsed.success !== true) throw new InstagramApiError(response.status, null, null, parsed.debug_info?.message ?? "Instagram did not take the upload");
  }

  async containerStatus(containerId: string): Promise<InstagramContainerStatus> {
    const body = await this.get<{ status_code: InstagramContainerStatus["statusCode"]; status?: string; video_status?: { uploading_phase?: { bytes_transferred?: number } } }>(containerId, {
      fields: "status_code,status,video_status",
    });
    return { statusCode: body.status_code, status: body.status ?? null, bytesTransferred: body.video_status?.uploading_phase?.bytes_transferred ?? null };
  }

  async publish(igUserId: string, containerId: string): Promise<{ mediaId: string }> {
    const body = await this.post<{ id: string }>(`${igUserId}/media_publish`, { creation_id: containerId });
    return { mediaId: body.id };
  }

  async permalink(mediaId: string): Promise<string | null> {
    const body = await this.get<{ permalink?: string }>(mediaId, { fields: "permalink" });
    return body.permalink ?? null;
  }
}
