import { describe, expect, it } from "vitest";
import { offlineWriterNote } from "./languages";
import { ProjectVoiceSchema, ProjectVoiceUpdateSchema } from "./project-voice";

describe("a project's narration settings", () => {
  it("defaults to English, the language's default voice and 1x", () => {
    expect(ProjectVoiceSchema.parse({})).toEqual({ language: "en", voiceId: null, voiceSpeed: 1 });
    expect(ProjectVoiceSchema.parse({ language: "FR", voiceId: "", voiceSpeed: "1.3" })).toEqual({ language: "fr", voiceId: null, voiceSpeed: 1.3 });
    expect(ProjectVoiceSchema.parse({ language: "pt-br", voiceId: "espeak:pt-BR+f3" })).toMatchObject({ language: "pt-BR", voiceId: "espeak:pt-BR+f3" });
  });

  it("refuses unknown languages, odd voice ids and speeds out of range, naming the field", () => {
    for (const [body, field] of [
      [{ language: "klingon" }, "language"],
      [{ voiceId: "espeak:zz" }, "voiceId"],
      [{ voiceId: "a b" }, "voiceId"],
      [{ voiceId: "x".repeat(201) }, "voiceId"],
      [{ voiceSpeed: "2" }, "voiceSpeed"],
    ] as const) {
      const r = ProjectVoiceSchema.safeParse(body);
      expect(r.success).toBe(false);
      expect(r.error!.issues[0]!.path[0]).toBe(field);
    }
    expect(ProjectVoiceUpdateSchema.safeParse({ other: 1 }).success).toBe(false);
  });

  it("says, for a language the offline writer cannot write, that the script is English and which providers to use", () => {
    expect(offlineWriterNote("fr")).toBeNull();
    expect(offlineWriterNote("de")).toBe(
      "The offline script writer writes only English, French and Spanish, so this German project's script is in English. For a script in German, save a Gemini API key or an OpenAI-compatible model in Settings and generate the script again.",
    );
  });
});
