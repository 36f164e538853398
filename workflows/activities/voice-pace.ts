// Measures a voice's pace where the voices run (issue 33): the same speakingRateOf figure the narration fit plans
// with, measured once per offline voice and cached by the worker, typical for cloud voices.
import { getUserSettings } from "~/core/settings.server";
import { speakingRateOf } from "~/providers/speech/speaking-rate.server";
import type { VoicePace, VoicePaceInput } from "../shared/voice-pace";
import { providersForUser } from "./providers";
import { voiceForProject } from "./storyboard";

export async function measureVoicePace(input: VoicePaceInput): Promise<VoicePace> {
  const [{ speech }, settings] = await Promise.all([providersForUser(input.userId), getUserSettings(input.userId)]);
  const voiceId = await voiceForProject(speech, { language: input.language, voiceId: input.voiceId }, settings.elevenLabsVoiceId);
  const rate = await speakingRateOf(speech, voiceId);
  return { wordsPerSecond: rate.wordsPerSecond, measured: rate.measured };
}

export type VoicePaceActivities = { measureVoicePace: typeof measureVoicePace };
