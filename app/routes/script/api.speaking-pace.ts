import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { LanguageSchema } from "~/lib/languages";
import { VoiceIdSchema } from "~/lib/project-voice";
import { jsonError } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { speakingPace } from "~/server/voices.server";

const Query = z.object({ language: LanguageSchema, voiceId: VoiceIdSchema.optional().transform((id) => id ?? null) });

// GET /api/speaking-pace?language=&voiceId= -> { wordsPerSecond, measured } (issue 33): how fast the voice reads, at
// speed 1, for the own script's length estimate. voiceId empty: the language's default voice.
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const query = Query.safeParse({ language: params.language ?? "", voiceId: params.voiceId ?? "" });
  if (!query.success) {
    const issue = query.error.issues[0]!;
    const field = String(issue.path[0] ?? "language");
    return jsonError(400, `${field}: ${issue.message}`, { field });
  }
  return Response.json(await speakingPace(userId, query.data), { headers: { "Cache-Control": "private, max-age=300" } });
}
