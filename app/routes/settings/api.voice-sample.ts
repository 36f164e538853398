import type { LoaderFunctionArgs } from "@remix-run/node";
import { hasVoiceSample } from "~/lib/voice-samples";
import { VoiceIdSchema } from "~/lib/project-voice";
import { jsonError } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { serveVoiceSample, VOICE_SAMPLE_NOT_FOUND } from "~/server/voice-samples.server";

// GET/HEAD /api/voice-sample?voiceId=<id> (issue 48): a few seconds of an offline voice reading its language's fixed
// sentence, as audio/wav, for the voice pickers' "Play sample". Signed-in creators only; made once per voice on the
// worker, then served from media storage.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserId(request);
  const parsed = VoiceIdSchema.safeParse(new URL(request.url).searchParams.get("voiceId") ?? "");
  if (!parsed.success || !parsed.data) return jsonError(400, "voiceId: choose a voice from the voice list.", { field: "voiceId" });
  if (!hasVoiceSample(parsed.data)) return jsonError(404, VOICE_SAMPLE_NOT_FOUND);
  return serveVoiceSample(request, parsed.data);
}
