import { describe, expect, it } from "vitest";
import { aiMadeSummary, aiMadeVerdict, type SceneOrigin } from "./synthetic-media";

const scene = (over: Partial<SceneOrigin> = {}): SceneOrigin => ({
  cellIndex: 0,
  audioUrl: "/api/media/a",
  voiceMadeBy: "Offline voice (Flite)",
  imageUrl: "/api/media/i",
  imageSource: "generated",
  imageMadeBy: "Offline illustration",
  clipUrl: null,
  hasMediaCredit: false,
  ...over,
});

describe("the AI-made declaration, from what made the video", () => {
  it("declares nothing for offline illustrations, Flite's robotic voice, stock and the creator's own media", () => {
    const verdict = aiMadeVerdict([
      scene(),
      scene({ cellIndex: 1, imageMadeBy: "Pexels", hasMediaCredit: true }),
      scene({ cellIndex: 2, imageSource: "upload", imageMadeBy: "Leonardo.Ai" }),
      scene({ cellIndex: 3, clipUrl: "/api/media/c", hasMediaCredit: true }),
    ]);
    expect(verdict).toEqual({ declare: false, reasons: [] });
    expect(aiMadeSummary(verdict)).toMatch(/^No AI voice, AI picture or AI clip/);
  });

  it("declares an AI voice, AI pictures and AI clips, each named with its scenes", () => {
    const verdict = aiMadeVerdict(
      [
        scene({ voiceMadeBy: "ElevenLabs", imageMadeBy: "Leonardo.Ai" }),
        scene({ cellIndex: 1, voiceMadeBy: "ElevenLabs", imageMadeBy: "Leonardo.Ai" }),
        scene({ cellIndex: 2, voiceMadeBy: "Offline neural voice (Piper)", clipUrl: "/api/media/c" }),
      ],
      new Map([[2, "Google Veo"]]),
    );
    expect(verdict.declare).toBe(true);
    expect(verdict.reasons).toEqual([
      "AI voice: ElevenLabs (2 scenes), Piper, the offline neural voice (1 scene)",
      "AI pictures: Leonardo.Ai (2 scenes)",
      "AI clips: Google Veo (1 scene)",
    ]);
    expect(aiMadeSummary(verdict)).toBe(`Made with AI: ${verdict.reasons.join("; ")}.`);
  });

  it("counts a voice or a picture only once it exists", () => {
    expect(aiMadeVerdict([scene({ audioUrl: null, voiceMadeBy: "ElevenLabs", imageUrl: null, imageMadeBy: "Leonardo.Ai" })]).declare).toBe(false);
  });
});
