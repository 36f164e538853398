// When the page's reads fail because the server (or the worker and Temporal behind it) cannot answer, the
// pipeline pages say so instead of falling back to states they can no longer know ("Ready", "complete").
// A read failed that way when fetch itself threw (no connection) or the server answered 5xx (502/503/504 from
// a proxy, 500 from a route whose Temporal call failed). 4xx answers are the server speaking: not this.
import { ApiError } from "./api-client";

/** How often a page re-reads while the server cannot be reached (well inside the 10 s it has to say so). */
export const UNREACHABLE_RETRY_MS = 3000;

export function isUnreachableError(error: unknown): boolean {
  if (error instanceof ApiError) return error.status >= 500;
  // fetch rejects with a TypeError ("Failed to fetch", "NetworkError when attempting to fetch resource")
  if (error instanceof TypeError) return true;
  // a 5xx proxy page instead of JSON makes response.json() throw a SyntaxError
  return error instanceof SyntaxError;
}

/** The part of a TanStack query result this needs: its status now and why its last read failed. */
export type ReadState = { status: "pending" | "error" | "success"; error: unknown };

/** True while any of the page's reads last failed because the server could not answer. */
export function serverUnreachable(reads: ReadState[]): boolean {
  return reads.some((r) => r.status === "error" && isUnreachableError(r.error));
}

/**
 * A polling interval that keeps polling while the last read failed, so the page notices by itself when the
 * server is back. `normal` is the interval otherwise (false: none).
 */
export function pollWhileUnreachable(normal: number | false, state: { status: string }): number | false {
  return state.status === "error" ? UNREACHABLE_RETRY_MS : normal;
}
