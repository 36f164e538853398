// What every /api route shares: JSON errors, body validation with zod, and the request-origin rules
// (which origin the app answers on, and which writes come from another site).
import type { z } from "zod";
import { getEnv } from "./env.server";

/** A JSON error response: `{ message, ...extra }` with the given status. */
export function jsonError(status: number, message: string, extra?: Record<string, unknown>): Response {
  return Response.json({ message, ...extra }, { status, headers: { "Cache-Control": "no-store" } });
}

/**
 * The request's JSON body checked against `schema`. A body that is not JSON, or fails the schema, throws a
 * 400 `{ message, field }` naming the first bad field (field is null when the body as a whole is wrong).
 */
export async function parseJsonBody<Schema extends z.ZodType>(request: Request, schema: Schema): Promise<z.output<Schema>> {
  const text = await request.text();
  let body: unknown = {};
  if (text.trim()) {
    try {
      body = JSON.parse(text);
    } catch {
      throw jsonError(400, "The request body must be JSON (Content-Type: application/json).", { field: null });
    }
  }
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.length ? issue.path.join(".") : null;
  throw jsonError(400, field ? `${field}: ${issue.message}` : issue.message, { field });
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * The origin the browser uses to reach this app. PUBLIC_URL when it is configured; without it the app
 * answers on whichever loopback name the browser used (localhost or 127.0.0.1), so cookies set during the
 * sign-in flow come back on the same host. Any other host falls back to the default PUBLIC_URL.
 */
export function appOrigin(request: Request): string {
  const env = getEnv();
  if (process.env.PUBLIC_URL) return new URL(env.PUBLIC_URL).origin;
  const url = new URL(request.url);
  if (LOOPBACK_HOSTS.has(url.hostname) && url.port === String(env.PORT)) return url.origin;
  return new URL(env.PUBLIC_URL).origin;
}

/**
 * /api paths reachable without a session: the sign-in flow itself, webhooks and Suno's callback (they verify their own
 * signatures), and the owner's logo and favicon files (the signed-out landing page shows them).
 */
export function isPublicApiPath(pathname: string): boolean {
  return (
    ["/api/login", "/api/logout", "/api/auth/callback", "/api/suno-callback"].includes(pathname) ||
    /^\/api\/[\w/-]*webhook$/.test(pathname) ||
    /^\/api\/branding\/[^/]+$/.test(pathname)
  );
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * True for a state-changing request a browser sent from another site: Sec-Fetch-Site says so, or the Origin
 * header names an origin other than this app's. Requests without either header (curl, webhooks) are not
 * browser cross-site requests: cookies are what a forged request would abuse, and browsers always send these.
 */
export function isCrossSiteWrite(input: {
  method: string;
  origin: string | null;
  secFetchSite: string | null;
  allowedOrigins: string[];
}): boolean {
  if (SAFE_METHODS.has(input.method.toUpperCase())) return false;
  if (input.secFetchSite && input.secFetchSite !== "same-origin" && input.secFetchSite !== "none") return true;
  if (input.origin) return !input.allowedOrigins.includes(input.origin);
  return false;
}

export const CROSS_SITE_MESSAGE = "This request came from another website and was refused. Use Reelsmith's own pages to make changes.";
export const NOT_SIGNED_IN_MESSAGE = "Not signed in";
