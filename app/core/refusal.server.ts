// A refusal: what the core answers when it will not do what it was asked (status, message, the field at fault).
/** A JSON error response: `{ message, ...extra }` with the given status. */
export function jsonError(status: number, message: string, extra?: Record<string, unknown>): Response {
  return Response.json({ message, ...extra }, { status, headers: { "Cache-Control": "no-store" } });
}
