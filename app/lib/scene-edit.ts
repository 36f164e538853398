// Shaping a storyboard's scenes (issue 33): add, delete, move, split at the cursor, merge with the next. One pure
// plan used by the server (one transaction: app/server/scene-edit.server.ts) and by the page to show the change at
// once. Media stays with its words: a moved scene keeps its picture and voiceover; a split or merged scene keeps its
// picture but must be spoken again; an added scene (or a split's second half) has neither until Generate All runs.
// See docs/decisions/171-scene-editing.md.
/** A scene's words may be at most this long (the same cap as editing a voiceover on its card). */
export const SCENE_TEXT_MAX_CHARS = 5000;

/** How long a deleted scene can be brought back before the deletion is saved. */
export const SCENE_UNDO_MS = 6000;

/** One edit of the scene list; the API checks a request's body against SceneEditSchema (scene-edit-schema.ts). */
export type SceneEdit =
  /** a new scene saying `text`, placed at index `at` (0: first; the scene count: last) */
  | { action: "add"; at: number; text: string }
  | { action: "delete"; sceneId: string }
  /** the scene moved to index `to` (the others close up around it) */
  | { action: "move"; sceneId: string; to: number }
  /** the scene cut in two at character `at` of its voiceover */
  | { action: "split"; sceneId: string; at: number }
  /** the scene joined with the one after it */
  | { action: "merge"; sceneId: string };

export type PlannedScene =
  /** an existing scene (by id) at this place; `text`: its new words, which it must be spoken with again */
  | { keep: string; text?: string }
  /** a new scene: no picture and no voiceover yet */
  | { create: { text: string } };

export type SceneEditProblem = { status: 400 | 404; message: string };

const NOT_FOUND: SceneEditProblem = { status: 404, message: "That scene is no longer in the storyboard. Reload the page and try again." };

/** The two halves of a voiceover cut at character `at`, or null when one half would have no words. */
export function splitText(text: string, at: number): [string, string] | null {
  const first = text.slice(0, at).replace(/\s+/g, " ").trim();
  const second = text.slice(at).replace(/\s+/g, " ").trim();
  return first && second ? [first, second] : null;
}

/** The scenes in their new order after `edit`, or why it cannot be done. */
export function planSceneEdit(scenes: { id: string; text: string }[], edit: SceneEdit): { scenes: PlannedScene[] } | { problem: SceneEditProblem } {
  const kept: PlannedScene[] = scenes.map((s) => ({ keep: s.id }));
  if (edit.action === "add") {
    if (edit.at > scenes.length) return { problem: { status: 400, message: `at: a new scene goes at 0 to ${scenes.length} (there are ${scenes.length} scenes).` } };
    kept.splice(edit.at, 0, { create: { text: edit.text } });
    return { scenes: kept };
  }
  const index = scenes.findIndex((s) => s.id === edit.sceneId);
  if (index < 0) return { problem: NOT_FOUND };
  const scene = scenes[index]!;
  switch (edit.action) {
    case "delete":
      if (scenes.length === 1) return { problem: { status: 400, message: "A storyboard keeps at least one scene: change its words instead of deleting it." } };
      kept.splice(index, 1);
      return { scenes: kept };
    case "move": {
      if (edit.to >= scenes.length) return { problem: { status: 400, message: `to: a scene moves to 0 to ${scenes.length - 1}.` } };
      const [moved] = kept.splice(index, 1);
      kept.splice(edit.to, 0, moved!);
      return { scenes: kept };
    }
    case "split": {
      const halves = splitText(scene.text, edit.at);
      if (!halves) return { problem: { status: 400, message: "Put the cursor between two words of the voiceover to split the scene there." } };
      kept.splice(index, 1, { keep: scene.id, text: halves[0] }, { create: { text: halves[1] } });
      return { scenes: kept };
    }
    case "merge": {
      const next = scenes[index + 1];
      if (!next) return { problem: { status: 400, message: "The last scene has no next scene to merge with." } };
      kept.splice(index, 2, { keep: scene.id, text: `${scene.text.trim()} ${next.text.trim()}` });
      return { scenes: kept };
    }
  }
}

/**
 * The page's scenes as they will be once the server has done `edit` (the live preview and the length follow at
 * once): kept scenes carry their media, changed words drop the voiceover, new scenes have no media.
 */
export function applySceneEdit<Cell extends SceneLike>(cells: Cell[], edit: SceneEdit, blank: (text: string) => Cell): Cell[] {
  const planned = planSceneEdit(
    cells.map((c) => ({ id: c.id, text: c.voiceoverText })),
    edit,
  );
  if ("problem" in planned) return cells;
  const byId = new Map(cells.map((c) => [c.id, c]));
  return planned.scenes.map((item, cellIndex) => {
    if ("create" in item) return { ...blank(item.create.text), cellIndex };
    const cell = byId.get(item.keep)!;
    return item.text === undefined ? { ...cell, cellIndex } : { ...cell, cellIndex, voiceoverText: item.text, audioUrl: null, audioDuration: null, wordTimings: null };
  });
}

export type SceneLike = { id: string; cellIndex: number; voiceoverText: string; audioUrl: string | null; audioDuration: number | null; wordTimings: unknown };
