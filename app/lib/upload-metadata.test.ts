import { describe, expect, it } from "vitest";
import { createOfflineTextProvider } from "~/providers/text/offline";
import { GenerateMetadataSchema, limitUploadMetadata, tagsLength, withMediaCredits } from "./upload-metadata";

describe("upload metadata limits", () => {
  it("cuts a description over 4,900 characters at a word and keeps tags within 400 characters together", () => {
    const words = Array.from({ length: 2000 }, (_, i) => `word${i}`).join(" ");
    const tags = Array.from({ length: 100 }, (_, i) => `  tag number ${i} `);
    const limited = limitUploadMetadata({ description: words, tags: [...tags, "", "TAG NUMBER 1", "<script>"] });
    expect(limited.description.length).toBeLessThanOrEqual(4900);
    expect(limited.description.length).toBeGreaterThan(4700);
    expect(words.startsWith(limited.description)).toBe(true);
    expect(limited.description.endsWith(" ")).toBe(false);
    expect(tagsLength(limited.tags)).toBeLessThanOrEqual(400);
    expect(limited.tags[0]).toBe("tag number 0");
    expect(limited.tags.filter((t) => t.toLowerCase() === "tag number 1")).toHaveLength(1);
    expect(limited.tags.some((t) => t.includes("<"))).toBe(false);
  });

  it("keeps short metadata as it is", () => {
    expect(limitUploadMetadata({ description: "Hello there.", tags: ["ocean", "deep sea"] })).toEqual({ description: "Hello there.", tags: ["ocean", "deep sea"] });
  });

  it("the offline writer's metadata for a long script stays within the limits", async () => {
    const script = Array.from({ length: 400 }, (_, i) => `The ocean hides creature number ${i} in the dark water, far below the waves.`).join(" ");
    const written = await createOfflineTextProvider().writeUploadMetadata({ title: "Secrets of the Deep Ocean", script });
    const limited = limitUploadMetadata(written);
    expect(limited.description.length).toBeGreaterThan(50);
    expect(limited.description.length).toBeLessThanOrEqual(4900);
    expect(limited.tags.length).toBeGreaterThan(2);
    expect(tagsLength(limited.tags)).toBeLessThanOrEqual(400);
  });

  it("needs a script and a title", () => {
    expect(GenerateMetadataSchema.safeParse({ script: "x", title: "" }).error?.issues[0]?.path).toEqual(["title"]);
    expect(GenerateMetadataSchema.safeParse({ title: "x" }).error?.issues[0]?.path).toEqual(["script"]);
  });
});

describe("stock media credits in the description", () => {
  const credits = ["Stock media from Pexels (https://www.pexels.com):", "Photo by Ana Lima on Pexels: https://www.pexels.com/photo/1/"];

  it("ends the description with the credits, once", () => {
    const described = withMediaCredits("Why octopuses are smart.", credits);
    expect(described).toBe(`Why octopuses are smart.\n\n${credits.join("\n")}`);
    expect(withMediaCredits(described, credits)).toBe(described);
    expect(withMediaCredits("No stock here.", [])).toBe("No stock here.");
  });

  it("keeps the credits whole when the description is at the limit, cutting the text instead", () => {
    const long = "word ".repeat(2000).trim();
    const described = withMediaCredits(long, credits);
    expect(described.length).toBeLessThanOrEqual(4900);
    expect(described.endsWith(credits.join("\n"))).toBe(true);
  });
});
