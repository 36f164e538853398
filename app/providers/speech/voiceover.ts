// A scene's voiceover as the timeline wants it: the synthesiser's own leading and trailing silence (0.07 to 0.29 s
// at each end with Flite, different for every voice) cut to VOICE_EDGE_SECONDS, so the pause at every cut between
// scenes is the timeline's SCENE_PAD_SECONDS plus the same two short edges. MP3 (cloud voices) is kept as it is.
import { VOICE_EDGE_SECONDS } from "~/lib/narration";
import type { SpeechResult } from "../types";
import { readWavInfo, trimWavSilence } from "../wav";

export function trimVoiceover(result: SpeechResult): SpeechResult {
  if (result.mimeType !== "audio/wav") return result;
  const audio = trimWavSilence(result.audio, VOICE_EDGE_SECONDS);
  return { ...result, audio, durationSeconds: readWavInfo(audio).durationSeconds };
}
