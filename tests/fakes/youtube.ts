// A local fake of Google's OAuth 2.0 endpoints and the YouTube Data API v3, so the real `googleapis` /
// google-auth-library client code runs against it. Shapes from Google's documentation (found with the docs search):
//   developers.google.com/identity/protocols/oauth2/web-server: GET /o/oauth2/v2/auth (client_id, redirect_uri,
//     response_type=code, scope, state, access_type=offline, code_challenge + S256) redirects to
//     redirect_uri?code&state&scope, or ?error=access_denied; POST /token (form) grant_type=authorization_code |
//     refresh_token answers { access_token, expires_in, refresh_token, scope, token_type: "Bearer" } or
//     400 { error: "invalid_grant", error_description }; POST /revoke?token=.
//   developers.google.com/youtube/v3/guides/using_resumable_upload_protocol: POST
//     /upload/youtube/v3/videos?uploadType=resumable&part=... with the video resource and X-Upload-Content-Length
//     answers 200 with the session URI in Location; PUT <session> with Content-Range "bytes a-b/total" answers
//     308 Resume Incomplete with Range "bytes=0-N" (no Range when nothing is stored), the last one 201 with the
//     video resource; an empty PUT with "bytes */total" asks how much is stored.
//   developers.google.com/youtube/v3/docs/errors: 403 quotaExceeded (domain youtube.quota), 401 authError.
//   thumbnails.set (POST /upload/youtube/v3/thumbnails/set?videoId=), videoCategories.list, channels.list?mine.
//   developers.google.com/youtube/v3/docs/captions/insert: POST /upload/youtube/v3/captions?part=snippet with
//     uploadType=multipart: a multipart/related body, first part the caption resource as JSON ({ snippet: { videoId,
//     language, name, isDraft } }, all three of videoId, language and name required), second part the caption file
//     (accepted media types text/xml, application/octet-stream, */*); needs the youtube.force-ssl scope (else 403
//     insufficientPermissions); answers 200 with the caption resource (kind youtube#caption, id, snippet with
//     trackKind "standard", status "serving"); 404 videoNotFound for an unknown video.
import { createHash, randomBytes, type Hash } from "node:crypto";
import type http from "node:http";
import { LoopbackFake } from "./loopback-fake";

export const FAKE_CLIENT_ID = "fake-client-id.apps.googleusercontent.com";
export const FAKE_CLIENT_SECRET = "fake-client-secret-0123456789";
export const FAKE_CHANNEL = { id: "UCfakeChannel0000000000000", title: "Fake Creator Channel" };

export const FAKE_CATEGORIES: Record<string, string> = {
  "1": "Film & Animation",
  "2": "Autos & Vehicles",
  "10": "Music",
  "15": "Pets & Animals",
  "17": "Sports",
  "18": "Short Movies",
  "19": "Travel & Events",
  "20": "Gaming",
  "21": "Videoblogging",
  "22": "People & Blogs",
  "23": "Comedy",
  "24": "Entertainment",
  "25": "News & Politics",
  "26": "Howto & Style",
  "27": "Education",
  "28": "Science & Technology",
  "29": "Nonprofits & Activism",
  "30": "Movies",
};

type Code = { clientId: string; redirectUri: string; challenge: string | null; method: string | null; scope: string; used: boolean };
type Token = { expiresAt: number; refreshToken: string; scope: string };
export type UploadSession = {
  id: string;
  total: number;
  contentType: string;
  resource: VideoResource;
  /** The bytes stored, in order (empty when the fake is told not to keep them: see keepUploadedBytes). */
  stored: Buffer[];
  storedBytes: number;
  /** SHA-256 of the bytes stored so far, updated as each piece is stored. */
  hash: Hash;
  videoId: string | null;
  accessToken: string;
};
export type VideoResource = {
  snippet?: { title?: string; description?: string; tags?: string[]; categoryId?: string; defaultLanguage?: string };
  /** per-language title and description (videos#localizations); the part must name localizations */
  localizations?: Record<string, { title?: string; description?: string }>;
  status?: { privacyStatus?: string; publishAt?: string; selfDeclaredMadeForKids?: boolean; madeForKids?: boolean; containsSyntheticMedia?: boolean };
};
export type FakeCaption = { id: string; videoId: string; language: string; name: string; isDraft: boolean; contentType: string; text: string };
export type FakeVideo = { id: string; resource: VideoResource; bytes: number; /** hex SHA-256 of the video's bytes */ sha256: string; thumbnail: { bytes: number; contentType: string } | null; captions: FakeCaption[] };
export type LoggedRequest = { method: string; path: string; query: URLSearchParams; headers: http.IncomingHttpHeaders; bodyBytes: number };

