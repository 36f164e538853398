// The offline voices: Flite's English voices and eSpeak NG's voices in many languages, behind one provider.
// A voice id picks the synthesiser ("espeak:fr" -> eSpeak NG, "rms" -> Flite); with none, the language does
// (English -> Flite's rms, anything else -> eSpeak NG in that language).
import { primaryLanguage } from "~/lib/languages";
import { isEspeakVoice } from "~/lib/voices";
import type { SpeechProvider } from "../types";
import { createEspeakSpeechProvider } from "./espeak.server";
import { createFliteSpeechProvider, isFliteVoice } from "./flite.server";

export function createOfflineSpeechProvider(): SpeechProvider {
  const flite = createFliteSpeechProvider();
  const espeak = createEspeakSpeechProvider();
  return {
    name: "Offline voices (Flite, eSpeak NG)",
    source: "offline",
    async listVoices(category) {
      return [...(await flite.listVoices(category)), ...(await espeak.listVoices(category))];
    },
    async synthesize(request) {
      if (isEspeakVoice(request.voiceId)) return espeak.synthesize(request);
      if (isFliteVoice(request.voiceId)) return flite.synthesize(request);
      const english = !request.language || primaryLanguage(request.language) === "en";
      return english ? flite.synthesize({ ...request, voiceId: undefined }) : espeak.synthesize({ ...request, voiceId: undefined });
    },
  };
}
