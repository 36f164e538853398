// What every /api route shares: JSON errors, body validation with zod, and the request-origin rules
// (which origin the app answers on, and which writes come from another site).
import { MaxPartSizeExceededError, unstable_createMemoryUploadHandler, unstable_parseMultipartFormData } from "@remix-run/node";
import type { z } from "zod";
import { BodyLimitError, isBodyLimitError, MAX_JSON_BYTES, readBodyWithin, withBodyLimit } from "~/lib/request-body.server";
import { getEnv } from "~/core/env.server";
import { refusal } from "~/core/refusal.server";

import { jsonError, refusalResponse, thrownResponse } from "./json-answer.server";

export { jsonError, refusalResponse, thrownResponse };

/** 405 with the Allow header and a JSON message naming the methods this path takes. */
export function methodNotAllowed(allow: string[], message?: string): Response {
  return Response.json(
    { message: message ?? `This address does not take that method. Use ${allow.join(" or ")}.`, allow },
    { status: 405, headers: { Allow: allow.join(", "), "Cache-Control": "no-store" } },
  );
}

/** No storyboard has this many scenes; it keeps indexes far inside PostgreSQL's integer range. */
export const MAX_SCENE_INDEX = 9999;

/** The largest JSON body any /api route reads; routes take it from here with the readers that use it. */
export { MAX_JSON_BYTES };

/**
 * The request's body as bytes, read as a stream and stopped (413, naming `field`) as soon as it passes
 * `maxBytes`, whatever Content-Length says or whether there is one (a chunked body has none). Memory stays
 * within the cap.
 */
export async function readBodyCapped(request: Request, maxBytes: number, field: string | null = null): Promise<Buffer> {
  try {
    return await readBodyWithin(request, maxBytes);
  } catch (e) {
    if (e instanceof BodyLimitError) throw refusal(413, e.message, { field });
    throw e;
  }
}

/** Room for a multipart form's boundaries, headers and small fields beside its file. */
export const MULTIPART_OVERHEAD = 64 * 1024;
/** A form with the file and a few small fields; more parts than this is not an upload from our pages. */
export const MAX_MULTIPART_PARTS = 8;

class TooManyPartsError extends Error {}

/**
 * A multipart form read with every bound an upload needs, whatever Content-Length says or whether there is one:
 * the whole body capped as a stream (file + MULTIPART_OVERHEAD), each part at `maxFileBytes` and at most
 * MAX_MULTIPART_PARTS parts. Throws 413 `tooLarge` past a size, 413 for too many parts, 400 for a body that
 * is not a multipart form; each naming `field`.
 */
export async function readMultipartCapped(request: Request, options: { maxFileBytes: number; tooLarge: string; field: string }): Promise<FormData> {
  const { maxFileBytes, tooLarge, field } = options;
  // refused unread (never cancelled, which would cut the connection before the answer): the server drops the rest
  if (Number(request.headers.get("Content-Length") ?? 0) > maxFileBytes + MULTIPART_OVERHEAD) throw refusal(413, tooLarge, { field });
  const memory = unstable_createMemoryUploadHandler({ maxPartSize: maxFileBytes });
  let parts = 0;
  try {
    return await unstable_parseMultipartFormData(withBodyLimit(request, maxFileBytes + MULTIPART_OVERHEAD), (part) => {
      if (++parts > MAX_MULTIPART_PARTS) throw new TooManyPartsError();
      return memory(part);
    });
  } catch (e) {
    if (e instanceof MaxPartSizeExceededError || isBodyLimitError(e)) throw refusal(413, tooLarge, { field });
    if (e instanceof TooManyPartsError) throw refusal(413, `The upload has too many form fields: send at most ${MAX_MULTIPART_PARTS}.`, { field });
    throw refusal(400, `The upload could not be read as a multipart form: ${(e as Error).message}`, { field });
  }
}

import type { StreamedFilePart } from "~/lib/request-body.server";
export type { StreamedFilePart };

