// The pages' and /api's answer in words (decision 212): `{ message, ...extra }` JSON with a status, and a refusal
// of the core said the same way. Imports nothing but the refusal, so every door (and a test calling a route
// directly, as the server would) can say it alike.
import { isRefusal, type Refusal } from "~/core/refusal.server";

/** A JSON error response: `{ message, ...extra }` with the given status. */
export function jsonError(status: number, message: string, extra?: Record<string, unknown>): Response {
  return Response.json({ message, ...extra }, { status, headers: { "Cache-Control": "no-store" } });
}

/** A refusal of the core as the pages and /api say it: `{ message, field, ... }` JSON with its status. */
export function refusalResponse(refused: Refusal): Response {
  return jsonError(refused.status, refused.message, refused.extra);
}

/** What a thrown value answers when it is an answer: a Response as it is, a refusal as JSON; anything else null. */
export function thrownResponse(thrown: unknown): Response | null {
  if (thrown instanceof Response) return thrown;
  if (isRefusal(thrown)) return refusalResponse(thrown);
  return null;
}
