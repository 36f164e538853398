// A local fake of TikTok's Login Kit and Content Posting API, so the real client code (app/server/platforms/
// tiktok-client.server.ts) runs against it. Shapes from TikTok's documentation (decision 216):
//   GET /v2/auth/authorize/ (client_key, scope, response_type=code, redirect_uri, state, code_challenge S256)
//     redirects to redirect_uri?code&scopes&state (or ?error=access_denied).
//   POST /v2/oauth/token/ (form): authorization_code (with code_verifier checked against the challenge) or
//     refresh_token -> { open_id, scope, access_token, expires_in, refresh_token, refresh_expires_in, token_type };
//     errors { error: "invalid_grant", error_description, log_id }. POST /v2/oauth/revoke/.
//   POST /v2/post/publish/creator_info/query/ -> data { creator_nickname, creator_username, privacy_level_options,
//     comment_disabled, duet_disabled, stitch_disabled, max_video_post_duration_sec }.
//   POST /v2/post/publish/video/init/ and /v2/post/publish/inbox/video/init/ -> data { publish_id, upload_url };
//     the media transfer guide's chunk rules are enforced (invalid_params otherwise); an unaudited app may only post
//     SELF_ONLY (unaudited_client_can_only_post_to_private_accounts); a level not offered: privacy_level_option_mismatch.
//   PUT {upload_url} with Content-Range, chunks in order: 206, the last 201.
//   POST /v2/post/publish/status/fetch/ -> data { status, fail_reason, publicaly_available_post_id, uploaded_bytes }.
//   Every API call answers { data, error: { code, message, log_id } }; a bad token 401 access_token_invalid; more than
//   6 inits a minute per token 429 rate_limit_exceeded.
import { createHash, randomBytes, type Hash } from "node:crypto";
import http from "node:http";
import { LoopbackFake } from "./loopback-fake";

export const FAKE_TIKTOK_CLIENT_KEY = "fake-tiktok-client-key";
export const FAKE_TIKTOK_CLIENT_SECRET = "fake-tiktok-client-secret";
export const FAKE_TIKTOK_CREATOR = { openId: "open-id-fake-creator", nickname: "Fake Bee Channel", username: "fakebees" };

const MB = 1024 * 1024;

export type FakeTikTokPost = {
  publishId: string;
  mode: "direct" | "inbox";
  postInfo: Record<string, unknown> | null;
  videoSize: number;
  chunkSize: number;
  totalChunkCount: number;
  received: number;
  chunksReceived: number;
  hash: Hash;
  sha256: string | null;
  status: "PROCESSING_UPLOAD" | "PROCESSING_DOWNLOAD" | "SEND_TO_USER_INBOX" | "PUBLISH_COMPLETE" | "FAILED";
  publicPostId: string | null;
  statusPolls: number;
  openId: string;
};

type Token = { openId: string; expiresAt: number; refreshToken: string };

export class FakeTikTok extends LoopbackFake {
  readonly posts = new Map<string, FakeTikTokPost>();
  readonly requests: { method: string; path: string }[] = [];
  audited = false;
  privacyLevelOptions = ["PUBLIC_TO_EVERYONE", "MUTUAL_FOLLOW_FRIENDS", "FOLLOWER_OF_CREATOR", "SELF_ONLY"];
  maxVideoPostDurationSec = 600;
  accessTokenSeconds = 86400;
  /** status fetches that still answer PROCESSING_DOWNLOAD after the upload, before PUBLISH_COMPLETE */
  processingPolls = 1;
  /** each chunk's answer waits this long (a test can kill a worker mid-upload) */
  chunkDelayMs = 0;
  /** the next chunk is stored, then the connection is cut before TikTok's answer (the answer is lost) */
  loseNextChunkAnswer = false;
  /** refresh tokens refused from now on (the creator revoked the app) */
  revokeAll = false;
  private readonly codes = new Map<string, { challenge: string; redirectUri: string }>();
  private readonly tokens = new Map<string, Token>();
  private readonly refreshTokens = new Map<string, string>();
  private readonly initTimes = new Map<string, number[]>();

