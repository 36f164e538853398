// The offline voices: the neural (Piper) voices installed in the voices folders, Flite's English voices and eSpeak
// NG's voices in many languages, behind one provider. A voice id picks the synthesiser ("piper:en_US-joe-medium" ->
// Piper, "espeak:fr" -> eSpeak NG, "rms" -> Flite); with none, the language does: its neural voice when one is
// installed, else English -> Flite's rms, anything else -> eSpeak NG in that language (decision 205). A chosen
// neural voice whose files are gone is spoken by the language's eSpeak NG voice, labelled as such, with a notice.
import { primaryLanguage } from "~/lib/languages";
import { espeakVoiceId, isEspeakVoice, isPiperVoice, neuralVoiceFor } from "~/lib/voices";
import type { SpeechProvider } from "../types";
import { createEspeakSpeechProvider, ESPEAK_PROVIDER } from "./espeak.server";
import { createFliteSpeechProvider, isFliteVoice } from "./flite.server";
import { PiperVoiceMissingError, synthesizeWithPiper } from "./piper.server";
import { installedPiperVoices, piperVoiceListing, refreshStoredVoices } from "./piper-voices.server";

export function createOfflineSpeechProvider(): SpeechProvider {
  const flite = createFliteSpeechProvider();
  const espeak = createEspeakSpeechProvider();
  const neuralVoices = () => installedPiperVoices().map(piperVoiceListing);
  return {
    name: "Offline voices (Piper, Flite, eSpeak NG)",
    source: "offline",
    async listVoices(category) {
      // the voices the owner uploaded, brought onto this machine on first use (decision 210)
      await refreshStoredVoices();
      const neural = category && category !== "premade" ? [] : neuralVoices();
      return [...neural, ...(await flite.listVoices(category)), ...(await espeak.listVoices(category))];
    },
    async synthesize(request) {
      await refreshStoredVoices();
      if (isPiperVoice(request.voiceId)) {
        try {
          return await synthesizeWithPiper({ ...request, voiceId: request.voiceId });
        } catch (e) {
          if (!(e instanceof PiperVoiceMissingError)) throw e;
          const language = request.language ?? request.voiceId.slice("piper:".length).split(/[_-]/)[0] ?? "en";
          const stand = await espeak.synthesize({ ...request, voiceId: espeakVoiceId(language) });
          return { ...stand, provider: `${ESPEAK_PROVIDER} (the neural voice ${request.voiceId.slice("piper:".length)} is not installed)`, notice: e.message };
        }
      }
      if (isEspeakVoice(request.voiceId)) return espeak.synthesize(request);
      if (isFliteVoice(request.voiceId)) return flite.synthesize(request);
      const language = request.language ?? "en";
      const neural = neuralVoiceFor(language, neuralVoices());
      if (neural) return synthesizeWithPiper({ ...request, voiceId: neural.id });
      return primaryLanguage(language) === "en" ? flite.synthesize({ ...request, voiceId: undefined }) : espeak.synthesize({ ...request, voiceId: undefined });
    },
  };
}
