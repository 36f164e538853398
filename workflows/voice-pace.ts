// One voice's pace, measured on the worker (issue 33). Short: a first measurement synthesises a few sentences; later
// ones are read from the worker's cache.
import { proxyActivities } from "@temporalio/workflow";
import type { VoicePaceActivities } from "./activities/voice-pace";
import type { VoicePace, VoicePaceInput } from "./shared/voice-pace";

const { measureVoicePace } = proxyActivities<VoicePaceActivities>({
  startToCloseTimeout: "2 minutes",
  retry: { maximumAttempts: 2, initialInterval: "1 second" },
});

export async function voicePaceWorkflow(input: VoicePaceInput): Promise<VoicePace> {
  return measureVoicePace(input);
}
