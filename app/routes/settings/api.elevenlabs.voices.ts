import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { jsonError } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { providerFailure } from "~/core/error-log.server";
import { userProviders } from "~/server/providers.server";

const Query = z.object({ category: z.enum(["premade", "cloned", "generated", "professional"]).optional() });

// GET /api/elevenlabs/voices?category=: the voice service's voices, or the offline voices when no key is saved.
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const query = Query.safeParse({ category: params.category || undefined });
  if (!query.success) return jsonError(400, "category must be premade, cloned, generated or professional.", { field: "category" });
  const { speech } = await userProviders(userId);
  try {
    const voices = await speech.listVoices(query.data.category);
    return Response.json({ voices, source: speech.source, provider: speech.name }, { headers: { "Cache-Control": "no-store" } });
  } catch (e) {
    return providerFailure({ userId, error: e, type: "voice_list", what: "load voices", keyName: "ElevenLabs API key" });
  }
}
