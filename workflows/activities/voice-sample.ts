// Reads an offline voice's sample where the voices run (issue 48): the language's fixed sentence
// (app/lib/voice-samples.ts) by the chosen voice, stored once under the voice's key; a sample already stored is
// returned as it is. Offline voices only: a cloud voice's sample would be a paid request.
import { ApplicationFailure } from "@temporalio/activity";
import { sampleSentence, voiceSampleKey } from "~/lib/voice-samples";
import { mediaBackend } from "~/core/storage.server";
import { createOfflineSpeechProvider } from "~/providers/speech/offline.server";
// the owner's uploaded voices have samples too (decision 210)
import "~/core/stored-voices.server";
import { VOICE_SAMPLE_UNKNOWN_VOICE, type VoiceSample, type VoiceSampleInput } from "../shared/voice-sample";

export async function makeVoiceSample(input: VoiceSampleInput): Promise<VoiceSample> {
  const storageKey = voiceSampleKey(input.voiceId);
  const backend = mediaBackend();
  const stored = await backend.stat(storageKey);
  if (stored) return { storageKey, bytes: stored.bytes, durationSeconds: null };
  const speech = createOfflineSpeechProvider();
  const voice = (await speech.listVoices()).find((v) => v.id === input.voiceId);
  if (!voice) {
    throw ApplicationFailure.create({ message: `The voice ${input.voiceId} is not an offline voice installed on this worker.`, type: VOICE_SAMPLE_UNKNOWN_VOICE, nonRetryable: true });
  }
  const spoken = await speech.synthesize({ text: sampleSentence(voice.language), voiceId: voice.id, language: voice.language });
  const written = await backend.put(storageKey, spoken.audio, { contentType: spoken.mimeType });
  return { storageKey, bytes: written.bytes, durationSeconds: spoken.durationSeconds };
}

export type VoiceSampleActivities = { makeVoiceSample: typeof makeVoiceSample };
