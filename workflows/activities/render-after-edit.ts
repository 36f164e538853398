// A make-video run's render against the storyboard as it is once the render is done (issue 53, decision 267). A scene
// the creator edits while the run renders (a new picture, an upload, a new voiceover or words, another transition)
// was read by the render before the edit; the run asks this, and renders again when a scene changed: the chunks kept
// under their keys (decision 260) are taken as they are, so only the edited scenes' chunks are drawn again. Edits
// made before the render planned its scenes need nothing: the render read them (and the early chunks of their
// scenes, decision 261, have another key and are drawn again).
import { prisma } from "~/core/db.server";
import { mediaIdFromUrl } from "~/core/storage.server";
import { getTransitions } from "~/core/transitions.server";
import { transitionProps } from "~/lib/transitions";
import { storedWordTimings } from "../../app/lib/timeline/video-props";
import { editedScenes, type SceneContent } from "../engine/render-scene-edits";
import type { RenderPlanScene } from "../shared/render";

/**
 * The scenes (1-based) of the project's storyboard edited since the render `renderId` planned them; none when that
 * render kept no plan (a run started before plans were stored) or the project is not the user's.
 */
export async function scenesEditedSinceRender(input: { userId: string; projectId: string; renderId: string }): Promise<number[]> {
  const plan = await prisma.renderPlan.findFirst({
    where: { renderId: input.renderId, render: { projectId: input.projectId, project: { userId: input.userId } } },
    select: { scenes: true },
  });
  if (!plan) return [];
  const cells = await prisma.storyboardCell.findMany({ where: { storyboard: { projectId: input.projectId } }, orderBy: { cellIndex: "asc" } });
  const transitions = transitionProps(await getTransitions(input.projectId), cells.length);
  const now = cells.map(
    (cell, i): SceneContent => ({
      // as planScene names them: the stored file's id, or the id in the file's URL
      imageFileId: cell.imageFileId ?? mediaIdFromUrl(cell.imageUrl) ?? "",
      audioFileId: cell.audioFileId ?? mediaIdFromUrl(cell.audioUrl) ?? "",
      text: cell.voiceoverText,
      words: storedWordTimings(cell.wordTimings),
      clipFileId: cell.clipFileId,
      transitionIn: transitions.perScene[i],
    }),
  );
  return editedScenes(plan.scenes as unknown as RenderPlanScene[], now);
}

export type RenderAfterEditActivities = { scenesEditedSinceRender: typeof scenesEditedSinceRender };
