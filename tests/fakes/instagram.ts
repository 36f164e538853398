// A local fake of Business Login for Instagram and the Instagram Graph API's Reels publishing, so the real client
// code (app/core/platforms/instagram-client.server.ts) runs against it. Shapes from Meta's documentation
// (decision 216):
//   GET /oauth/authorize (client_id, redirect_uri, response_type=code, scope, state) -> redirect_uri?code&state.
//   POST /oauth/access_token (form: client_id, client_secret, grant_type=authorization_code, redirect_uri, code)
//     -> { access_token (short-lived), user_id, permissions }.
//   GET /access_token?grant_type=ig_exchange_token&client_secret&access_token -> { access_token, token_type, expires_in }.
//   GET /refresh_access_token?grant_type=ig_refresh_token&access_token -> the same, 60 days more.
//   POST /{v}/{ig-user-id}/media?media_type=REELS&upload_type=resumable&caption&share_to_feed -> { id, uri } with the
//     uri on the upload path /ig-api-upload/{v}/{container-id}; POST there with Authorization: OAuth, offset,
//     file_size -> { success: true }; GET /{v}/{container-id}?fields=status_code,video_status; POST
//     /{v}/{ig-user-id}/media_publish?creation_id -> { id }; GET /{v}/{media-id}?fields=permalink;
//     GET /{v}/{ig-user-id}/content_publishing_limit.
//   Errors { error: { message, type: "OAuthException", code, error_subcode, fbtrace_id } }: 190 for a bad token,
//   100 for a bad parameter (caption over 2,200 characters or 30 hashtags), 9/2207042 over the publishing limit.
import { createHash, randomBytes, type Hash } from "node:crypto";
import http from "node:http";
import { LoopbackFake } from "./loopback-fake";

export const FAKE_INSTAGRAM_APP_ID = "990000000000001";
export const FAKE_INSTAGRAM_APP_SECRET = "fake-instagram-app-secret";
export const FAKE_INSTAGRAM_USER = { id: "17841400000000001", username: "fake.bees" };

export type FakeContainer = {
  id: string;
  caption: string;
  shareToFeed: boolean;
  thumbOffset: string | null;
  fileSize: number | null;
  received: number;
  hash: Hash;
  sha256: string | null;
  statusCode: "IN_PROGRESS" | "FINISHED" | "PUBLISHED" | "ERROR" | "EXPIRED";
  statusPolls: number;
  mediaId: string | null;
};

export class FakeInstagram extends LoopbackFake {
  readonly containers = new Map<string, FakeContainer>();
  readonly published: { mediaId: string; containerId: string }[] = [];
  publishLimit = 100;
  /** status polls answering IN_PROGRESS after the upload, before FINISHED */
  processingPolls = 1;
  /** the next media_publish publishes, then the connection is cut before its answer (the answer is lost) */
  loseNextPublishAnswer = false;
  /** each upload's answer waits this long */
  uploadDelayMs = 0;
  private readonly codes = new Map<string, string>();
  private readonly tokens = new Map<string, { long: boolean; expiresAt: number }>();

  env(): Record<string, string> {
    return {
      INSTAGRAM_APP_ID: FAKE_INSTAGRAM_APP_ID,
      INSTAGRAM_APP_SECRET: FAKE_INSTAGRAM_APP_SECRET,
      INSTAGRAM_AUTHORIZE_URL: `${this.url}/oauth/authorize`,
      INSTAGRAM_TOKEN_URL: `${this.url}/oauth/access_token`,
      INSTAGRAM_GRAPH_BASE_URL: this.url,
    };
  }

  /** Revokes every token (the creator removed the app). */
  revokeAll() {
    this.tokens.clear();
  }

  private error(res: http.ServerResponse, status: number, code: number, message: string, subcode?: number) {
    this.json(res, status, { error: { message, type: "OAuthException", code, ...(subcode ? { error_subcode: subcode } : {}), fbtrace_id: randomBytes(6).toString("hex") } });
  }

  private token(req: http.IncomingMessage, url: URL): string | null {
    const header = req.headers.authorization ?? "";
    const value = /^(?:Bearer|OAuth) (.+)$/.exec(header)?.[1] ?? url.searchParams.get("access_token");
    const found = value ? this.tokens.get(value) : undefined;
    return found && found.expiresAt > Date.now() ? value : null;
  }

