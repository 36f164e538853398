// Scenes checked against what is said (issue 50, decision 226). With the creator's Gemini key, the scene's picture
// (a clip's poster frame) is scored by Gemini's vision; without one, a picture the offline illustrator made is
// checked by its own subjects: it knows what it drew and which words it drew it from. A check is kept for the
// picture it looked at, so a new picture makes it stale (not shown) until it is checked again.
import type { Project, SceneCheck } from "~/generated/prisma/client";
import type { checkScenesWorkflow } from "../../workflows/scene-check";
import { sceneCheckWorkflowId } from "../../workflows/shared/scene-check";
import { prisma } from "~/core/db.server";
import { generateSceneMedia } from "./storyboard.server";
import { startWorkflow, workflowIsRunning, WorkflowAlreadyRunningError } from "./temporal.server";
import { refusal } from "~/core/refusal.server";

export type SceneCheckView = { cellIndex: number; imageUrl: string; score: number; passed: boolean; reason: string; suggestedPrompt: string | null; checkedBy: string };

/** The checks still valid for the scenes' current pictures, by scene. */
export async function currentSceneChecks(projectId: string): Promise<Map<number, SceneCheckView>> {
  const [checks, cells] = await Promise.all([
    prisma.sceneCheck.findMany({ where: { projectId } }),
    prisma.storyboardCell.findMany({ where: { storyboard: { projectId } }, select: { cellIndex: true, imageUrl: true } }),
  ]);
  const pictures = new Map(cells.map((c) => [c.cellIndex, c.imageUrl]));
  const views = new Map<number, SceneCheckView>();
  for (const c of checks as SceneCheck[]) {
    if (pictures.get(c.cellIndex) !== c.imageUrl) continue;
    views.set(c.cellIndex, { cellIndex: c.cellIndex, imageUrl: c.imageUrl, score: c.score, passed: c.passed, reason: c.reason, suggestedPrompt: c.suggestedPrompt, checkedBy: c.checkedBy });
  }
  return views;
}

/** For the video's facts: how many scenes passed of those checked, and how many scenes there are. */
export async function sceneCheckSummary(projectId: string): Promise<{ passed: number; checked: number; scenes: number }> {
  const checks = await currentSceneChecks(projectId);
  const scenes = await prisma.storyboardCell.count({ where: { storyboard: { projectId } } });
  return { passed: [...checks.values()].filter((c) => c.passed).length, checked: checks.size, scenes };
}

/** Checks the scenes (all, or those given) in a workflow; a check already running is joined, not doubled. */
export async function startSceneCheck(userId: string, project: Project, cellIndexes?: number[]) {
  const cells = await prisma.storyboardCell.findMany({ where: { storyboard: { projectId: project.id } }, select: { cellIndex: true }, orderBy: { cellIndex: "asc" } });
  const all = cells.map((c) => c.cellIndex);
  const chosen = cellIndexes ? all.filter((i) => cellIndexes.includes(i)) : all;
  if (cellIndexes && chosen.length !== cellIndexes.length) throw refusal(400, "Some of these scenes do not exist.", { field: "cellIndexes" });
  if (!chosen.length) throw refusal(400, "This video has no scenes to check yet.", { field: "cellIndexes" });
  try {
    const handle = await startWorkflow<typeof checkScenesWorkflow>("checkScenesWorkflow", {
      workflowId: sceneCheckWorkflowId(project.id),
      args: [{ userId, projectId: project.id, cellIndexes: chosen }],
      memo: { userId, projectId: project.id, projectTitle: project.title },
    });
    return { started: true, runId: handle.firstExecutionRunId, cellIndexes: chosen };
  } catch (e) {
    if (e instanceof WorkflowAlreadyRunningError) throw refusal(409, "The scenes are being checked already. Wait for the check to finish.", { field: "cellIndexes" });
    throw e;
  }
}

export function checkingScenes(project: Project): Promise<boolean> {
  return workflowIsRunning(sceneCheckWorkflowId(project.id)).catch(() => false);
}

/**
 * One click on a marked scene: its picture made again from the check's corrected prompt (a clip that did not fit
 * the words is dropped, so the new picture shows), then the scene checked again.
 */
export async function remakeCheckedScene(userId: string, project: Project, cellIndex: number) {
  const check = (await currentSceneChecks(project.id)).get(cellIndex);
  if (!check || check.passed) throw refusal(409, `Scene ${cellIndex + 1} is not marked: there is nothing to correct.`, { field: "cellIndex" });
  if (!check.suggestedPrompt) throw refusal(409, `The check has no corrected prompt for scene ${cellIndex + 1}: edit its prompt, then make its picture again.`, { field: "cellIndex" });
  await prisma.storyboardCell.updateMany({
    where: { cellIndex, storyboard: { projectId: project.id } },
    data: { imagePrompt: check.suggestedPrompt, clipUrl: null, clipFileId: null, clipDuration: null },
  });
  const { imageUrl } = await generateSceneMedia(userId, project, cellIndex, "image");
  await prisma.sceneCheck.deleteMany({ where: { projectId: project.id, cellIndex } });
  const recheck = await startSceneCheck(userId, project, [cellIndex]).catch(() => null);
  return { imageUrl, imagePrompt: check.suggestedPrompt, rechecking: Boolean(recheck) };
}