const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  if (res.destroyed) return;
  res.writeHead(status, { "content-type": "application/json; charset=UTF-8", ...headers });
  res.end(JSON.stringify(body));
};

/** Google's error envelope for the YouTube Data API. */
export function youtubeError(code: number, reason: string, message: string, domain = "youtube.video", status?: string) {
  return { error: { code, message, errors: [{ message, domain, reason }], ...(status ? { status } : {}) } };
}

export class FakeYoutube extends LoopbackFake {
  readonly requests: LoggedRequest[] = [];
  readonly sessions = new Map<string, UploadSession>();
  readonly videos = new Map<string, FakeVideo>();
  /** Every byte of upload content received in PUTs, including bytes thrown away by a cut connection. */
  uploadBytesReceived = 0;
  /** Access tokens live this long. */
  accessTokenSeconds = 3600;
  /** The next session starts answer 403 quotaExceeded (this many times). */
  quotaExceeded = 0;
  /** The next chunk PUT keeps only this many of its bytes, then the connection is cut without an answer. */
  cutNextChunkAfterBytes: number | null = null;
  /** The first chunk PUT that carries this byte of the file keeps the bytes before it, then the connection is cut (once). */
  cutUploadAtByte: number | null = null;
  /** Off: uploaded bytes are hashed and counted but not kept, so a test can send gigabytes without holding them. */
  keepUploadedBytes = true;
  /** Each chunk's answer waits this long (so a test can kill a worker mid-upload). */
  chunkDelayMs = 0;
  /** The next this many chunk PUTs answer 503 backendError and store nothing (YouTube stumbling). */
  failChunks = 0;
  /** After this many caption tracks are taken, the next captions.insert answers 503 backendError once. */
  failCaptionInsertAfter: number | null = null;
  captionsTaken = 0;
  /** The next authorization is refused by the person (error=access_denied). */
  denyNextConsent = false;

  private readonly codes = new Map<string, Code>();
  private readonly tokens = new Map<string, Token>();
  private readonly refreshTokens = new Set<string>();
  /** The scopes each refresh token was granted (access tokens from it carry the same). */
  private readonly grantedScopes = new Map<string, string>();
  private readonly revoked = new Set<string>();

  constructor(
    readonly clientId = FAKE_CLIENT_ID,
    readonly clientSecret = FAKE_CLIENT_SECRET,
  ) {
    super();
  }

  protected internalError(res: http.ServerResponse, e: unknown) {
    json(res, 500, { error: { code: 500, message: e instanceof Error ? e.message : String(e) } });
  }

  /** The env the app needs to talk to this fake instead of Google. */
  env(): Record<string, string> {
    return {
      GOOGLE_OAUTH_AUTHORIZE_URL: `${this.url}/o/oauth2/v2/auth`,
      GOOGLE_OAUTH_TOKEN_URL: `${this.url}/token`,
      GOOGLE_OAUTH_REVOKE_URL: `${this.url}/revoke`,
      YOUTUBE_API_BASE_URL: `${this.url}/`,
    };
  }

  requestsTo(pattern: RegExp, method?: string): LoggedRequest[] {
    return this.requests.filter((r) => pattern.test(r.path) && (!method || r.method === method));
  }

  /** The user withdraws the app's access in their Google account: every token of theirs stops working. */
  revokeAll(): void {
    for (const token of this.refreshTokens) this.revoked.add(token);
    this.tokens.clear();
  }

  /** Makes every access token issued so far expired (as an hour passing would). */
  expireAccessTokens(): void {
    for (const token of this.tokens.values()) token.expiresAt = 0;
  }

