// The gate in front of the doors programs use (issue 32, decision 160): /api/v1 and /mcp take an API token
// (`Authorization: Bearer rs_pat_...`), never the session cookie. A request that carries a bearer token and no
// cookie cannot be forged by another site (a browser never adds that header on its own, and no CORS answer here
// lets a page add it), so it skips the cross-site check; a request with a cookie never does.
import { API_TOKEN_REFUSALS, authenticateApiToken, bearerTokenOf, type ApiCaller } from "./api-tokens.server";
import { getUserId } from "./auth.server";
import { problemBody } from "./problem.server";

/** /api/v1 paths anyone may read: the OpenAPI document and its docs page. */
export const PUBLIC_API_V1_PATHS = ["/api/v1/openapi.json", "/api/v1/docs"];

export function isApiV1Path(pathname: string): boolean {
  return pathname === "/api/v1" || pathname.startsWith("/api/v1/");
}

export function isMcpPath(pathname: string): boolean {
  return pathname === "/mcp" || pathname.startsWith("/mcp/");
}

/** True when the request authenticates with a bearer token alone: the cross-site check has nothing to protect. */
export function isBearerOnlyRequest(headers: { authorization?: string | null; cookie?: string | null }): boolean {
  return bearerTokenOf(headers.authorization) !== null && !headers.cookie;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The POSTs that start generation, paid work or posts, whoever calls them (a page with its cookie, a program with its
 * token): one list, so the pages' routes and /api/v1 count against the same generation limit. A new route that
 * starts work is added here (api-token-gate.server.test.ts names each).
 */
const GENERATION_PATHS: readonly RegExp[] = [
  /^\/api\/(generate-[\w-]+|ai\/[\w/-]+|[\w-]+\/generate|render-video)$/,
  /^\/api\/(ai-clips|scene-checks|platforms\/posts)$/,
  /^\/api\/projects\/[^/]+\/(shorts|versions)$/,
  /^\/api\/v1\/(videos|batches)$/,
  /^\/api\/v1\/videos\/[^/]+\/(publish|posts)$/,
  /^\/api\/v1\/batches\/[^/]+\/retry$/,
  /^\/api\/v1\/projects\/[^/]+\/(shorts|versions|render|publish|ai-clips)$/,
];

/** A POST that starts work: it counts against the generation limit (the pages' and the programs' alike). */
export function isGenerationRequest(method: string, pathname: string): boolean {
  return method === "POST" && GENERATION_PATHS.some((p) => p.test(pathname));
}

export type TokenGateAnswer =
  | { ok: true; caller: ApiCaller }
  | { ok: false; status: number; body: ReturnType<typeof problemBody>; headers: Record<string, string> };

/**
 * Who a token request speaks for, or the 401/403 problem to answer. Read-only tokens may not write through
 * /api/v1 (any method but GET/HEAD/OPTIONS); /mcp is all POSTs, so its tools check the scope themselves.
 */
export async function checkApiToken(input: { method: string; pathname: string; authorization: string | null }): Promise<TokenGateAnswer> {
  const result = await authenticateApiToken(input.authorization);
  if (!result.ok) {
    return {
      ok: false,
      status: 401,
      body: problemBody(401, API_TOKEN_REFUSALS[result.reason], { field: "Authorization" }),
      headers: { "WWW-Authenticate": `Bearer realm="reelsmith", error="invalid_token"`, "Cache-Control": "no-store" },
    };
  }
  if (isApiV1Path(input.pathname) && !SAFE_METHODS.has(input.method.toUpperCase()) && result.caller.scope !== "full") {
    return {
      ok: false,
      status: 403,
      body: problemBody(403, "This API token is read-only: it may read videos but not create, change or delete them. Make a token with full access under Settings > API tokens.", { field: "Authorization" }),
      headers: { "WWW-Authenticate": `Bearer realm="reelsmith", error="insufficient_scope"`, "Cache-Control": "no-store" },
    };
  }
  return { ok: true, caller: result.caller };
}

/** Who calls a programs' door, as its routes see it: the token's owner and scope, or the signed-in user (full). */
export type ApiRequestCaller = { userId: string; via: "token" | "session"; scope: "read" | "full" };

/**
 * The guard every /api/v1 route starts with. A request with `Authorization: Bearer` is judged by its token alone
 * (401 problem when missing, malformed, unknown, revoked or expired; 403 when a read-only token writes); without
 * one, the session cookie decides, exactly as on the pages' /api routes (the same user, the same checks).
 * `write`: the route changes something (any method but GET/HEAD).
 */
export async function requireApiCaller(request: Request): Promise<ApiRequestCaller> {
  const authorization = request.headers.get("Authorization");
  if (bearerTokenOf(authorization) === null) {
    const userId = await getUserId(request);
    if (!userId) {
      throw problemResponse(401, API_TOKEN_REFUSALS.missing, { "WWW-Authenticate": `Bearer realm="reelsmith"` });
    }
    return { userId, via: "session", scope: "full" };
  }
  const pathname = new URL(request.url).pathname;
  const answer = await checkApiToken({ method: request.method, pathname, authorization });
  if (!answer.ok) throw problemResponse(answer.status, answer.body.detail, answer.headers);
  return { userId: answer.caller.userId, via: "token", scope: answer.caller.scope };
}

function problemResponse(status: number, detail: string, headers: Record<string, string>): Response {
  return new Response(JSON.stringify(problemBody(status, detail, { field: "Authorization" })), {
    status,
    headers: { "Content-Type": "application/problem+json", "Cache-Control": "no-store", ...headers },
  });
}
