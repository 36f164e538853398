import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { jsonError, methodNotAllowed, parseJsonBody } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { logError } from "~/server/error-log.server";
import { listModelServerModels } from "~/server/providers.server";
import { openaiBaseUrlInput } from "~/server/settings.server";

// POST /api/openai-compatible/models: Test Connection on the model server card. Asks the server typed (or the saved
// one) for its models; the answer is the list, or the server's own error.
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
    // the server's own words, logged for the error list like every provider failure (keys scrubbed on the way)
    const entry = await logError({ userId, type: "model_list", message: `Could not reach the model server: ${(e as Error)?.message ?? String(e)}` });
    return jsonError(502, entry.message);
  }
}