  /** A summary a test (or the e2e harness over HTTP) can read. */
  state() {
    return {
      uploadBytesReceived: this.uploadBytesReceived,
      sessions: [...this.sessions.values()].map((s) => ({ id: s.id, total: s.total, storedBytes: s.storedBytes, videoId: s.videoId })),
      videos: [...this.videos.values()],
      tokenGrants: this.requestsTo(/^\/token$/).length,
    };
  }

  protected async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? "/", "http://fake");
    const logged: LoggedRequest = { method: req.method ?? "GET", path: url.pathname, query: url.searchParams, headers: req.headers, bodyBytes: 0 };
    this.requests.push(logged);

    if (req.method === "PUT" && url.pathname === "/upload/youtube/v3/videos" && url.searchParams.get("upload_id")) {
      return this.receiveChunk(req, res, url.searchParams.get("upload_id")!, logged);
    }
    const body = await this.body(req);
    logged.bodyBytes = body.length;
    const route = `${req.method} ${url.pathname}`;
    switch (route) {
      case "GET /__fake/state":
        return json(res, 200, this.state());
      case "POST /__fake/chunk-delay":
        // a browser test run against the fake's own process slows the upload so its progress can be watched
        this.chunkDelayMs = Math.max(0, Math.min(10_000, Number(url.searchParams.get("ms") ?? 0) || 0));
        return json(res, 200, { chunkDelayMs: this.chunkDelayMs });
      case "GET /o/oauth2/v2/auth":
        return this.authorize(url, res);
      case "POST /token":
        return this.token(new URLSearchParams(body.toString("utf8")), req, res);
      case "POST /revoke": {
        const token = url.searchParams.get("token") ?? new URLSearchParams(body.toString("utf8")).get("token") ?? "";
        const known = this.tokens.get(token)?.refreshToken ?? (this.refreshTokens.has(token) ? token : null);
        if (!known) return json(res, 400, { error: "invalid_token", error_description: "Token expired or revoked" });
        this.revoked.add(known);
        for (const [access, t] of this.tokens) if (t.refreshToken === known) this.tokens.delete(access);
        return json(res, 200, {});
      }
    }

    const token = this.bearer(req);
    if (!token) {
      return json(
        res,
        401,
        youtubeError(
          401,
          "authError",
          "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
          "global",
          "UNAUTHENTICATED",
        ),
        { "www-authenticate": 'Bearer realm="https://accounts.google.com/"' },
      );
    }

    if (route === "POST /upload/youtube/v3/videos" && url.searchParams.get("uploadType") === "resumable") {
      if (this.quotaExceeded > 0) {
        this.quotaExceeded--;
        return json(
          res,
          403,
          youtubeError(403, "quotaExceeded", 'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.', "youtube.quota"),
        );
      }
      const total = Number(req.headers["x-upload-content-length"]);
      if (!Number.isFinite(total) || total <= 0) return json(res, 400, youtubeError(400, "badContent", "X-Upload-Content-Length is required", "global"));
      const resource = JSON.parse(body.toString("utf8") || "{}") as VideoResource;
      if (!resource.snippet?.title) return json(res, 400, youtubeError(400, "invalidTitle", "The request metadata specifies an invalid or empty video title."));
      // videos.insert: localized details need the default language (error defaultLanguageNotSet) and the part named
      if (resource.localizations && Object.keys(resource.localizations).length) {
        if (!resource.snippet.defaultLanguage) {
          return json(res, 400, youtubeError(400, "defaultLanguageNotSet", "The request is trying to add localized video details without specifying the default language of the video details."));
        }
        if (!/(^|,)localizations(,|$)/.test(url.searchParams.get("part") ?? "")) delete resource.localizations;
      }
      if (resource.status?.publishAt && resource.status.privacyStatus !== "private") {
        return json(res, 400, youtubeError(400, "invalidPublishAt", "The request metadata specifies an invalid scheduled publishing time."));
      }
      const id = randomBytes(12).toString("base64url");
      this.sessions.set(id, {
        id,
        total,
        contentType: String(req.headers["x-upload-content-type"] ?? "application/octet-stream"),
        resource,
        stored: [],
        storedBytes: 0,
        hash: createHash("sha256"),
        videoId: null,
        accessToken: token,
      });
      const location = `${this.url}/upload/youtube/v3/videos?uploadType=resumable&upload_id=${id}&part=${encodeURIComponent(url.searchParams.get("part") ?? "")}`;
      res.writeHead(200, { location, "content-length": "0" });
      return res.end();
    }

    if (route === "POST /upload/youtube/v3/thumbnails/set") {
      const video = this.videos.get(url.searchParams.get("videoId") ?? "");
      if (!video) return json(res, 404, youtubeError(404, "videoNotFound", "The video that you are trying to update cannot be found."));
      if (body.length === 0) return json(res, 400, youtubeError(400, "mediaBodyRequired", "The request does not include the image content.", "global"));
      video.thumbnail = { bytes: body.length, contentType: String(req.headers["content-type"] ?? "") };
      const image = (w: number, h: number, name: string) => ({ url: `https://i.ytimg.com/vi/${video.id}/${name}.jpg`, width: w, height: h });
      return json(res, 200, {
        kind: "youtube#thumbnailSetResponse",
        etag: randomBytes(8).toString("hex"),
        items: [{ default: image(120, 90, "default"), medium: image(320, 180, "mqdefault"), high: image(480, 360, "hqdefault") }],
      });
    }

    if (route === "POST /upload/youtube/v3/captions") return this.insertCaption(req, url, body, token, res);

    if (route === "GET /youtube/v3/videoCategories") {
      return json(res, 200, {
        kind: "youtube#videoCategoryListResponse",
        etag: "fake-etag",
        items: Object.entries(FAKE_CATEGORIES).map(([id, title]) => ({
          kind: "youtube#videoCategory",
          etag: `etag-${id}`,
          id,
          snippet: { title, assignable: !["18", "21", "30"].includes(id), channelId: "UCBR8-60-B28hp2BmDPdntcQ" },
        })),
      });
    }

    if (route === "GET /youtube/v3/channels" && url.searchParams.get("mine") === "true") {
      return json(res, 200, { kind: "youtube#channelListResponse", items: [{ kind: "youtube#channel", id: FAKE_CHANNEL.id, snippet: { title: FAKE_CHANNEL.title } }] });
    }

    json(res, 404, youtubeError(404, "notFound", `No route ${route}`, "global"));
  }

  /** captions.insert, multipart upload: the caption resource (JSON) and the caption file. */
  private insertCaption(req: http.IncomingMessage, url: URL, body: Buffer, token: string, res: http.ServerResponse) {
    if (!/(^|,)snippet(,|$)/.test(url.searchParams.get("part") ?? "")) return json(res, 400, youtubeError(400, "required", "Required parameter: part", "global"));
    if (url.searchParams.get("uploadType") !== "multipart") return json(res, 400, youtubeError(400, "badContent", "This fake takes uploadType=multipart only", "global"));
    if (!this.tokens.get(token)?.scope.split(/\s+/).includes("https://www.googleapis.com/auth/youtube.force-ssl")) {
      return json(res, 403, youtubeError(403, "insufficientPermissions", "Request had insufficient authentication scopes.", "global", "PERMISSION_DENIED"));
    }
    const boundary = /boundary="?([^";]+)"?/i.exec(String(req.headers["content-type"] ?? ""))?.[1];
    if (!/^multipart\/related/i.test(String(req.headers["content-type"] ?? "")) || !boundary) {
      return json(res, 400, youtubeError(400, "badContent", "A multipart/related body is expected", "global"));
    }
    const parts = parseMultipart(body, boundary);
    if (parts.length !== 2) return json(res, 400, youtubeError(400, "badContent", `Expected 2 parts (metadata, media), got ${parts.length}`, "global"));
    const [meta, media] = parts as [MultipartPart, MultipartPart];
    let resource: { snippet?: { videoId?: string; language?: string; name?: string; isDraft?: boolean } };
    try {
      resource = JSON.parse(meta.body.toString("utf8")) as typeof resource;
    } catch {
      return json(res, 400, youtubeError(400, "parseError", "The caption resource is not JSON", "global"));
    }
    const snippet = resource.snippet ?? {};
    if (!snippet.videoId || !snippet.language || snippet.name === undefined) {
      return json(res, 400, youtubeError(400, "invalidMetadata", "The request contains invalid metadata values: snippet.videoId, snippet.language and snippet.name are required.", "youtube.caption"));
    }
    const video = this.videos.get(snippet.videoId);
    if (!video) return json(res, 404, youtubeError(404, "videoNotFound", "The video identified by the videoId parameter could not be found.", "youtube.caption"));
    const contentType = (media.headers["content-type"] ?? "").toLowerCase();
    if (!["text/xml", "application/octet-stream", "*/*"].some((t) => contentType.startsWith(t))) {
      return json(res, 400, youtubeError(400, "badContent", `Media type ${contentType} is not accepted`, "global"));
    }
    if (media.body.length === 0) return json(res, 400, youtubeError(400, "contentRequired", "The request does not contain the caption track contents.", "youtube.caption"));
    if (this.failCaptionInsertAfter !== null && this.captionsTaken >= this.failCaptionInsertAfter) {
      this.failCaptionInsertAfter = null;
      return json(res, 503, youtubeError(503, "backendError", "Backend Error", "global"));
    }
    this.captionsTaken++;
    const caption: FakeCaption = {
      id: `AUieDa${randomBytes(16).toString("base64url")}`,
      videoId: video.id,
      language: snippet.language,
      name: snippet.name,
      isDraft: snippet.isDraft ?? false,
      contentType,
      text: media.body.toString("utf8"),
    };
    video.captions.push(caption);
    return json(res, 200, {
      kind: "youtube#caption",
      etag: randomBytes(8).toString("hex"),
      id: caption.id,
      snippet: {
        videoId: caption.videoId,
        lastUpdated: new Date().toISOString(),
        trackKind: "standard",
        language: caption.language,
        name: caption.name,
        audioTrackType: "unknown",
        isCC: false,
        isLarge: false,
        isEasyReader: false,
        isDraft: caption.isDraft,
        isAutoSynced: false,
        status: "serving",
      },
    });
  }

  private bearer(req: http.IncomingMessage): string | null {
    const token = (req.headers.authorization ?? "").replace(/^Bearer\s+/i, "");
    const known = this.tokens.get(token);
    if (!known || known.expiresAt < Date.now() || this.revoked.has(known.refreshToken)) return null;
    return token;
  }

  private authorize(url: URL, res: http.ServerResponse) {
    const q = url.searchParams;
    const redirectUri = q.get("redirect_uri") ?? "";
    if (q.get("client_id") !== this.clientId) {
      res.writeHead(401, { "content-type": "text/html" });
      return res.end("<h1>Error 401: invalid_client</h1><p>The OAuth client was not found.</p>");
    }
    if (q.get("response_type") !== "code" || !redirectUri) {
      res.writeHead(400, { "content-type": "text/html" });
      return res.end("<h1>Error 400: invalid_request</h1>");
    }
    const back = new URL(redirectUri);
    if (q.get("state")) back.searchParams.set("state", q.get("state")!);
    if (this.denyNextConsent) {
      this.denyNextConsent = false;
      back.searchParams.set("error", "access_denied");
    } else {
      const code = `4/${randomBytes(16).toString("base64url")}`;
      this.codes.set(code, {
        clientId: this.clientId,
        redirectUri,
        challenge: q.get("code_challenge"),
        method: q.get("code_challenge_method"),
        scope: q.get("scope") ?? "",
        used: false,
      });
      back.searchParams.set("code", code);
      back.searchParams.set("scope", q.get("scope") ?? "");
    }
    res.writeHead(302, { location: back.toString() });
    res.end();
  }

  private issue(refreshToken: string) {
    const accessToken = `ya29.${randomBytes(18).toString("base64url")}`;
    this.tokens.set(accessToken, { expiresAt: Date.now() + this.accessTokenSeconds * 1000, refreshToken, scope: this.grantedScopes.get(refreshToken) ?? "" });
    return accessToken;
  }

  private token(form: URLSearchParams, req: http.IncomingMessage, res: http.ServerResponse) {
    // the client may authenticate in the body or with HTTP Basic
    let clientId = form.get("client_id");
    let clientSecret = form.get("client_secret");
    const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? "");
    if (basic) {
      const [id, secret] = Buffer.from(basic[1]!, "base64").toString("utf8").split(":");
      clientId = decodeURIComponent(id ?? "");
      clientSecret = decodeURIComponent(secret ?? "");
    }
    if (clientId !== this.clientId || clientSecret !== this.clientSecret) {
      return json(res, 401, { error: "invalid_client", error_description: "The OAuth client was not found." });
    }
    if (form.get("grant_type") === "authorization_code") {
      const code = this.codes.get(form.get("code") ?? "");
      if (!code || code.used) return json(res, 400, { error: "invalid_grant", error_description: "Malformed auth code." });
      if (code.redirectUri !== form.get("redirect_uri")) return json(res, 400, { error: "redirect_uri_mismatch", error_description: "Bad Request" });
      if (code.challenge) {
        const verifier = form.get("code_verifier") ?? "";
        const computed = code.method === "S256" ? createHash("sha256").update(verifier).digest("base64url") : verifier;
        if (computed !== code.challenge) return json(res, 400, { error: "invalid_grant", error_description: "Invalid code verifier." });
      }
      code.used = true;
      const refreshToken = `1//${randomBytes(24).toString("base64url")}`;
      this.refreshTokens.add(refreshToken);
      this.grantedScopes.set(refreshToken, code.scope);
      return json(res, 200, {
        access_token: this.issue(refreshToken),
        expires_in: this.accessTokenSeconds,
        refresh_token: refreshToken,
        scope: code.scope,
        token_type: "Bearer",
      });
    }
    if (form.get("grant_type") === "refresh_token") {
      const refreshToken = form.get("refresh_token") ?? "";
      if (!this.refreshTokens.has(refreshToken) || this.revoked.has(refreshToken)) {
        return json(res, 400, { error: "invalid_grant", error_description: "Token has been expired or revoked." });
      }
      return json(res, 200, {
        access_token: this.issue(refreshToken),
        expires_in: this.accessTokenSeconds,
        scope: this.grantedScopes.get(refreshToken) ?? "",
        token_type: "Bearer",
      });
    }
    return json(res, 400, { error: "unsupported_grant_type", error_description: `Invalid grant_type: ${form.get("grant_type")}` });
  }

  private receiveChunk(req: http.IncomingMessage, res: http.ServerResponse, id: string, logged: LoggedRequest) {
    const session = this.sessions.get(id);
    const range = /^bytes (?:(\d+)-(\d+)|\*)\/(\d+|\*)$/.exec(String(req.headers["content-range"] ?? ""));
    const start = range?.[1] === undefined ? null : Number(range[1]);
    const cutByte = this.cutUploadAtByte;
    const cutsHere = cutByte !== null && start !== null && range?.[2] !== undefined && start <= cutByte && cutByte <= Number(range[2]);
    const cutAt = cutsHere ? cutByte - start : this.cutNextChunkAfterBytes;
    let received = 0;
    const parts: Buffer[] = [];
    let cut = false;
    req.on("data", (chunk: Buffer) => {
      if (cut) return;
      received += chunk.length;
      this.uploadBytesReceived += chunk.length;
      parts.push(chunk);
      if (cutAt !== null && received >= cutAt && range?.[1] !== undefined) {
        // the network fails mid-chunk: what arrived so far is kept, the client never hears back
        cut = true;
        logged.bodyBytes = received;
        if (cutsHere) this.cutUploadAtByte = null;
        else this.cutNextChunkAfterBytes = null;
        if (session && Number(range[1]) === session.storedBytes) this.store(session, Buffer.concat(parts).subarray(0, cutAt));
        req.socket.destroy();
      }
    });
    req.on("end", () => {
      if (cut) return;
      logged.bodyBytes = received;
      void (async () => {
        if (this.chunkDelayMs) await new Promise((r) => setTimeout(r, this.chunkDelayMs));
        if (!session) return json(res, 404, youtubeError(404, "notFound", "The upload session was not found or has expired.", "global"));
        if (!this.bearer(req)) return json(res, 401, youtubeError(401, "authError", "Invalid Credentials", "global", "UNAUTHENTICATED"));
        const incomplete = () => {
          res.writeHead(308, session.storedBytes > 0 ? { range: `bytes=0-${session.storedBytes - 1}`, "content-length": "0" } : { "content-length": "0" });
          res.end();
        };
        if (session.videoId) return json(res, 200, this.videoResponse(this.videos.get(session.videoId)!));
        if (!range) return json(res, 400, youtubeError(400, "badRequest", "Content-Range is required", "global"));
        if (range[1] === undefined) return incomplete(); // a status query: "bytes */total"
        if (this.failChunks > 0) {
          this.failChunks--;
          return json(res, 503, youtubeError(503, "backendError", "Backend Error", "global"));
        }
        const from = Number(range[1]);
        const body = Buffer.concat(parts);
        if (from > session.storedBytes) return incomplete(); // a gap: the client must resume where the Range says
        // bytes already stored are not stored twice
        this.store(session, body.subarray(session.storedBytes - from));
        if (session.storedBytes < session.total) return incomplete();
        const videoId = randomBytes(8).toString("base64url").slice(0, 11);
        session.videoId = videoId;
        const video: FakeVideo = { id: videoId, resource: session.resource, bytes: session.storedBytes, sha256: session.hash.digest("hex"), thumbnail: null, captions: [] };
        this.videos.set(videoId, video);
        json(res, 201, this.videoResponse(video));
      })();
    });
  }

  private store(session: UploadSession, bytes: Buffer) {
    if (this.keepUploadedBytes) session.stored.push(bytes);
    session.hash.update(bytes);
    session.storedBytes += bytes.length;
  }

  private videoResponse(video: FakeVideo) {
    return {
      kind: "youtube#video",
      etag: randomBytes(8).toString("hex"),
      id: video.id,
      snippet: { ...video.resource.snippet, channelId: FAKE_CHANNEL.id, channelTitle: FAKE_CHANNEL.title, publishedAt: new Date().toISOString() },
      status: {
        uploadStatus: "uploaded",
        privacyStatus: video.resource.status?.privacyStatus ?? "public",
        publishAt: video.resource.status?.publishAt,
        selfDeclaredMadeForKids: video.resource.status?.selfDeclaredMadeForKids ?? false,
        madeForKids: video.resource.status?.selfDeclaredMadeForKids ?? false,
      },
    };
  }
}

