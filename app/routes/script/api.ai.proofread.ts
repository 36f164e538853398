import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { LanguageSchema } from "~/lib/languages";
import { MAX_JSON_BYTES, jsonError, methodNotAllowed, readBodyCapped } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { providerFailure } from "~/core/error-log.server";
import { proofreadSuggestion } from "~/server/script.server";
import { isRefusal } from "~/core/refusal.server";

const Body = z.object({
  text: z.unknown(),
  title: z.string().trim().max(200, "title: at most 200 characters").default(""),
  language: LanguageSchema.default("en"),
});

// POST /api/ai/proofread: { text, title?, language? } -> { text, changed, by, breaksKept } (issue 33). A proofread
// copy of the creator's script, offered, never saved. The same checks as saving the script (400/413), and at most
// PROOFREAD_MAX_WORDS words (413). Rate-limited with the generation calls (its path is under /api/ai/).
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"], "Use POST to ask for a proofread copy.");
  const userId = await requireUserId(request);
  // parsed here rather than with parseJsonBody: that drops NUL characters, and a NUL is how a binary file shows
  const raw = (await readBodyCapped(request, MAX_JSON_BYTES, "text")).toString("utf8");
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return jsonError(400, "The request body must be JSON: { \"text\": \"...\" }.", { field: null });
  }
  const body = Body.safeParse(json);
  if (!body.success) {
    const issue = body.error.issues[0]!;
    return jsonError(400, issue.message, { field: issue.path.join(".") || null });
  }
  try {
    const suggestion = await proofreadSuggestion(userId, { text: body.data.text, title: body.data.title || "Untitled video", language: body.data.language });
    return Response.json(suggestion, { headers: { "Cache-Control": "no-store" } });
  } catch (e) {
    if (e instanceof Response || isRefusal(e)) throw e;
    return providerFailure({ userId, error: e, type: "proofread", what: "proofread the script", keyName: "text model (OpenAI-compatible server or Gemini key)" });
  }
}