  private newToken(long: boolean, seconds: number) {
    const token = `IG${randomBytes(16).toString("hex")}`;
    this.tokens.set(token, { long, expiresAt: Date.now() + seconds * 1000 });
    return token;
  }

  private publishedInLastDay() {
    return this.published.length;
  }

  protected internalError(res: http.ServerResponse, e: unknown) {
    this.error(res, 500, 2, String(e));
  }

  protected async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? "/", this.url);
    const path = url.pathname;
    if (req.method === "GET" && path === "/__fake/state") {
      return this.json(res, 200, { containers: [...this.containers.values()].map(({ hash: _hash, ...c }) => c), published: this.published });
    }

    if (req.method === "GET" && path === "/oauth/authorize") {
      if (url.searchParams.get("client_id") !== FAKE_INSTAGRAM_APP_ID) return this.error(res, 400, 100, "Invalid platform app");
      const redirect = new URL(url.searchParams.get("redirect_uri") ?? "");
      const code = randomBytes(10).toString("hex");
      this.codes.set(code, redirect.toString());
      redirect.searchParams.set("code", code);
      redirect.searchParams.set("state", url.searchParams.get("state") ?? "");
      res.writeHead(302, { location: `${redirect.toString()}#_` });
      return res.end();
    }
    if (req.method === "POST" && path === "/oauth/access_token") {
      const form = new URLSearchParams((await this.body(req)).toString());
      const redirectUri = this.codes.get(form.get("code") ?? "");
      this.codes.delete(form.get("code") ?? "");
      if (form.get("client_id") !== FAKE_INSTAGRAM_APP_ID || form.get("client_secret") !== FAKE_INSTAGRAM_APP_SECRET) return this.error(res, 400, 101, "Error validating client secret.");
      if (!redirectUri || redirectUri !== form.get("redirect_uri") || form.get("grant_type") !== "authorization_code") return this.error(res, 400, 100, "Invalid authorization code");
      return this.json(res, 200, { data: [], access_token: this.newToken(false, 3600), user_id: Number(FAKE_INSTAGRAM_USER.id), permissions: "instagram_business_basic,instagram_business_content_publish" });
    }
    if (req.method === "GET" && path === "/access_token") {
      const short = url.searchParams.get("access_token") ?? "";
      if (url.searchParams.get("client_secret") !== FAKE_INSTAGRAM_APP_SECRET || url.searchParams.get("grant_type") !== "ig_exchange_token" || !this.tokens.has(short)) return this.error(res, 400, 190, "Invalid OAuth access token");
      return this.json(res, 200, { access_token: this.newToken(true, 5_184_000), token_type: "bearer", expires_in: 5_184_000 });
    }
    if (req.method === "GET" && path === "/refresh_access_token") {
      const old = url.searchParams.get("access_token") ?? "";
      if (url.searchParams.get("grant_type") !== "ig_refresh_token" || !this.tokens.get(old)?.long) return this.error(res, 400, 190, "Invalid OAuth access token");
      this.tokens.delete(old);
      return this.json(res, 200, { access_token: this.newToken(true, 5_184_000), token_type: "bearer", expires_in: 5_184_000 });
    }

    const upload = /^\/ig-api-upload\/v[\d.]+\/(\w+)$/.exec(path);
    if (req.method === "POST" && upload) {
      const token = this.token(req, url);
      const container = this.containers.get(upload[1] ?? "");
      const bytes = await this.body(req);
      if (!token) return this.error(res, 401, 190, "Invalid OAuth access token");
      if (!container || container.statusCode !== "IN_PROGRESS" || container.sha256) return this.error(res, 400, 100, "No upload expected for this container");
      const offset = Number(req.headers.offset);
      const fileSize = Number(req.headers.file_size);
      if (!Number.isInteger(offset) || !Number.isInteger(fileSize) || fileSize <= 0) return this.error(res, 400, 100, "offset and file_size headers are required");
      if (offset !== container.received) return this.json(res, 400, { debug_info: { type: "ProcessingFailedError", message: `Expected offset ${container.received}` } });
      if (offset + bytes.length !== fileSize) return this.json(res, 400, { debug_info: { type: "ProcessingFailedError", message: "Partial upload" } });
      if (this.uploadDelayMs) await new Promise((r) => setTimeout(r, this.uploadDelayMs));
      if (res.destroyed) return;
      container.fileSize = fileSize;
      container.hash.update(bytes);
      container.received += bytes.length;
      container.sha256 = container.hash.digest("hex");
      return this.json(res, 200, { success: true, message: "Upload successful." });
    }

    const api = /^\/v[\d.]+\/(.+)$/.exec(path);
    if (!api) return this.error(res, 404, 100, `Unknown path ${path}`);
    const token = this.token(req, url);
    if (!token) return this.error(res, 400, 190, "Error validating access token: Session has expired or the user has revoked the app.");
    const parts = (api[1] ?? "").split("/");

    if (req.method === "GET" && parts[0] === "me") return this.json(res, 200, { id: FAKE_INSTAGRAM_USER.id, user_id: FAKE_INSTAGRAM_USER.id, username: FAKE_INSTAGRAM_USER.username });
    if (parts[0] === FAKE_INSTAGRAM_USER.id && parts[1] === "content_publishing_limit") {
      return this.json(res, 200, { data: [{ quota_usage: this.publishedInLastDay(), config: { quota_total: this.publishLimit, quota_duration: 86400 } }] });
    }
    if (req.method === "POST" && parts[0] === FAKE_INSTAGRAM_USER.id && parts[1] === "media") {
      const q = url.searchParams;
      if (q.get("media_type") !== "REELS" || q.get("upload_type") !== "resumable") return this.error(res, 400, 100, "This fake takes REELS with upload_type=resumable");
      const caption = q.get("caption") ?? "";
      if ([...caption].length > 2200) return this.error(res, 400, 100, "The caption is longer than 2,200 characters", 2207006);
      if ((caption.match(/#[\p{L}\p{N}_]+/gu)?.length ?? 0) > 30) return this.error(res, 400, 100, "The caption has more than 30 hashtags", 2207006);
      const id = String(18_000_000_000_000_000n + BigInt(this.containers.size + 1));
      this.containers.set(id, {
        id,
        caption,
        shareToFeed: q.get("share_to_feed") !== "false",
        thumbOffset: q.get("thumb_offset"),
        fileSize: null,
        received: 0,
        hash: createHash("sha256"),
        sha256: null,
        statusCode: "IN_PROGRESS",
        statusPolls: 0,
        mediaId: null,
      });
      return this.json(res, 200, { id, uri: `${this.url}/ig-api-upload/${path.split("/")[1]}/${id}` });
    }
    if (req.method === "POST" && parts[0] === FAKE_INSTAGRAM_USER.id && parts[1] === "media_publish") {
      const container = this.containers.get(url.searchParams.get("creation_id") ?? "");
      if (!container) return this.error(res, 400, 100, "Invalid creation_id");
      if (this.publishedInLastDay() >= this.publishLimit) return this.error(res, 400, 9, "Application request limit reached", 2207042);
      if (container.statusCode === "PUBLISHED") return this.error(res, 400, 100, "The media has already been published", 2207044);
      if (container.statusCode !== "FINISHED") return this.error(res, 400, 9007, "Media ID is not available", 2207027);
      container.statusCode = "PUBLISHED";
      container.mediaId = String(17_900_000_000_000_000n + BigInt(this.published.length + 1));
      this.published.push({ mediaId: container.mediaId, containerId: container.id });
      if (this.loseNextPublishAnswer) {
        this.loseNextPublishAnswer = false;
        req.socket.destroy();
        return;
      }
      return this.json(res, 200, { id: container.mediaId });
    }
    if (req.method === "GET" && parts.length === 1) {
      const container = this.containers.get(parts[0] ?? "");
      if (container) {
        if (container.statusCode === "IN_PROGRESS" && container.sha256 && ++container.statusPolls > this.processingPolls) container.statusCode = "FINISHED";
        return this.json(res, 200, {
          id: container.id,
          status_code: container.statusCode,
          status: container.statusCode === "IN_PROGRESS" ? "In Progress" : container.statusCode === "FINISHED" ? "Finished" : container.statusCode,
          video_status: { uploading_phase: { status: container.sha256 ? "complete" : "in_progress", bytes_transferred: container.received }, processing_phase: { status: container.statusCode === "IN_PROGRESS" ? "in_progress" : "complete" } },
        });
      }
      const media = this.published.find((p) => p.mediaId === parts[0]);
      if (media) return this.json(res, 200, { id: media.mediaId, permalink: `https://www.instagram.com/reel/FAKE${media.mediaId.slice(-6)}/` });
    }
    return this.error(res, 404, 100, `Unsupported ${req.method} ${path}`);
  }
}
