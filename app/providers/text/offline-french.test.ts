import { describe, expect, it } from "vitest";
import { ANGLES, BODY_TEMPLATES, DETAILS, OBSERVATIONS } from "./offline-grammar";
import { ANGLES_FR, BODY_TEMPLATES_FR, DETAILS_FR, OBSERVATIONS_FR, a, de, frenchKeywords } from "./offline-french";
import { createOfflineTextProvider } from "./offline";
import { countWords, splitSentences } from "./language";

const FRENCH_WORDS = /\b(?:le|la|les|des|et|est|une|dans|que|pour|qui)\b/gi;
const ENGLISH_WORDS = /\b(?:the|and|is|of|that|this|with|for)\b/gi;

async function script(language: string, words: number[]) {
  const text = createOfflineTextProvider();
  const video = { title: "Le secret des abeilles", topic: "Comment les abeilles fabriquent le miel et pollinisent les fleurs" };
  const chunks = [];
  for (let i = 0; i < words.length; i++) {
    chunks.push(await text.writeScriptChunk({ ...video, chunkIndex: i, totalChunks: words.length, targetWords: words[i]!, seed: "s", language }));
  }
  return text.proofreadScript({ title: video.title, text: chunks.join("\n\n"), language });
}

describe("the offline writer in French", () => {
  it("has as many phrases as the English grammar, so the numbering stays a bijection", () => {
    expect([ANGLES_FR.length, OBSERVATIONS_FR.length, DETAILS_FR.length, BODY_TEMPLATES_FR.length]).toEqual([
      ANGLES.length,
      OBSERVATIONS.length,
      DETAILS.length,
      BODY_TEMPLATES.length,
    ]);
  });

  it("contracts de and à with the article", () => {
    expect(de("les abeilles")).toBe("des abeilles");
    expect(de("le miel")).toBe("du miel");
    expect(de("la ruche")).toBe("de la ruche");
    expect(de("l'apiculture")).toBe("de l'apiculture");
    expect(a("le miel")).toBe("au miel");
    expect(a("les fleurs")).toBe("aux fleurs");
  });

  it("keeps the topic's nouns with their article", () => {
    expect(frenchKeywords("Comment les abeilles fabriquent le miel", 4)).toEqual(expect.arrayContaining(["les abeilles", "le miel"]));
  });

  it("writes a French script of about the requested length, with no English and no repeated sentence", async () => {
    const fr = await script("fr", [200, 200]);
    expect(countWords(fr)).toBeGreaterThan(340);
    expect(countWords(fr)).toBeLessThan(460);
    expect((fr.match(FRENCH_WORDS) ?? []).length).toBeGreaterThan(40);
    expect((fr.match(ENGLISH_WORDS) ?? []).length).toBe(0);
    expect(fr).toMatch(/^Bienvenue ! Cette vidéo s'intitule « Le secret des abeilles »/);
    expect(fr).toMatch(/des abeilles|du miel/);
    expect(fr).not.toMatch(/de les |de le |à les |à le /);
    const sentences = splitSentences(fr);
    expect(new Set(sentences).size).toBe(sentences.length);
  });

  it("writes English for a language it has no grammar for", async () => {
    const de = await script("de", [120]);
    expect((de.match(ENGLISH_WORDS) ?? []).length).toBeGreaterThan(5);
  });

  it("writes the upload description in French", async () => {
    const text = createOfflineTextProvider();
    const meta = await text.writeUploadMetadata({ title: "Le secret des abeilles", script: await script("fr", [120]), language: "fr" });
    expect(meta.description).toContain("Dans cette vidéo :");
    expect(meta.tags).toContain("abeilles");
  });
});
