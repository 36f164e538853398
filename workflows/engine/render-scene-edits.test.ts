// A make-video run renders again when a scene was edited while it rendered (decision 267): which scenes of the plan
// the storyboard no longer matches.
import { describe, expect, it } from "vitest";
import type { RenderPlanScene } from "../shared/render";
import { editedScenes, type SceneContent } from "./render-scene-edits";

const planned: RenderPlanScene[] = [1, 2, 3].map((n) => ({
  imageFileId: `img${n}`,
  audioFileId: `aud${n}`,
  audioDurationInSeconds: 2.5,
  text: `Scene ${n} says this.`,
  words: { source: "provider", audioSeconds: 2.5, words: [{ text: "Scene", start: 0, end: 0.4 }] },
  ...(n === 2 ? { transitionIn: "fade" as const } : {}),
}));
const asNow = (scene: RenderPlanScene): SceneContent => ({
  imageFileId: scene.imageFileId,
  audioFileId: scene.audioFileId,
  text: scene.text,
  words: scene.words ?? null,
  clipFileId: scene.clip?.fileId ?? null,
  transitionIn: scene.transitionIn,
});

describe("editedScenes", () => {
  it("finds none when the storyboard is as planned, whatever order its stored word timings' keys came back in", () => {
    // as a JSON column gives the plan back: keys in another order
    const readBack = JSON.parse(JSON.stringify(planned), (_key, value) =>
      value && typeof value === "object" && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).reverse()) : value,
    ) as RenderPlanScene[];
    expect(editedScenes(readBack, planned.map(asNow))).toEqual([]);
  });

  it("names each scene with a new picture, voiceover, words, clip or transition, and the scenes added or taken away", () => {
    const now = planned.map(asNow);
    expect(editedScenes(planned, now.map((s, i) => (i === 1 ? { ...s, imageFileId: "upload" } : s)))).toEqual([2]);
    expect(editedScenes(planned, now.map((s, i) => (i === 0 ? { ...s, audioFileId: "again" } : s)))).toEqual([1]);
    expect(editedScenes(planned, now.map((s, i) => (i === 2 ? { ...s, text: "New words." } : s)))).toEqual([3]);
    expect(editedScenes(planned, now.map((s, i) => (i === 2 ? { ...s, words: { ...s.words!, words: [{ text: "Scene", start: 0.1, end: 0.4 }] } } : s)))).toEqual([3]);
    expect(editedScenes(planned, now.map((s, i) => (i === 0 ? { ...s, clipFileId: "clip" } : s)))).toEqual([1]);
    expect(editedScenes(planned, now.map((s, i) => (i === 1 ? { ...s, transitionIn: undefined } : s)))).toEqual([2]);
    expect(editedScenes(planned, now.slice(0, 2))).toEqual([3]);
    expect(editedScenes(planned, [...now, asNow({ ...planned[0]!, imageFileId: "img4" })])).toEqual([4]);
  });
});
