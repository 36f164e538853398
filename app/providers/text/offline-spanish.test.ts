import { describe, expect, it } from "vitest";
import { ANGLES, BODY_TEMPLATES, DETAILS, OBSERVATIONS } from "./offline-grammar";
import { ANGLES_ES, BODY_TEMPLATES_ES, DETAILS_ES, OBSERVATIONS_ES, aEs, deEs, fillAngleEs, spanishKeywords } from "./offline-spanish";
import { createOfflineTextProvider } from "./offline";
import { countWords, splitSentences } from "./language";

const SPANISH_WORDS = /(?<![\p{L}])(?:el|la|los|las|del|que|una|para|por|con|se)(?![\p{L}])/giu;
const ENGLISH_WORDS = /\b(?:the|and|is|of|that|this|with|for)\b/gi;
const video = { title: "El secreto de las abejas", topic: "Cómo las abejas fabrican la miel y polinizan las flores" };

async function script(words: number[]) {
  const text = createOfflineTextProvider();
  const chunks = [];
  for (let i = 0; i < words.length; i++) {
    chunks.push(await text.writeScriptChunk({ ...video, chunkIndex: i, totalChunks: words.length, targetWords: words[i]!, seed: "s", language: "es" }));
  }
  return text.proofreadScript({ title: video.title, text: chunks.join("\n\n"), language: "es" });
}

describe("the offline writer in Spanish", () => {
  it("has as many phrases as the English grammar, so the numbering stays a bijection", () => {
    expect([ANGLES_ES.length, OBSERVATIONS_ES.length, DETAILS_ES.length, BODY_TEMPLATES_ES.length]).toEqual([
      ANGLES.length,
      OBSERVATIONS.length,
      DETAILS.length,
      BODY_TEMPLATES.length,
    ]);
    // every phrase is distinct, or two numbers would write the same sentence
    for (const list of [ANGLES_ES, OBSERVATIONS_ES, DETAILS_ES, BODY_TEMPLATES_ES]) expect(new Set(list).size).toBe(list.length);
  });

  it("contracts de and a with el only", () => {
    expect(deEs("el polen")).toBe("del polen");
    expect(deEs("las abejas")).toBe("de las abejas");
    expect(aEs("el polen")).toBe("al polen");
    expect(aEs("la miel")).toBe("a la miel");
    expect(fillAngleEs("el debate en torno {aK}", "el polen")).toBe("el debate en torno al polen");
  });

  it("keeps the topic's nouns with their article, and passes over verbs", () => {
    const keywords = spanishKeywords(video.topic, 4, video.title);
    expect(keywords).toEqual(expect.arrayContaining(["las abejas", "la miel", "las flores"]));
    expect(keywords.join(" ")).not.toMatch(/fabrican|polinizan/);
    expect(spanishKeywords("Consejos para recorrer Europa en tren con poco presupuesto", 4)).not.toContain("el recorrer");
  });

  it("writes a Spanish script of about the requested length, with no English and no repeated sentence", async () => {
    const es = await script([200, 200]);
    expect(countWords(es)).toBeGreaterThan(340);
    expect(countWords(es)).toBeLessThan(460);
    expect((es.match(SPANISH_WORDS) ?? []).length).toBeGreaterThan(40);
    expect((es.match(ENGLISH_WORDS) ?? []).length).toBe(0);
    expect(es).toMatch(/^¡Bienvenido! Este vídeo se titula «El secreto de las abejas»/);
    expect(es).toMatch(/de las abejas|de la miel/);
    expect(es).not.toMatch(/\bde el |\ba el /);
    const sentences = splitSentences(es);
    expect(new Set(sentences).size).toBe(sentences.length);
  });

  it("writes the upload description in Spanish", async () => {
    const text = createOfflineTextProvider();
    const meta = await text.writeUploadMetadata({ title: video.title, script: await script([120]), language: "es" });
    expect(meta.description).toContain("En este vídeo:");
    expect(meta.tags).toContain("abejas");
  });
});
