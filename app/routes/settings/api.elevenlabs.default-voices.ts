import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUserId } from "~/server/auth.server";
import { providerFailure } from "~/core/error-log.server";
import { userProviders } from "~/server/providers.server";

// GET /api/elevenlabs/default-voices: the names of the ready-made voices (the offline ones without a key).
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  const { speech } = await userProviders(userId);
  try {
    const voices = await speech.listVoices("premade");
    return Response.json({ voices: voices.map((v) => v.name), source: speech.source }, { headers: { "Cache-Control": "no-store" } });
  } catch (e) {
    return providerFailure({ userId, error: e, type: "voice_list", what: "load the default voices", keyName: "ElevenLabs API key" });
  }
}
