// The voice sample's contract (issue 48): the voice picker's "Play sample" of an offline voice, read on the worker
// (which runs the voices) and kept in media storage once per voice
// (app/server/voice-samples.server.ts -> workflows/voice-sample.ts -> workflows/activities/voice-sample.ts).
import { voiceSampleKey } from "~/lib/voice-samples";

/** One run per voice at a time: a second play while the first sample is being made waits for the same run. */
export const voiceSampleWorkflowId = (voiceId: string) => `voice-sample-${voiceSampleKey(voiceId).slice("voice-samples/".length).replace(/[/.]/g, "-")}`;

export type VoiceSampleInput = { voiceId: string };
/** The stored WAV: its storage key, size and length. */
export type VoiceSample = { storageKey: string; bytes: number; durationSeconds: number | null };

/** The failure type when the voice is not an offline voice installed on the worker (the web answers 404). */
export const VOICE_SAMPLE_UNKNOWN_VOICE = "VoiceSampleUnknownVoice";
