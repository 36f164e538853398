// Errors of the versioned API (/api/v1) and /mcp in one shape: RFC 9457 problem details
// (application/problem+json) with `status`, `title`, `detail`, and `field` (the request field at fault, or null).
// The service functions the pages share throw `{ message, field?, limit? }` JSON responses; toProblem turns those
// into problems so every door answers the same cause with the same status and words.
import { z } from "zod";
import { isRefusal } from "~/core/refusal.server";

export const PROBLEM_CONTENT_TYPE = "application/problem+json";
export const PROBLEM_TYPE_BASE = "https://reelsmith.dev/problems/";

const TITLES: Record<number, string> = {
  400: "Bad request",
  401: "Unauthorized",
  402: "Payment required",
  403: "Forbidden",
  404: "Not found",
  405: "Method not allowed",
  409: "Conflict",
  413: "Content too large",
  415: "Unsupported media type",
  422: "Unprocessable content",
  429: "Too many requests",
  500: "Internal server error",
  503: "Service unavailable",
};

const SLUGS: Record<number, string> = {
  400: "invalid-request",
  401: "unauthorized",
  402: "plan-limit",
  403: "forbidden",
  404: "not-found",
  405: "method-not-allowed",
  409: "conflict",
  413: "too-large",
  415: "unsupported-media-type",
  422: "unprocessable",
  429: "rate-limited",
  500: "server-error",
  503: "unavailable",
};

/** The problem document, as the OpenAPI document describes it. */
export const ProblemSchema = z
  .object({
    type: z.string().max(200).describe("A URI naming the kind of problem."),
    title: z.string().max(200).describe("A short, fixed summary of the kind of problem."),
    status: z.int().min(400).max(599).describe("The HTTP status code."),
    detail: z.string().max(2000).describe("What went wrong in this request, and what to do about it."),
    field: z.string().max(200).nullable().describe("The request field at fault (dotted path), or null when the request as a whole is wrong."),
    limit: z.string().max(50).optional().describe("The plan limit reached (402 only): projects, music or upload."),
    instance: z.string().max(500).optional(),
  })
  .meta({ id: "Problem" });
export type Problem = z.infer<typeof ProblemSchema>;

export function problemTitle(status: number): string {
  return TITLES[status] ?? (status >= 500 ? "Server error" : "Request error");
}

export function problemType(status: number): string {
  return PROBLEM_TYPE_BASE + (SLUGS[status] ?? `http-${status}`);
}

export function problemBody(status: number, detail: string, extra: { field?: string | null; limit?: string; instance?: string } = {}): Problem {
  return {
    type: problemType(status),
    title: problemTitle(status),
    status,
    detail: detail.slice(0, 2000),
    field: extra.field ?? null,
    ...(extra.limit ? { limit: extra.limit } : {}),
    ...(extra.instance ? { instance: extra.instance } : {}),
  };
}

/** A problem+json response. */
export function problem(status: number, detail: string, extra: { field?: string | null; limit?: string; headers?: Record<string, string> } = {}): Response {
  const { headers, ...rest } = extra;
  return new Response(JSON.stringify(problemBody(status, detail, rest)), {
    status,
    headers: { "Content-Type": PROBLEM_CONTENT_TYPE, "Cache-Control": "no-store", ...headers },
  });
}

/**
 * Any thrown value as a problem response: a problem already, a `{ message, field }` JSON error of the shared
 * service functions (status and words kept), a redirect or other response (kept), or an unexpected error (500,
 * its message not shown).
 */
export async function toProblem(thrown: unknown): Promise<Response> {
  if (isRefusal(thrown)) {
    const limit = thrown.extra.limit;
    return problem(thrown.status, thrown.message, { field: thrown.field, limit: typeof limit === "string" ? limit : undefined });
  }
  if (thrown instanceof Response) {
    if (thrown.headers.get("Content-Type")?.startsWith(PROBLEM_CONTENT_TYPE)) return thrown;
    if (thrown.status < 400) return thrown;
    let body: unknown = null;
    try {
      body = await thrown.clone().json();
    } catch {
      body = null;
    }
    const b = (body ?? {}) as { message?: unknown; field?: unknown; limit?: unknown };
    const headers: Record<string, string> = {};
    for (const name of ["Retry-After", "Allow"]) {
      const value = thrown.headers.get(name);
      if (value) headers[name] = value;
    }
    return problem(thrown.status, typeof b.message === "string" ? b.message : problemTitle(thrown.status), {
      field: typeof b.field === "string" ? b.field : null,
      limit: typeof b.limit === "string" ? b.limit : undefined,
      headers,
    });
  }
  console.error("[api/v1] unexpected error", thrown);
  return problem(500, "Something went wrong on the server. Try again; if it keeps failing, the server's log names the cause.");
}
