// Shaping the storyboard's scenes (issue 33): add, delete, move, split and merge, each in one transaction, for the
// project's owner only. The plan is app/lib/scene-edit.ts (the page runs the same one to show the change at once);
// the rows move with app/server/scene-layout.server.ts, so a scene's picture and voiceover go where its words go.
// See docs/decisions/171-scene-editing.md.
import { planSceneEdit, type SceneEdit } from "~/lib/scene-edit";
import { jsonError } from "./api.server";
import { prisma } from "./db.server";
import { getProjectForUser } from "./projects.server";
import { applySceneLayout, assertScenesEditable, type LayoutItem } from "./scene-layout.server";
import { listCells, type StoryboardCellView } from "./storyboard.server";

/**
 * Does `edit` to the scenes of the user's project `projectId` (another user's, or a missing one: 404) and answers
 * with the scenes as they now are. Refused while the split or Generate All runs (409); a scene that is gone: 404.
 */
export async function editScenes(input: { userId: string; projectId: string; edit: SceneEdit }): Promise<StoryboardCellView[]> {
  const project = await getProjectForUser(input.userId, input.projectId);
  const storyboard = await prisma.storyboard.findUnique({ where: { projectId: project.id }, select: { id: true, status: true } });
  if (!storyboard) throw jsonError(404, "This project has no storyboard yet. Generate the storyboard first.");
  await assertScenesEditable(project.id, storyboard.status);
  await prisma.$transaction(async (tx) => {
    // one edit at a time per storyboard: a second waits here, then plans from the scenes the first left
    await tx.$queryRaw`SELECT id FROM "Storyboard" WHERE id = ${storyboard.id} FOR UPDATE`;
    const cells = await tx.storyboardCell.findMany({ where: { storyboardId: storyboard.id }, orderBy: { cellIndex: "asc" }, select: { id: true, voiceoverText: true } });
    const planned = planSceneEdit(
      cells.map((c) => ({ id: c.id, text: c.voiceoverText })),
      input.edit,
    );
    if ("problem" in planned) throw jsonError(planned.problem.status, planned.problem.message, { field: fieldOf(input.edit, planned.problem.status) });
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
