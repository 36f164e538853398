import { describe, expect, it } from "vitest";
import { countWords, minutesForWords, planChunks, scriptFileName, targetWordsFor, MAX_CHUNK_WORDS } from "./script";

describe("script arithmetic", () => {
  it("counts words split on any whitespace", () => {
    expect(countWords("  one two\nthree\t four  ")).toBe(4);
    expect(countWords("   ")).toBe(0);
  });

  it("turns words into rounded minutes at 150 words per minute", () => {
    expect(minutesForWords(750)).toBe(5);
    expect(minutesForWords(74)).toBe(0);
    expect(minutesForWords(9000)).toBe(60);
  });

  it("targets minutes x 150 words", () => {
    expect(targetWordsFor(30)).toBe(75);
    expect(targetWordsFor(300)).toBe(750);
    expect(targetWordsFor(3600)).toBe(9000);
  });

  it("names the download after the title", () => {
    expect(scriptFileName("My Trip: Part 2!")).toBe("my_trip__part_2__script.txt");
  });

  it("plans bounded chunks that add up to the target", () => {
    for (const target of [75, 750, 9000, 451]) {
      const chunks = planChunks(target);
      expect(chunks.reduce((a, b) => a + b, 0)).toBe(target);
      expect(Math.max(...chunks)).toBeLessThanOrEqual(MAX_CHUNK_WORDS);
    }
    expect(planChunks(9000)).toHaveLength(20);
    expect(planChunks(75)).toEqual([75]);
  });
});
