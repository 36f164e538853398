// Shaping the storyboard's scenes (issue 33): add, delete, move, split and merge, each in one transaction, for the
// project's owner only. The plan is app/lib/scene-edit.ts (the page runs the same one to show the change at once);
// the rows move with app/core/scene-layout.server.ts, so a scene's picture and voiceover go where its words go.
// See docs/decisions/171-scene-editing.md.
import { planSceneEdit, type SceneEdit } from "~/lib/scene-edit";
import { prisma } from "~/core/db.server";
import { getProjectForUser } from "~/core/projects.server";
import { applySceneLayout, type LayoutItem } from "~/core/scene-layout.server";
import { listCells, type StoryboardCellView } from "./storyboard.server";
import { workflowIsRunning } from "./temporal.server";
import { generateAllWorkflowId } from "../../workflows/shared/scene-media";
import { storyboardWorkflowId } from "../../workflows/shared/storyboard";
import { refusal } from "~/core/refusal.server";

/**
 * Refuses (409) while the storyboard is being split or Generate All runs: both work on scenes by index, and a
 * reorder under them would put a picture on the wrong words.
 */
export async function assertScenesEditable(projectId: string, storyboardStatus: string | null) {
  if (storyboardStatus === "processing" && (await workflowIsRunning(storyboardWorkflowId(projectId)))) {
    throw refusal(409, "The storyboard is being split into scenes. Edit the scenes once it is done.");
  }
  if (await workflowIsRunning(generateAllWorkflowId(projectId))) {
    throw refusal(409, "Generate All is making pictures and voiceovers. Edit the scenes once it is done.");
  }
}

/**
 * Does `edit` to the scenes of the user's project `projectId` (another user's, or a missing one: 404) and answers
 * with the scenes as they now are. Refused while the split or Generate All runs (409); a scene that is gone: 404.
 */
export async function editScenes(input: { userId: string; projectId: string; edit: SceneEdit }): Promise<StoryboardCellView[]> {
  const project = await getProjectForUser(input.userId, input.projectId);
  const storyboard = await prisma.storyboard.findUnique({ where: { projectId: project.id }, select: { id: true, status: true } });
  if (!storyboard) throw refusal(404, "This project has no storyboard yet. Generate the storyboard first.");
  await assertScenesEditable(project.id, storyboard.status);
  await prisma.$transaction(async (tx) => {
    // one edit at a time per storyboard: a second waits here, then plans from the scenes the first left
    await tx.$queryRaw`SELECT id FROM "Storyboard" WHERE id = ${storyboard.id} FOR UPDATE`;
    const cells = await tx.storyboardCell.findMany({ where: { storyboardId: storyboard.id }, orderBy: { cellIndex: "asc" }, select: { id: true, voiceoverText: true } });
    const planned = planSceneEdit(
      cells.map((c) => ({ id: c.id, text: c.voiceoverText })),
      input.edit,
    );
    if ("problem" in planned) throw refusal(planned.problem.status, planned.problem.message, { field: fieldOf(input.edit, planned.problem.status) });
    const layout: LayoutItem[] = planned.scenes.map((scene) => ("create" in scene ? { create: { text: scene.create.text } } : scene));
    await applySceneLayout(tx, project, storyboard.id, layout);
  });
  return listCells(project.id);
}

function fieldOf(edit: SceneEdit, status: number): string | null {
  if (status === 404) return "sceneId";
  if (edit.action === "add" || edit.action === "split") return "at";
  if (edit.action === "move") return "to";
  return "sceneId";
}
