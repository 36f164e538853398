import { describe, expect, it } from "vitest";
import { applySceneEdit, planSceneEdit, splitText } from "./scene-edit";
import { SceneEditSchema } from "./scene-edit-schema";

const scenes = [
  { id: "a", text: "One two three." },
  { id: "b", text: "Four five six." },
  { id: "c", text: "Seven eight." },
];

describe("planSceneEdit: the scenes after an edit, media staying with its words", () => {
  it("adds a new scene before the first, between two, and after the last", () => {
    expect(planSceneEdit(scenes, { action: "add", at: 0, text: "Zero." })).toEqual({ scenes: [{ create: { text: "Zero." } }, { keep: "a" }, { keep: "b" }, { keep: "c" }] });
    expect(planSceneEdit(scenes, { action: "add", at: 3, text: "Nine." })).toEqual({ scenes: [{ keep: "a" }, { keep: "b" }, { keep: "c" }, { create: { text: "Nine." } }] });
    expect(planSceneEdit(scenes, { action: "add", at: 4, text: "Nine." })).toMatchObject({ problem: { status: 400 } });
  });

  it("deletes a scene, never the last one left", () => {
    expect(planSceneEdit(scenes, { action: "delete", sceneId: "b" })).toEqual({ scenes: [{ keep: "a" }, { keep: "c" }] });
    expect(planSceneEdit([scenes[0]!], { action: "delete", sceneId: "a" })).toMatchObject({ problem: { status: 400, message: expect.stringContaining("at least one scene") } });
  });

  it("moves a scene, its picture and voiceover with it (no new words)", () => {
    expect(planSceneEdit(scenes, { action: "move", sceneId: "c", to: 0 })).toEqual({ scenes: [{ keep: "c" }, { keep: "a" }, { keep: "b" }] });
    expect(planSceneEdit(scenes, { action: "move", sceneId: "a", to: 2 })).toEqual({ scenes: [{ keep: "b" }, { keep: "c" }, { keep: "a" }] });
    expect(planSceneEdit(scenes, { action: "move", sceneId: "a", to: 3 })).toMatchObject({ problem: { status: 400 } });
  });

  it("splits at the cursor: the first half keeps the scene (to be spoken again), the second is new", () => {
    expect(planSceneEdit(scenes, { action: "split", sceneId: "b", at: 5 })).toEqual({
      scenes: [{ keep: "a" }, { keep: "b", text: "Four" }, { create: { text: "five six." } }, { keep: "c" }],
    });
    expect(planSceneEdit(scenes, { action: "split", sceneId: "b", at: 0 })).toMatchObject({ problem: { status: 400 } });
    expect(planSceneEdit(scenes, { action: "split", sceneId: "b", at: 99 })).toMatchObject({ problem: { status: 400 } });
  });

  it("merges a scene with the next, not the last one", () => {
    expect(planSceneEdit(scenes, { action: "merge", sceneId: "a" })).toEqual({ scenes: [{ keep: "a", text: "One two three. Four five six." }, { keep: "c" }] });
    expect(planSceneEdit(scenes, { action: "merge", sceneId: "c" })).toMatchObject({ problem: { status: 400, message: "The last scene has no next scene to merge with." } });
  });

  it("a scene that is gone is a 404", () => {
    expect(planSceneEdit(scenes, { action: "delete", sceneId: "zz" })).toMatchObject({ problem: { status: 404 } });
  });

  it("splitText needs words on both sides", () => {
    expect(splitText("Hello   big world", 5)).toEqual(["Hello", "big world"]);
    expect(splitText("Hello", 5)).toBeNull();
  });
});

describe("SceneEditSchema", () => {
  it("refuses an unknown action, empty words, a negative place", () => {
    expect(SceneEditSchema.safeParse({ action: "explode", sceneId: "a" }).success).toBe(false);
    expect(SceneEditSchema.safeParse({ action: "add", at: 0, text: "   " }).success).toBe(false);
    expect(SceneEditSchema.safeParse({ action: "move", sceneId: "a", to: -1 }).success).toBe(false);
    expect(SceneEditSchema.safeParse({ action: "add", at: 0, text: "x".repeat(5001) }).success).toBe(false);
    expect(SceneEditSchema.safeParse({ action: "merge", sceneId: "a" }).success).toBe(true);
  });
});

describe("applySceneEdit: what the page shows at once", () => {
  type Cell = { id: string; cellIndex: number; voiceoverText: string; audioUrl: string | null; audioDuration: number | null; wordTimings: unknown; imageUrl: string | null };
  const cells: Cell[] = scenes.map((s, cellIndex) => ({ id: s.id, cellIndex, voiceoverText: s.text, audioUrl: `/a/${s.id}`, audioDuration: 2, wordTimings: [], imageUrl: `/i/${s.id}` }));
  const blank = (text: string): Cell => ({ id: "new", cellIndex: 0, voiceoverText: text, audioUrl: null, audioDuration: null, wordTimings: null, imageUrl: null });

  it("renumbers, keeps media on moved scenes, drops the voiceover of a merged one", () => {
    const moved = applySceneEdit(cells, { action: "move", sceneId: "c", to: 0 }, blank);
    expect(moved.map((c) => [c.id, c.cellIndex, c.imageUrl, c.audioUrl])).toEqual([
      ["c", 0, "/i/c", "/a/c"],
      ["a", 1, "/i/a", "/a/a"],
      ["b", 2, "/i/b", "/a/b"],
    ]);
    const merged = applySceneEdit(cells, { action: "merge", sceneId: "a" }, blank);
    expect(merged[0]).toMatchObject({ id: "a", imageUrl: "/i/a", audioUrl: null, voiceoverText: "One two three. Four five six." });
    expect(merged).toHaveLength(2);
  });
});
