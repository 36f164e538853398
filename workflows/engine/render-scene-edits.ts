// Which scenes of a render's plan the storyboard no longer matches (decision 267): what each scene draws and says,
// its files by id, compared by value. Plain data, for the make-video run's look after its render.
import type { RenderPlanScene } from "../shared/render";

/** What a scene draws and says, as a render plan names it (the files by id); the voiceover's length goes with its file. */
export type SceneContent = Omit<RenderPlanScene, "audioDurationInSeconds" | "clip"> & { clipFileId: string | null };

/** The scenes (1-based) whose content differs between a render's plan and the storyboard now; every scene past the shorter list. */
export function editedScenes(planned: readonly RenderPlanScene[], now: readonly SceneContent[]): number[] {
  const edited: number[] = [];
  for (let i = 0; i < Math.max(planned.length, now.length); i++) {
    const was = planned[i];
    const is = now[i];
    if (!was || !is || contentKey(contentOf(was)) !== contentKey(is)) edited.push(i + 1);
  }
  return edited;
}

const contentOf = (scene: RenderPlanScene): SceneContent => ({
  imageFileId: scene.imageFileId,
  audioFileId: scene.audioFileId,
  text: scene.text,
  words: scene.words ?? null,
  clipFileId: scene.clip?.fileId ?? null,
  transitionIn: scene.transitionIn,
});
// by value, in a fixed order: a plan read back from its JSON column may hold its keys in another order
const contentKey = (scene: SceneContent) =>
  JSON.stringify([
    scene.imageFileId,
    scene.audioFileId,
    scene.text,
    scene.words ? [scene.words.source, scene.words.audioSeconds, scene.words.words.map((w) => [w.text, w.start, w.end])] : null,
    scene.clipFileId,
    scene.transitionIn ?? null,
  ]);

