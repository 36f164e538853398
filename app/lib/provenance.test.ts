// The /script and /storyboard provenance texts: each says which provider did the work, and only that.
import { describe, expect, it } from "vitest";
import { scriptBadges, scriptWriterLine, storyboardMadeWith } from "./provenance";

const cell = (o: Partial<Parameters<typeof storyboardMadeWith>[1][number]> = {}) => ({
  imageUrl: "/api/media/i",
  audioUrl: "/api/media/a",
  imageSource: "generated",
  imageMadeBy: "Offline illustration",
  voiceMadeBy: "Offline voice (Flite)",
  ...o,
});

describe("script provenance", () => {
  it("the offline writer's script claims no AI proofreading", () => {
    expect(scriptBadges("Offline writer")).toEqual(["Written offline from templates", "Repeated sentences removed", "No AI used"]);
    expect(scriptBadges("Offline writer")).not.toContain("Automatically Proofread");
    expect(scriptWriterLine("Offline writer")).toBe("Written by the offline writer (templates, no AI): no Gemini key was saved when it was written.");
  });
  it("a Gemini script says Gemini wrote and proofread it", () => {
    expect(scriptBadges("Google Gemini")).toEqual(["Written by Google Gemini", "Proofread by Google Gemini"]);
    expect(scriptWriterLine("Google Gemini")).toBe("Written and proofread by Google Gemini.");
  });
  it("an unrecorded writer gets no badges and says so", () => {
    expect(scriptBadges(null)).toEqual([]);
    // the creator's own script claims no proofreading: nothing was rewritten (issue 33)
    expect(scriptBadges("You")).toEqual(["Your own words", "Read exactly as written"]);
    expect(scriptWriterLine("You")).toBe("Your own script: saved exactly as you wrote it, nothing rewritten.");
    expect(scriptWriterLine(undefined)).toBe("The writer of this script was not recorded.");
  });
});

describe("storyboard provenance", () => {
  it("names the split, the images and the voices with counts", () => {
    expect(storyboardMadeWith("Offline writer", [cell(), cell()])).toEqual([
      { what: "Scenes", text: "split by the offline writer (templates, no AI)" },
      { what: "Images", text: "offline illustrations (no AI) (2)" },
      { what: "Voiceovers", text: "Flite, the offline voice (2)" },
    ]);
  });
  it("mixes providers, own media, unrecorded and missing scenes", () => {
    const items = storyboardMadeWith(null, [
      cell({ imageMadeBy: "Leonardo.Ai", voiceMadeBy: "ElevenLabs" }),
      cell({ imageMadeBy: "Leonardo.Ai" }),
      cell({ imageSource: "upload" }),
      cell({ imageMadeBy: null, voiceMadeBy: null }),
      cell({ imageUrl: null, audioUrl: null }),
    ]);
    expect(items).toEqual([
      { what: "Images", text: "Leonardo.Ai (2), your own media (1), not recorded (1), not made yet (1)" },
      { what: "Voiceovers", text: "Flite, the offline voice (2), ElevenLabs (1), not recorded (1), not made yet (1)" },
    ]);
  });
  it("says nothing about media before there are scenes", () => {
    expect(storyboardMadeWith("Google Gemini", [])).toEqual([{ what: "Scenes", text: "split by Google Gemini" }]);
  });
});
