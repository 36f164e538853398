// One offline voice's sample (issue 48), made on the worker: a sentence of a few seconds, read once per voice.
import { proxyActivities } from "@temporalio/workflow";
import type { VoiceSampleActivities } from "./activities/voice-sample";
import type { VoiceSample, VoiceSampleInput } from "./shared/voice-sample";

const { makeVoiceSample } = proxyActivities<VoiceSampleActivities>({
  startToCloseTimeout: "2 minutes",
  retry: { maximumAttempts: 2, initialInterval: "1 second", nonRetryableErrorTypes: ["VoiceSampleUnknownVoice"] },
});

export async function voiceSampleWorkflow(input: VoiceSampleInput): Promise<VoiceSample> {
  return makeVoiceSample(input);
}
