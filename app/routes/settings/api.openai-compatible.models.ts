import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { jsonError, methodNotAllowed, parseJsonBody } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { logError } from "~/core/error-log.server";
import { listModelServerModels, modelServerTestFailure } from "~/server/providers.server";
import { openaiBaseUrlInput } from "~/core/settings.server";

// POST /api/openai-compatible/models: Test Connection on the model server card. Asks the server typed (or the saved
// one) for its models; the answer is the list, or why not in Reelsmith's own words (never the server's body): a
// private address is refused unless the owner or the operator allows it (decision 196).
const Body = z.object({
  baseUrl: openaiBaseUrlInput.optional(),
  apiKey: z.string().trim().max(1000, "The API key is too long (at most 1000 characters).").optional(),
});

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const userId = await requireUserId(request);
  const body = await parseJsonBody(request, Body, { maxBytes: 8 * 1024 });
  try {
    const { baseUrl, models } = await listModelServerModels(userId, { baseUrl: body.baseUrl || undefined, apiKey: body.apiKey || undefined });
    return Response.json({ baseUrl, models }, { headers: { "Cache-Control": "no-store" } });
  } catch (e) {
    if (e instanceof TypeError) return jsonError(400, e.message, { field: "baseUrl" });
    // our words, logged for the error list like every provider failure
    const failure = modelServerTestFailure(e, body.baseUrl || undefined);
    const entry = await logError({ userId, type: "model_list", message: failure.message });
    return jsonError(failure.status, entry.message, { field: failure.field });
  }
}
