import { describe, expect, it } from "vitest";
import { pickSceneSubjects } from "../image/scene-subjects.server";
import { FRENCH_NOUNS, SPANISH_NOUNS, pictureWordFor, pictureWordsOf } from "./picture-glossary";
import { offlineScenes } from "./scenes";

describe("French and Spanish scenes get English picture words", () => {
  it("reads nouns in the singular and the plural, and only in their own language", () => {
    expect(pictureWordFor("abeilles", "fr")).toBe("honeybee");
    expect(pictureWordFor("Châteaux", "fr")).toBe("castle");
    expect(pictureWordFor("flores", "es")).toBe("flower");
    expect(pictureWordFor("árboles", "es")).toBe("tree");
    expect(pictureWordFor("camiones", "es")).toBeUndefined();
    expect(pictureWordFor("abeilles", "es")).toBeUndefined();
    expect(pictureWordFor("bee", "en")).toBeUndefined();
  });

  it("puts the title's subject first, and the writer's generic nouns after the topic's", () => {
    const words = pictureWordsOf("L'histoire des abeilles commence dans la ruche, où le miel mûrit lentement.", "fr", "Le secret des abeilles");
    expect(words[0]).toBe("honeybee");
    expect(words).toEqual(expect.arrayContaining(["honey"]));
    expect(words.indexOf("history")).toBeGreaterThan(words.indexOf("honey"));
  });

  it("writes English image prompts for a Spanish script, and the illustrator draws the subject", () => {
    const script = "Las abejas visitan miles de flores cada día. La miel se guarda en la colmena durante el invierno.";
    const [scene] = offlineScenes(script, "El secreto de las abejas", "9:16", 1, "s", "es");
    expect(scene!.imagePrompt).toMatch(/^honeybee, /);
    expect(pickSceneSubjects(scene!.voiceoverText, scene!.imagePrompt).main).toBe("honeybee");
  });

  it("names, for every noun it knows, a word the offline illustrator has a picture for", () => {
    const words = [...new Set([...Object.values(FRENCH_NOUNS), ...Object.values(SPANISH_NOUNS)])];
    expect(words.length).toBeGreaterThan(150);
    expect(words.filter((word) => !pickSceneSubjects("", `${word} — scene 1`).main)).toEqual([]);
  });

  it("keeps English prompts from English words for any other language", () => {
    const [scene] = offlineScenes("Honeybees visit thousands of flowers every day.", "Bees", "9:16", 1, "s", "en");
    expect(scene!.imagePrompt).toMatch(/^honeybees/);
  });
});
