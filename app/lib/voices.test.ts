import { describe, expect, it } from "vitest";
import type { Voice } from "~/providers/types";
import { FLITE_VOICES } from "~/providers/speech/flite.server";
import { LANGUAGES } from "./languages";
import { LANGUAGE_NAME_ORDER, MULTILINGUAL_HEADING, defaultVoiceFor, espeakVoices, groupVoicesByLanguage, neuralVoiceFor, parseEspeakVoice, speaksLanguage } from "./voices";

const offline: Voice[] = [...FLITE_VOICES, ...espeakVoices()];

describe("voices by language", () => {
  it("offers two eSpeak NG voices per language, whose ids carry the language", () => {
    const fr = espeakVoices().filter((v) => v.language === "fr");
    expect(fr.map((v) => v.id)).toEqual(["espeak:fr", "espeak:fr+f3"]);
    expect(fr.map((v) => v.gender)).toEqual(["male", "female"]);
    expect(parseEspeakVoice("espeak:pt-BR+f3")).toMatchObject({ language: { code: "pt-BR", espeak: "pt-br" }, variant: "+f3" });
    expect(parseEspeakVoice("espeak:xx")).toBeNull();
    expect(parseEspeakVoice("espeak:fr;rm -rf")).toBeNull();
  });

  it("groups the list by language: multilingual voices first, then the project's language, then English, then A-Z", () => {
    const cloud: Voice = { id: "george", name: "George", category: "premade" };
    const groups = groupVoicesByLanguage([...offline, cloud, cloud], "fr");
    expect(groups.slice(0, 4).map((g) => g.heading)).toEqual([MULTILINGUAL_HEADING, "French (Français)", "English", "Arabic (العربية)"]);
    expect(groups[0]!.voices).toEqual([cloud]);
    // English is Flite's
    expect(groups[2]!.voices.map((v) => v.id)).toEqual(["rms", "slt", "awb", "kal16", "kal"]);
    const headings = groups.slice(3).map((g) => g.heading);
    expect(headings).toEqual([...headings].sort((a, b) => a.localeCompare(b, "en")));
    // every voice appears exactly once
    expect(groups.flatMap((g) => g.voices).length).toBe(offline.length + 1);
  });

  it("orders the languages by English name as localeCompare does, without making a collator", () => {
    const byCollator = [...LANGUAGES].sort((a, b) => a.name.localeCompare(b.name, "en")).map((l) => l.code);
    const byOrder = [...LANGUAGES].sort((a, b) => LANGUAGE_NAME_ORDER.get(a.code)! - LANGUAGE_NAME_ORDER.get(b.code)!).map((l) => l.code);
    expect(byOrder).toEqual(byCollator);
  });

  it("picks a voice that speaks the project's language", () => {
    expect(defaultVoiceFor("en", offline)).toBe("rms");
    expect(defaultVoiceFor("fr", offline)).toBe("espeak:fr");
    expect(defaultVoiceFor("pt-BR", offline)).toBe("espeak:pt-BR");
    // the creator's saved English voice is kept for English, not for French
    expect(defaultVoiceFor("en", offline, [null, "slt"])).toBe("slt");
    expect(defaultVoiceFor("fr", offline, [null, "slt"])).toBe("espeak:fr");
    // the project's own choice wins when it speaks the language
    expect(defaultVoiceFor("fr", offline, ["espeak:fr+f3", "slt"])).toBe("espeak:fr+f3");
    // multilingual voices speak anything
    expect(speaksLanguage({ language: undefined }, "ja")).toBe(true);
    expect(defaultVoiceFor("de", [{ id: "george", name: "George", category: "premade" }], ["george"])).toBe("george");
  });

  it("makes an installed neural voice its language's offline default, the creator's own choice still first (decision 205)", () => {
    const joe: Voice = { id: "piper:en_US-joe-medium", name: "Joe, medium (neural, offline)", category: "premade", language: "en", neural: true, licence: "CC0" };
    const withNeural = [joe, ...offline];
    expect(neuralVoiceFor("en-GB", withNeural)).toBe(joe);
    expect(neuralVoiceFor("fr", withNeural)).toBeUndefined();
    expect(defaultVoiceFor("en", withNeural)).toBe(joe.id);
    expect(defaultVoiceFor("fr", withNeural)).toBe("espeak:fr");
    expect(defaultVoiceFor("en", withNeural, [null, "slt"])).toBe("slt");
    // a chosen neural voice that is no longer installed gives the language's default
    expect(defaultVoiceFor("en", offline, ["piper:en_US-joe-medium"])).toBe("rms");
  });
});