  env(): Record<string, string> {
    return {
      TIKTOK_CLIENT_KEY: FAKE_TIKTOK_CLIENT_KEY,
      TIKTOK_CLIENT_SECRET: FAKE_TIKTOK_CLIENT_SECRET,
      TIKTOK_AUTHORIZE_URL: `${this.url}/v2/auth/authorize/`,
      TIKTOK_API_BASE_URL: this.url,
    };
  }

  /** Makes every access token handed out so far expire now (the next call needs a refresh). */
  expireAccessTokens() {
    for (const token of this.tokens.values()) token.expiresAt = 0;
  }

  private apiError(res: http.ServerResponse, status: number, code: string, message: string) {
    this.json(res, status, { data: {}, error: { code, message, log_id: randomBytes(8).toString("hex") } });
  }

  private issue(openId: string, res: http.ServerResponse) {
    const accessToken = `act.${randomBytes(12).toString("hex")}`;
    const refreshToken = `rft.${randomBytes(12).toString("hex")}`;
    this.tokens.set(accessToken, { openId, expiresAt: Date.now() + this.accessTokenSeconds * 1000, refreshToken });
    this.refreshTokens.set(refreshToken, openId);
    this.json(res, 200, {
      open_id: openId,
      scope: "user.info.basic,video.publish,video.upload",
      access_token: accessToken,
      expires_in: this.accessTokenSeconds,
      refresh_token: refreshToken,
      refresh_expires_in: 31536000,
      token_type: "Bearer",
    });
  }

  private bearer(req: http.IncomingMessage): Token | null {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    const found = token ? this.tokens.get(token) : undefined;
    return found && found.expiresAt > Date.now() ? found : null;
  }

  protected internalError(res: http.ServerResponse, e: unknown) {
    this.json(res, 500, { error: { code: "internal_error", message: String(e) } });
  }

