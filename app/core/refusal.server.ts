// A refusal (decision 212): what the core answers when it will not do what it was asked, in words a person can act
// on: the status (as HTTP would say it), the message, and the field at fault. The core throws it and knows no door;
// each door says it in its own shape: the pages and /api as `{ message, field }` JSON (app/server/api.server.ts,
// through every loader and action's wrapper), /api/v1 as an RFC 9457 problem and MCP as a tool error
// (app/server/problem.server.ts), an activity as a non-retryable Temporal failure with the same words
// (workflows/worker-refusals.ts).

/** Marks a refusal across module copies (Vite's dev server loads the core a second time beside server.ts's copy). */
const REFUSAL = Symbol.for("reelsmith.refusal");

export class Refusal extends Error {
  readonly [REFUSAL] = true;
  /** The HTTP status the web doors answer with (400 bad input, 402 plan, 404 not found, 409 state, 413 size...). */
  readonly status: number;
  /** The input field at fault, or null. */
  readonly field: string | null;
  /** What else a door shows beside the message (`limit`, `needsConnection`...), field included. */
  readonly extra: Record<string, unknown>;

  constructor(status: number, message: string, extra: Record<string, unknown> = {}) {
    super(message);
    this.name = "Refusal";
    this.status = status;
    this.field = typeof extra.field === "string" ? extra.field : null;
    this.extra = extra;
  }
}

/** A refusal to throw: `throw refusal(402, "1080p is a Premium feature...", { field: "quality" })`. */
export function refusal(status: number, message: string, extra?: Record<string, unknown>): Refusal {
  return new Refusal(status, message, extra);
}

/** Whether `e` is a refusal (from this copy of the module or another). */
export function isRefusal(e: unknown): e is Refusal {
  return typeof e === "object" && e !== null && (e as { [REFUSAL]?: unknown })[REFUSAL] === true;
}