/**
 * A multipart upload read as a stream (decision 199): the small fields kept as text, the one file part (named
 * `fileField`) handed to `receive` while it arrives, so it can go straight to storage and is never whole in memory.
 * Bounded as readMultipartCapped is: the whole body at `maxBodyBytes` (declared or counted; 413 `tooLarge`), at most
 * MAX_MULTIPART_PARTS parts (413), one file in `fileField` (400; files in other fields are skipped). What `receive` returns comes back as `file`; if the form fails
 * after it, `discard` is given it (to remove what it stored). Whatever `receive` throws is thrown as it is.
 */
export async function readMultipartStream<T>(
  request: Request,
  options: {
    fileField: string;
    maxBodyBytes: number;
    tooLarge: string;
    field: string;
    /** given the small fields that came before the file in the form, too */
    receive: (file: StreamedFilePart, fieldsBefore: Map<string, string>) => Promise<T>;
    discard?: (received: T) => Promise<void>;
  },
): Promise<{ fields: Map<string, string>; file: T | null }> {
  const { fileField, maxBodyBytes, tooLarge, field } = options;
  if (Number(request.headers.get("Content-Length") ?? 0) > maxBodyBytes) throw refusal(413, tooLarge, { field });
  const fields = new Map<string, string>();
  let received: { value: T } | null = null;
  let parts = 0;
  class ReceiveError extends Error {
    constructor(readonly thrown: unknown) {
      super("receive failed");
    }
  }
  try {
    await unstable_parseMultipartFormData(withBodyLimit(request, maxBodyBytes), async (part) => {
      if (++parts > MAX_MULTIPART_PARTS) throw new TooManyPartsError();
      if (part.filename === undefined) {
        let text = "";
        for await (const chunk of part.data) {
          text += Buffer.from(chunk).toString("utf8");
          if (text.length > MULTIPART_OVERHEAD) throw new BodyLimitError(maxBodyBytes);
        }
        fields.set(part.name, text);
        return undefined;
      }
      if (part.name !== fileField) {
        // a file in another field is not ours to keep: read past it (the body's cap bounds it)
        for await (const chunk of part.data) void chunk;
        return undefined;
      }
      if (received) throw refusal(400, `Send one file, in the form field "${fileField}".`, { field });
      try {
        received = { value: await options.receive({ fileName: part.filename || null, contentType: part.contentType || null, data: part.data }, fields) };
      } catch (e) {
        throw new ReceiveError(e);
      }
      return undefined;
    });
  } catch (e) {
    const kept = received as { value: T } | null;
    if (kept && options.discard) await options.discard(kept.value).catch(() => {});
    const cause = e instanceof ReceiveError ? e.thrown : e;
    if (isBodyLimitError(cause)) throw refusal(413, tooLarge, { field });
    if (cause instanceof TooManyPartsError) throw refusal(413, `The upload has too many form fields: send at most ${MAX_MULTIPART_PARTS}.`, { field });
    if (e instanceof ReceiveError || thrownResponse(cause)) throw cause;
    throw refusal(400, `The upload could not be read as a multipart form: ${(cause as Error).message}`, { field });
  }
  const kept = received as { value: T } | null;
  return { fields, file: kept ? kept.value : null };
}

/**
 * The request's JSON body checked against `schema`, read with a cap (MAX_JSON_BYTES unless given: 413 past
 * it). A body that is not JSON, or fails the schema, throws a 400 `{ message, field }` naming the first bad
 * field (field is null when the body as a whole is wrong).
 */
export async function parseJsonBody<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
  options: { maxBytes?: number } = {},
): Promise<z.output<Schema>> {
  const text = (await readBodyCapped(request, options.maxBytes ?? MAX_JSON_BYTES)).toString("utf8");
  let body: unknown = {};
  if (text.trim()) {
    try {
      // PostgreSQL text cannot hold NUL characters: they are dropped here rather than failing a write later.
      body = JSON.parse(text, (_key, value: unknown) => (typeof value === "string" ? value.replaceAll("\u0000", "") : value));
    } catch {
      throw refusal(400, "The request body must be JSON (Content-Type: application/json).", { field: null });
    }
  }
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.length ? issue.path.join(".") : null;
  throw refusal(400, field ? `${field}: ${issue.message}` : issue.message, { field });
}

/** The same as parseJsonBody: the name new routes use. */
export const readJson = parseJsonBody;

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