  protected async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? "/", this.url);
    this.requests.push({ method: req.method ?? "GET", path: url.pathname });
    if (req.method === "GET" && url.pathname === "/__fake/state") {
      return this.json(res, 200, { posts: [...this.posts.values()].map(({ hash: _hash, ...post }) => post) });
    }

    if (req.method === "GET" && url.pathname === "/v2/auth/authorize/") {
      const redirect = new URL(url.searchParams.get("redirect_uri") ?? "");
      const state = url.searchParams.get("state") ?? "";
      if (url.searchParams.get("client_key") !== FAKE_TIKTOK_CLIENT_KEY) return this.json(res, 400, { error: "invalid_client_key" });
      if (url.searchParams.get("code_challenge_method") !== "S256" || !url.searchParams.get("code_challenge")) return this.json(res, 400, { error: "invalid_request", error_description: "PKCE required" });
      const code = randomBytes(10).toString("hex");
      this.codes.set(code, { challenge: url.searchParams.get("code_challenge")!, redirectUri: redirect.toString() });
      redirect.searchParams.set("code", code);
      redirect.searchParams.set("scopes", url.searchParams.get("scope") ?? "");
      redirect.searchParams.set("state", state);
      res.writeHead(302, { location: redirect.toString() });
      return res.end();
    }

    if (req.method === "POST" && url.pathname === "/v2/oauth/token/") {
      const form = new URLSearchParams((await this.body(req)).toString());
      if (form.get("client_key") !== FAKE_TIKTOK_CLIENT_KEY || form.get("client_secret") !== FAKE_TIKTOK_CLIENT_SECRET) return this.json(res, 401, { error: "invalid_client", error_description: "Client key or secret is incorrect.", log_id: "x" });
      if (form.get("grant_type") === "authorization_code") {
        const code = this.codes.get(form.get("code") ?? "");
        this.codes.delete(form.get("code") ?? "");
        const verifier = form.get("code_verifier") ?? "";
        if (!code || code.redirectUri !== form.get("redirect_uri") || createHash("sha256").update(verifier).digest("base64url") !== code.challenge) {
          return this.json(res, 400, { error: "invalid_grant", error_description: "Authorization code is expired or invalid.", log_id: "x" });
        }
        return this.issue(FAKE_TIKTOK_CREATOR.openId, res);
      }
      if (form.get("grant_type") === "refresh_token") {
        const openId = this.refreshTokens.get(form.get("refresh_token") ?? "");
        if (!openId || this.revokeAll) return this.json(res, 400, { error: "invalid_grant", error_description: "Refresh token is invalid or expired.", log_id: "x" });
        this.refreshTokens.delete(form.get("refresh_token")!);
        return this.issue(openId, res);
      }
      return this.json(res, 400, { error: "unsupported_grant_type", error_description: "grant_type", log_id: "x" });
    }

    if (req.method === "POST" && url.pathname === "/v2/oauth/revoke/") {
      const form = new URLSearchParams((await this.body(req)).toString());
      this.tokens.delete(form.get("token") ?? "");
      return this.json(res, 200, {});
    }

    if (req.method === "PUT" && url.pathname === "/upload/") return this.handleChunk(url, req, res);

    if (req.method === "POST" && url.pathname.startsWith("/v2/post/publish/")) {
      const token = this.bearer(req);
      const raw = await this.body(req);
      if (!token) return this.apiError(res, 401, "access_token_invalid", "The access token is invalid or not found in the request.");
      const body = raw.length ? (JSON.parse(raw.toString()) as Record<string, unknown>) : {};
      if (url.pathname === "/v2/post/publish/creator_info/query/") {
        return this.json(res, 200, {
          data: {
            creator_avatar_url: `${this.url}/avatar.png`,
            creator_username: FAKE_TIKTOK_CREATOR.username,
            creator_nickname: FAKE_TIKTOK_CREATOR.nickname,
            privacy_level_options: this.privacyLevelOptions,
            comment_disabled: false,
            duet_disabled: false,
            stitch_disabled: true,
            max_video_post_duration_sec: this.maxVideoPostDurationSec,
          },
          error: { code: "ok", message: "", log_id: "x" },
        });
      }
      if (url.pathname === "/v2/post/publish/video/init/" || url.pathname === "/v2/post/publish/inbox/video/init/") {
        const times = (this.initTimes.get(token.openId) ?? []).filter((t) => t > Date.now() - 60_000);
        if (times.length >= 6) return this.apiError(res, 429, "rate_limit_exceeded", "The API rate limit was exceeded.");
        this.initTimes.set(token.openId, [...times, Date.now()]);
        const direct = url.pathname === "/v2/post/publish/video/init/";
        const source = (body.source_info ?? {}) as { source?: string; video_size?: number; chunk_size?: number; total_chunk_count?: number };
        const postInfo = direct ? ((body.post_info ?? {}) as Record<string, unknown>) : null;
        const problem = this.checkSource(source) ?? (postInfo ? this.checkPostInfo(postInfo) : null);
        if (problem) return this.apiError(res, problem.status, problem.code, problem.message);
        const publishId = `v_pub_file~v2-1.${randomBytes(8).toString("hex")}`;
        this.posts.set(publishId, {
          publishId,
          mode: direct ? "direct" : "inbox",
          postInfo,
          videoSize: source.video_size!,
          chunkSize: source.chunk_size!,
          totalChunkCount: source.total_chunk_count!,
          received: 0,
          chunksReceived: 0,
          hash: createHash("sha256"),
          sha256: null,
          status: "PROCESSING_UPLOAD",
          publicPostId: null,
          statusPolls: 0,
          openId: token.openId,
        });
        return this.json(res, 200, { data: { publish_id: publishId, upload_url: `${this.url}/upload/?upload_id=${encodeURIComponent(publishId)}&upload_token=${randomBytes(6).toString("hex")}` }, error: { code: "ok", message: "", log_id: "x" } });
      }
      if (url.pathname === "/v2/post/publish/status/fetch/") {
        const post = this.posts.get(String(body.publish_id ?? ""));
        if (!post || post.openId !== token.openId) return this.apiError(res, 400, "invalid_params", "publish_id is invalid.");
        if (post.status === "PROCESSING_DOWNLOAD" && ++post.statusPolls > this.processingPolls) {
          post.status = post.mode === "inbox" ? "SEND_TO_USER_INBOX" : "PUBLISH_COMPLETE";
          const privacy = post.postInfo?.privacy_level;
          if (post.mode === "direct" && privacy !== "SELF_ONLY") post.publicPostId = String(7_000_000_000_000_000_000n + BigInt(this.posts.size));
        }
        return this.json(res, 200, {
          data: { status: post.status, fail_reason: "", publicaly_available_post_id: post.publicPostId ? [post.publicPostId] : [], uploaded_bytes: post.received },
          error: { code: "ok", message: "", log_id: "x" },
        });
      }
    }
    this.json(res, 404, { error: { code: "not_found", message: `${req.method} ${url.pathname}` } });
  }

  private checkSource(s: { source?: string; video_size?: number; chunk_size?: number; total_chunk_count?: number }) {
    const bad = (message: string) => ({ status: 400, code: "invalid_params", message });
    if (s.source !== "FILE_UPLOAD") return bad("source_info.source must be FILE_UPLOAD here");
    const size = s.video_size ?? 0;
    const chunk = s.chunk_size ?? 0;
    const count = s.total_chunk_count ?? 0;
    if (size <= 0 || chunk <= 0) return bad("video_size and chunk_size are required");
    if (size > 4096 * MB) return bad("The video is larger than 4 GB");
    if (size < 5 * MB && chunk !== size) return bad("A video under 5 MB must be uploaded whole");
    if (size >= 5 * MB && (chunk < 5 * MB || chunk > 64 * MB)) return bad("chunk_size must be 5 MB to 64 MB");
    if (count !== Math.floor(size / chunk)) return bad("total_chunk_count must be video_size / chunk_size rounded down");
    if (count < 1 || count > 1000) return bad("1 to 1000 chunks");
    if (size - chunk * (count - 1) > 128 * MB) return bad("The final chunk is larger than 128 MB");
    return null;
  }

  private checkPostInfo(p: Record<string, unknown>) {
    if (typeof p.title === "string" && p.title.length > 2200) return { status: 400, code: "invalid_params", message: "title is longer than 2200 characters" };
    if (!this.privacyLevelOptions.includes(String(p.privacy_level))) return { status: 400, code: "privacy_level_option_mismatch", message: "privacy_level is not one of the creator's options" };
    if (!this.audited && p.privacy_level !== "SELF_ONLY") return { status: 403, code: "unaudited_client_can_only_post_to_private_accounts", message: "Unaudited clients can only post to private accounts" };
    return null;
  }

  private async handleChunk(url: URL, req: http.IncomingMessage, res: http.ServerResponse) {
    const post = this.posts.get(url.searchParams.get("upload_id") ?? "");
    const bytes = await this.body(req);
    if (!post || post.status !== "PROCESSING_UPLOAD") return this.json(res, 404, { error: { code: "upload_not_found", message: "No upload in progress for this URL" } });
    const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(req.headers["content-range"] ?? "");
    if (!range) return this.json(res, 400, { error: { code: "invalid_params", message: "Content-Range is required" } });
    const [first, last, total] = range.slice(1).map(Number);
    const index = post.chunksReceived;
    const expectedFirst = index * post.chunkSize;
    const expectedLast = index === post.totalChunkCount - 1 ? post.videoSize - 1 : expectedFirst + post.chunkSize - 1;
    if (total !== post.videoSize || first !== expectedFirst || last !== expectedLast || bytes.length !== last - first + 1) {
      return this.json(res, 416, { error: { code: "invalid_params", message: `Expected bytes ${expectedFirst}-${expectedLast}/${post.videoSize}` } });
    }
    if (this.chunkDelayMs) await new Promise((r) => setTimeout(r, this.chunkDelayMs));
    if (res.destroyed) return;
    post.hash.update(bytes);
    post.received += bytes.length;
    post.chunksReceived++;
    if (this.loseNextChunkAnswer) {
      this.loseNextChunkAnswer = false;
      if (post.chunksReceived === post.totalChunkCount) {
        post.sha256 = post.hash.digest("hex");
        post.status = "PROCESSING_DOWNLOAD";
      }
      req.socket.destroy();
      return;
    }
    if (post.chunksReceived === post.totalChunkCount) {
      post.sha256 = post.hash.digest("hex");
      post.status = "PROCESSING_DOWNLOAD";
      res.writeHead(201).end();
    } else res.writeHead(206, { "content-range": `bytes 0-${post.received - 1}/${post.videoSize}` }).end();
  }
}
