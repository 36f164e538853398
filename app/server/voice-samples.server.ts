// The voice picker's "Play sample" (issue 48): an offline voice's sample WAV, made once per voice on the worker (the
// web process runs no voices: workflows/voice-sample.ts) and kept in media storage under the voice's key; every later
// play, by any creator, streams the stored file. Cloud voices have no sample here (each would be a paid request).
import { WorkflowFailedError } from "@temporalio/client";
import { voiceSampleKey } from "~/lib/voice-samples";
import type { voiceSampleWorkflow } from "../../workflows/voice-sample";
import { VOICE_SAMPLE_UNKNOWN_VOICE, voiceSampleWorkflowId } from "../../workflows/shared/voice-sample";
import { rangedAnswer } from "./media-response.server";
import { mediaBackend, StorageNotFoundError } from "~/core/storage.server";
import { getTemporalClient, startWorkflow, WorkflowAlreadyRunningError } from "./temporal.server";
import { refusal } from "~/core/refusal.server";

export const VOICE_SAMPLE_NOT_FOUND = "This voice has no sample: it is not one of the offline voices installed here.";

/** The stored sample's key, made first when no sample of the voice is stored yet. */
async function ensureVoiceSample(voiceId: string): Promise<string> {
  const key = voiceSampleKey(voiceId);
  if (await mediaBackend().stat(key)) return key;
  const workflowId = voiceSampleWorkflowId(voiceId);
  try {
    const handle = await startWorkflow<typeof voiceSampleWorkflow>("voiceSampleWorkflow", {
      workflowId,
      args: [{ voiceId }],
      memo: { startedBy: "the voice picker's sample" },
      executionTimeout: "3 minutes",
    }).catch(async (e: unknown) => {
      // another play of the same voice started it a moment ago: wait for that run
      if (e instanceof WorkflowAlreadyRunningError) return (await getTemporalClient()).workflow.getHandle<typeof voiceSampleWorkflow>(workflowId);
      throw e;
    });
    return (await handle.result()).storageKey;
  } catch (e) {
    if (e instanceof WorkflowFailedError) {
      let cause: unknown = e.cause;
      while (cause && typeof cause === "object" && "cause" in cause && (cause as { type?: string }).type !== VOICE_SAMPLE_UNKNOWN_VOICE) cause = (cause as { cause?: unknown }).cause;
      if ((cause as { type?: string } | undefined)?.type === VOICE_SAMPLE_UNKNOWN_VOICE) throw refusal(404, VOICE_SAMPLE_NOT_FOUND);
      throw refusal(502, `The voice sample could not be made: ${(e.cause as Error | undefined)?.message ?? e.message}`);
    }
    throw e;
  }
}

/** GET /api/voice-sample?voiceId=: the sample as audio/wav, with Range (an <audio> element seeks and probes with it). */
export async function serveVoiceSample(request: Request, voiceId: string): Promise<Response> {
  const key = await ensureVoiceSample(voiceId);
  const info = await mediaBackend().stat(key);
  if (!info) throw refusal(404, VOICE_SAMPLE_NOT_FOUND);
  const size = info.bytes;
  const headers = new Headers({
    "Content-Type": "audio/wav",
    "Accept-Ranges": "bytes",
    "Cache-Control": "private, max-age=3600",
    ETag: `"${info.version.replace(/"/g, "")}"`,
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "sandbox; default-src 'none'; media-src 'self'",
  });
  return rangedAnswer(request, headers, size, (range) =>
    mediaBackend()
      .openRead(key, range)
      .catch((e: unknown) => {
        throw e instanceof StorageNotFoundError ? refusal(404, VOICE_SAMPLE_NOT_FOUND) : e;
      }),
  );
}

/** Forgets a voice's sample (its voice file was replaced): the next play makes it again. */
export async function discardVoiceSample(voiceId: string): Promise<void> {
  await mediaBackend().delete(voiceSampleKey(voiceId));
}
