import { describe, expect, it } from "vitest";
import { LANGUAGES } from "./languages";
import { hasVoiceSample, sampleSentence, voiceSampleKey, voiceSampleUrl } from "./voice-samples";

describe("voice samples", () => {
  it("has a sentence of its own for every language the app offers", () => {
    const english = sampleSentence("en");
    for (const language of LANGUAGES) {
      const sentence = sampleSentence(language.code);
      expect(sentence.length).toBeGreaterThan(10);
      if (language.code !== "en") expect(sentence, language.code).not.toBe(english);
    }
    expect(sampleSentence("pt-BR")).toBe(sampleSentence("pt"));
  });

  it("offers a sample of the offline voices only", () => {
    expect(hasVoiceSample("piper:en_US-joe-medium")).toBe(true);
    expect(hasVoiceSample("espeak:fr+f3")).toBe(true);
    expect(hasVoiceSample("rms")).toBe(true);
    expect(hasVoiceSample("kal16")).toBe(true);
    expect(hasVoiceSample("21m00Tcm4TlvDq8ikWAM")).toBe(false);
    expect(hasVoiceSample("")).toBe(false);
    expect(hasVoiceSample(null)).toBe(false);
  });

  it("keeps one sample per voice under a key of its own", () => {
    expect(voiceSampleKey("piper:en_US-joe-medium")).toBe("voice-samples/piper/en_US-joe-medium.wav");
    expect(voiceSampleKey("espeak:fr+f3")).toBe("voice-samples/espeak/fr_f3.wav");
    expect(voiceSampleKey("espeak:fr")).toBe("voice-samples/espeak/fr.wav");
    expect(voiceSampleKey("slt")).toBe("voice-samples/flite/slt.wav");
    expect(() => voiceSampleKey("piper:../../etc")).toThrow();
    expect(voiceSampleUrl("espeak:fr+f3")).toBe("/api/voice-sample?voiceId=espeak%3Afr%2Bf3");
  });
});
