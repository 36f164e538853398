// The body of an edit of the scene list (POST /api/projects/:id/scenes), checked with zod on the server. Apart from
// the plan (scene-edit.ts), which the storyboard page runs too: the page then loads no zod (decision 134's fifth
// round).
import { z } from "zod";
import { SCENE_TEXT_MAX_CHARS, type SceneEdit } from "./scene-edit";

const SceneId = z.string({ message: "sceneId must be a scene's id" }).min(1, "sceneId must be a scene's id").max(64, "sceneId is not a scene's id");
const Position = z.number({ message: "must be a number" }).int("must be a whole number").min(0, "must be 0 or more").max(10_000, "is past the last scene");
const SceneText = z
  .string({ message: "Send the new scene's words as text" })
  .trim()
  .min(1, "The new scene needs words: type what it should say.")
  .max(SCENE_TEXT_MAX_CHARS, `A scene holds at most ${SCENE_TEXT_MAX_CHARS.toLocaleString("en-US")} characters.`);

export const SceneEditSchema = z.discriminatedUnion(
  "action",
  [
    /** a new scene saying `text`, placed at index `at` (0: first; the scene count: last) */
    z.object({ action: z.literal("add"), at: Position, text: SceneText }),
    z.object({ action: z.literal("delete"), sceneId: SceneId }),
    /** the scene moved to index `to` (the others close up around it) */
    z.object({ action: z.literal("move"), sceneId: SceneId, to: Position }),
    /** the scene cut in two at character `at` of its voiceover */
    z.object({ action: z.literal("split"), sceneId: SceneId, at: Position }),
    /** the scene joined with the one after it */
    z.object({ action: z.literal("merge"), sceneId: SceneId }),
  ],
  { message: "action must be add, delete, move, split or merge" },
);

// the schema accepts exactly the edits the plan takes
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesSceneEdit: Same<z.infer<typeof SceneEditSchema>, SceneEdit> = true;
void schemaMatchesSceneEdit;
