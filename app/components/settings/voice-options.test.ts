import { describe, expect, it } from "vitest";
import type { Voice } from "~/providers/types";
import { groupVoices, voiceLabel } from "./voice-options";

const voice = (id: string, name: string, category: Voice["category"], gender?: string, extra: Partial<Voice> = {}): Voice => ({
  id,
  name,
  category,
  gender,
  ...extra,
});

describe("groupVoices", () => {
  const voices = [
    voice("g1", "Zed", "generated"),
    voice("c1", "My Clone", "cloned", "male"),
    voice("p1", "Rachel", "premade", "female"),
    voice("p2", "Adam", "premade", "male"),
    voice("p3", "Bella", "premade", "female"),
    voice("p4", "Nova", "premade"),
    voice("p5", "Aria", "premade", "neutral"),
    voice("p6", "Clyde", "premade", "Male"),
    voice("pro1", "Studio Anna", "professional", "female"),
  ];

  it("orders the groups Premade, Professional, Voice Clones, Generated with their headings, leaving out empty ones", () => {
    const groups = groupVoices(voices);
    expect(groups.map((g) => g.heading)).toEqual([
      "--- Premade Voices ---",
      "--- Professional Voices ---",
      "--- Voice Clones Voices ---",
      "--- Generated Voices ---",
    ]);
    expect(groupVoices(voices.filter((v) => v.category !== "professional")).map((g) => g.group)).toEqual(["Premade", "Voice Clones", "Generated"]);
  });

  it("lists female voices, then male, then the rest (missing gender too), each sorted by name", () => {
    const premade = groupVoices(voices)[0]!;
    expect(premade.voices.map((v) => v.name)).toEqual(["Bella", "Rachel", "Adam", "Clyde", "Aria", "Nova"]);
  });

  it("shows a voice listed twice only once", () => {
    expect(groupVoices([voices[2]!, voices[2]!])[0]!.voices).toHaveLength(1);
  });
});

describe("voiceLabel", () => {
  it("adds the age in parentheses and the accent in brackets when present", () => {
    expect(voiceLabel({ name: "Rachel", age: "young", accent: "american" })).toBe("Rachel (young) [american]");
    expect(voiceLabel({ name: "Adam", age: "middle aged" })).toBe("Adam (middle aged)");
    expect(voiceLabel({ name: "Bella", accent: "british" })).toBe("Bella [british]");
    expect(voiceLabel({ name: "Nova", age: " ", accent: "" })).toBe("Nova");
  });
});
