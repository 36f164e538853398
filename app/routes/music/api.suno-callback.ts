import type { ActionFunctionArgs } from "@remix-run/node";
import { jsonError, methodNotAllowed, readBodyCapped } from "~/server/api.server";
import { receiveSunoCallback } from "~/server/music.server";
import { isRefusal } from "~/core/refusal.server";

const MAX_BODY_BYTES = 256 * 1024;

// POST /api/suno-callback: sunoapi.org reports a task's progress here (public: Suno has no session). The body
// is not trusted; it only wakes the run waiting on that task, which asks Suno itself with the creator's key.
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"], "Use POST");
  // read as a stream with the cap: a chunked body has no Content-Length to check
  const text = (await readBodyCapped(request, MAX_BODY_BYTES)).toString("utf8");
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return jsonError(400, "The callback body must be JSON", { field: null });
  }
  try {
    const known = await receiveSunoCallback(body);
    if (!known) return jsonError(404, "No music generation waits for this task");
  } catch (e) {
    if (e instanceof Response || isRefusal(e)) throw e;
    return jsonError(400, (e as Error).message, { field: "data" });
  }
  return Response.json({ code: 200, msg: "received" });
}
