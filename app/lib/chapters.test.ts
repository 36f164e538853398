// Chapters from the scenes by YouTube's rules: a 5-minute 16:9 video's description gets valid ones (first at 0:00,
// at least three, each at least 10 s), a short one gets none, and what a creator types is checked the same way.
import { describe, expect, it } from "vitest";
import { sceneBoundaries } from "./timeline/timing";
import { chapterTimestamp, chaptersFromScenes, chaptersInDescription, sceneTitle, validateChapters, withChapters } from "./chapters";

const FPS = 30;
const TOPICS = ["Bees talk by dancing", "The waggle run points the way", "Distance is in the timing", "Scouts find new homes", "The swarm decides", "Winter in the hive"];

/** About 300 s of scenes of 6 to 9 s each, as a 5-minute storyboard is. */
function fiveMinutes() {
  const scenes: { text: string; audioDurationInSeconds: number }[] = [];
  let total = 0;
  for (let i = 0; total < 300; i++) {
    const seconds = 6 + (i % 4);
    scenes.push({ text: `${TOPICS[Math.floor(i / 7) % TOPICS.length]}, part ${i + 1}. More words follow here.`, audioDurationInSeconds: seconds });
    total += seconds + 0.3;
  }
  return scenes;
}

describe("chapters from the scenes", () => {
  it("gives a 5-minute 16:9 video valid chapters at the end of its description", () => {
    const scenes = fiveMinutes();
    const duration = sceneBoundaries(scenes.map((s) => s.audioDurationInSeconds), FPS).at(-1)! / FPS;
    expect(duration).toBeGreaterThan(295);
    const chapters = chaptersFromScenes(scenes, FPS);
    expect(chapters[0]!.startSeconds).toBe(0);
    expect(chapters.length).toBeGreaterThanOrEqual(3);
    expect(chapters.length).toBeLessThanOrEqual(12);
    chapters.forEach((c, i) => {
      const end = chapters[i + 1]?.startSeconds ?? duration;
      expect(end - c.startSeconds, `chapter ${i + 1}`).toBeGreaterThanOrEqual(10);
      expect(c.title.length).toBeGreaterThan(0);
      expect(c.title.split(" ").length).toBeLessThanOrEqual(6);
    });
    expect(chapters[0]!.title).toBe("Bees talk by dancing");

    const description = withChapters("How honeybees tell each other where the flowers are.\n\nPhoto by Jane on Pexels", chapters, 4900);
    const lines = description.split("\n");
    // the description ends with the chapter lines, one per chapter, the first at 0:00
    expect(lines.slice(-chapters.length)).toEqual(chapters.map((c) => `${chapterTimestamp(c.startSeconds)} ${c.title}`));
    expect(lines.at(-chapters.length)).toMatch(/^0:00 /);
    expect(description.startsWith("How honeybees tell each other")).toBe(true);
    // and YouTube's rules hold for what is read back from the description
    const parsed = chaptersInDescription(description);
    expect(parsed).toEqual(chapters);
    expect(validateChapters(parsed, duration)).toEqual({ present: true, valid: true, reason: null });
    // written twice, the chapters are replaced, not repeated
    expect(withChapters(description, chapters, 4900)).toBe(description);
  });

  it("makes no chapters for a video too short for three chapters of 10 s", () => {
    expect(chaptersFromScenes([{ text: "One.", audioDurationInSeconds: 8 }, { text: "Two.", audioDurationInSeconds: 9 }, { text: "Three.", audioDurationInSeconds: 7 }], FPS)).toEqual([]);
  });

  it("says why typed chapters are not valid", () => {
    expect(validateChapters(chaptersInDescription("0:05 Intro\n1:00 Middle\n2:00 End"), 300).reason).toMatch(/first chapter must start at 0:00/);
    expect(validateChapters(chaptersInDescription("0:00 Intro\n1:00 End"), 300).reason).toMatch(/at least 3 chapters/);
    expect(validateChapters(chaptersInDescription("0:00 Intro\n0:05 Short\n1:00 End"), 300).reason).toMatch(/lasts 5 s/);
    expect(validateChapters(chaptersInDescription("No timestamps here."), 300)).toEqual({ present: false, valid: true, reason: null });
  });

  it("titles a scene with its first clause", () => {
    expect(sceneTitle("honeybees dance, and the hive follows them to the flowers.")).toBe("Honeybees dance");
    expect(sceneTitle("Why do bees waggle their bodies when they come home from a long flight?")).toBe("Why do bees waggle their bodies");
    expect(chapterTimestamp(3723)).toBe("1:02:03");
    expect(chapterTimestamp(65)).toBe("1:05");
  });
});