type MultipartPart = { headers: Record<string, string>; body: Buffer };

/** The parts of a multipart body (RFC 2046): each part's headers (lower-cased names) and its bytes. */
function parseMultipart(body: Buffer, boundary: string): MultipartPart[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: MultipartPart[] = [];
  let at = body.indexOf(delimiter);
  while (at !== -1) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === "--") break; // the closing delimiter
    const next = body.indexOf(delimiter, start);
    if (next === -1) break;
    // the part runs from after the delimiter's line break to before the CRLF that precedes the next delimiter
    let part = body.subarray(start, next);
    part = part.subarray(part.indexOf("\n") + 1);
    if (part.subarray(-2).toString() === "\r\n") part = part.subarray(0, -2);
    else if (part.subarray(-1).toString() === "\n") part = part.subarray(0, -1);
    const split = part.indexOf("\r\n\r\n") !== -1 ? part.indexOf("\r\n\r\n") : part.indexOf("\n\n");
    const gap = part.indexOf("\r\n\r\n") !== -1 ? 4 : 2;
    const headers: Record<string, string> = {};
    for (const line of part.subarray(0, Math.max(0, split)).toString("utf8").split(/\r?\n/)) {
      const colon = line.indexOf(":");
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    parts.push({ headers, body: split === -1 ? Buffer.alloc(0) : part.subarray(split + gap) });
    at = next;
  }
  return parts;
}
