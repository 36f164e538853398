import type { ActionFunctionArgs } from "@remix-run/node";
import { jsonError, MAX_JSON_BYTES, methodNotAllowed, readBodyCapped } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { getProjectForUser } from "~/core/projects.server";
import { saveOwnScript } from "~/server/script.server";

// PUT /api/projects/{id}/script: { text } -> { wordCount, scenes } (issue 33). The creator's own words become the
// project's script, unchanged; scenes whose words did not change keep their media. Empty or binary text: 400;
// over OWN_SCRIPT_MAX_CHARS (app/lib/own-script.ts) or a body over 1 MB: 413; another user's project: 404.
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "PUT") return methodNotAllowed(["PUT"], "Use PUT to save the script.");
  const userId = await requireUserId(request);
  // the owner before the body: another creator's id is a 404 whatever was sent (decision 198)
  await getProjectForUser(userId, params.id!);
  // parsed here rather than with parseJsonBody: that drops NUL characters, and a NUL is how a binary file shows
  const raw = (await readBodyCapped(request, MAX_JSON_BYTES, "text")).toString("utf8");
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return jsonError(400, "The request body must be JSON: { \"text\": \"...\" }.", { field: null });
  }
  const text = body && typeof body === "object" && !Array.isArray(body) ? (body as { text?: unknown }).text : undefined;
  const saved = await saveOwnScript({ userId, projectId: params.id!, text });
  return Response.json(saved, { headers: { "Cache-Control": "no-store" } });
}
