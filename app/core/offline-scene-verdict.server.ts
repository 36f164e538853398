// The offline illustrator's own check of a scene (issue 50, decision 226): a picture it drew knows its subjects and
// the words it drew them from. Used by the scene-check activity and the storyboard's checks.
import { pickStoryboardSubjects } from "~/providers/image/scene-subjects.server";
import { OFFLINE_IMAGE_MODEL } from "~/providers/image/offline-scene.server";
import { SCENE_CHECK_BAR } from "../../workflows/shared/scene-check";

export type OfflineVerdict = { score: number; passed: boolean; reason: string; suggestedPrompt: string | null };

const label = (name: string) => name.replace(/-/g, " ");

/** The offline illustrator's own check: did the scene's main picture come from what the narrator says? */
export function offlineSceneVerdict(title: string, scenes: { narration: string; prompt: string }[], index: number): OfflineVerdict {
  const subjects = pickStoryboardSubjects(title, scenes)[index];
  if (!subjects?.main) {
    return { score: 0, passed: false, reason: "Nothing the narrator says has a picture offline: an abstract composition is shown.", suggestedPrompt: null };
  }
  const main = label(subjects.main);
  if (subjects.from === "scene") return { score: 90, passed: true, reason: `Shows ${main}, which this scene names.`, suggestedPrompt: null };
  if (subjects.from === "title") return { score: SCENE_CHECK_BAR, passed: true, reason: `Shows ${main}, the video's subject; the scene names nothing else that has a picture.`, suggestedPrompt: null };
  return {
    score: 40,
    passed: false,
    reason: `Shows ${main} from the video's world: nothing this scene says has a picture offline.`,
    // the illustrator cannot draw what the words name: no prompt of ours would fix it, the words must change
    suggestedPrompt: null,
  };
}

export const isOfflinePicture = (imageMadeBy: string | null) => imageMadeBy === OFFLINE_IMAGE_MODEL.name;
