// A scene's voiceover as the timeline wants it: the synthesiser's own leading and trailing silence (0.07 to 0.29 s
// at each end with Flite, different for every voice) cut to VOICE_EDGE_SECONDS, so the pause at every cut between
// scenes is the timeline's SCENE_PAD_SECONDS plus the same two short edges. MP3 (cloud voices) is kept as it is.
// Word timings the synthesiser gave (Flite's phones) move with the cut.
import { VOICE_EDGE_SECONDS } from "~/lib/narration";
import type { SpeechResult } from "../types";
import { readWavInfo, trimWavSilenceAt } from "../wav";
import { shiftWordTimings } from "~/lib/timeline/word-timings";

export function trimVoiceover(result: SpeechResult): SpeechResult {
  if (result.mimeType !== "audio/wav") return result;
  const { wav: audio, cutSeconds } = trimWavSilenceAt(result.audio, VOICE_EDGE_SECONDS);
  const durationSeconds = readWavInfo(audio).durationSeconds;
  const words = result.words ? shiftWordTimings(result.words, cutSeconds, durationSeconds) : undefined;
  return { ...result, audio, durationSeconds, ...(words ? { words } : {}) };
}
