import { describe, expect, it } from "vitest";
import { allScenesHaveMedia, estimatedDurationFor, needsAudio, needsImage, sceneCountFor } from "./storyboard";
import { imageAspectFor } from "./video-format";

describe("scene sizing", () => {
  it("cuts a 30 s Short into six scenes of about 5 s", () => {
    expect(sceneCountFor("9:16", 30)).toBe(6);
  });

  it("cuts a 10-minute landscape video into scenes of about 15 s", () => {
    const scenes = sceneCountFor("16:9", 600);
    expect(scenes).toBe(40);
    expect(600 / scenes).toBeGreaterThanOrEqual(10);
    expect(600 / scenes).toBeLessThanOrEqual(20);
  });

  it("always has at least one scene, and a bounded number for an hour", () => {
    expect(sceneCountFor("9:16", 5)).toBe(1);
    expect(sceneCountFor("9:16-tiktok", 3600)).toBeLessThanOrEqual(240);
  });

  it("estimates a voiceover's seconds at 150 words per minute", () => {
    expect(estimatedDurationFor(Array(150).fill("word").join(" "))).toBe(60);
    expect(estimatedDurationFor("one two three four five")).toBe(2);
  });
});

describe("scene media", () => {
  it("treats empty, 'video' and 'placeholder' image URLs as missing", () => {
    expect(needsImage({ imageUrl: "" })).toBe(true);
    expect(needsImage({ imageUrl: null })).toBe(true);
    expect(needsImage({ imageUrl: "/img/placeholder.png" })).toBe(true);
    expect(needsImage({ imageUrl: "https://x/video/1.mp4" })).toBe(true);
    expect(needsImage({ imageUrl: "/api/media/abc" })).toBe(false);
    expect(needsAudio({ audioUrl: null })).toBe(true);
    expect(needsAudio({ audioUrl: "/api/media/a" })).toBe(false);
  });

  it("is complete only with at least one scene and every scene's image and audio", () => {
    expect(allScenesHaveMedia([])).toBe(false);
    expect(allScenesHaveMedia([{ imageUrl: "/api/media/i", audioUrl: "/api/media/a" }])).toBe(true);
    expect(allScenesHaveMedia([{ imageUrl: "/api/media/i", audioUrl: null }])).toBe(false);
  });

  it("generates landscape images for 16:9 and portrait ones for both vertical formats", () => {
    expect(imageAspectFor("16:9")).toBe("16:9");
    expect(imageAspectFor("9:16")).toBe("9:16");
    expect(imageAspectFor("9:16-tiktok")).toBe("9:16");
  });
});
