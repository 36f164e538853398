// The web side of AI clips (issue 50): the estimate before anything starts, the budget checked (refused with the
// figures, HTTP 402, before any workflow or provider call), and the animate-scenes workflow started.
import type { Project } from "~/generated/prisma/client";
import type { ClipProviderId } from "~/providers/video/types";
import type { animateScenesWorkflow } from "../../workflows/ai-clips";
import { animateScenesWorkflowId, type AiClipSource } from "../../workflows/shared/ai-clips";
import { checkClipBudget, clipEstimateFor, ClipBudgetRefusal, getRunwayKey } from "~/core/clip-budget.server";
import { prisma } from "~/core/db.server";
import { getProviderKeys } from "~/core/settings.server";
import { getTemporalClient, startWorkflow, workflowIsRunning, WorkflowAlreadyRunningError } from "./temporal.server";
import { refusal } from "~/core/refusal.server";

export async function startAnimateScenes(userId: string, project: Project, request: { provider: ClipProviderId; source: AiClipSource; cellIndexes: number[] }) {
  const keys = await getProviderKeys(userId);
  if (request.provider === "veo" && !keys.geminiApiKey) throw refusal(400, "AI clips with Veo use your Gemini API key: save it in Settings (API Keys) first.", { field: "provider" });
  if (request.provider === "runway" && !(await getRunwayKey(userId))) throw refusal(400, "AI clips with Runway use your Runway API key: save it in Settings (AI clips) first.", { field: "provider" });
  if (request.provider === "runway" && request.source === "words") throw refusal(400, "Runway Gen-4 Turbo starts from the scene's picture: choose Veo to animate from the words.", { field: "source" });
  const count = await prisma.storyboardCell.count({ where: { storyboard: { projectId: project.id }, cellIndex: { in: request.cellIndexes } } });
  if (count !== request.cellIndexes.length) throw refusal(400, "Some of these scenes do not exist.", { field: "cellIndexes" });
  const estimate = await clipEstimateFor(userId, project.id, request.provider, request.cellIndexes);
  try {
    await checkClipBudget(userId, project.id, estimate.totalCents);
  } catch (e) {
    if (e instanceof ClipBudgetRefusal) throw refusal(402, e.message, { field: "cellIndexes", figures: e.figures, estimate });
    throw e;
  }
  try {
    const handle = await startWorkflow<typeof animateScenesWorkflow>("animateScenesWorkflow", {
      workflowId: animateScenesWorkflowId(project.id),
      args: [{ userId, projectId: project.id, provider: request.provider, source: request.source, cellIndexes: request.cellIndexes }],
      memo: { userId, projectId: project.id, projectTitle: project.title },
    });
    return { started: true, runId: handle.firstExecutionRunId, estimate };
  } catch (e) {
    if (e instanceof WorkflowAlreadyRunningError) throw refusal(409, "Scenes of this video are already being animated. Wait for them, or cancel.", { field: "cellIndexes" });
    throw e;
  }
}

/** Cancels the running request: the generation in progress is cancelled (at Runway, its task too). */
export async function cancelAnimateScenes(project: Project) {
  await (await getTemporalClient()).workflow.getHandle(animateScenesWorkflowId(project.id)).cancel().catch(() => {});
}

/** Whether scenes of this video are being animated now. */
export function animatingScenes(project: Project): Promise<boolean> {
  return workflowIsRunning(animateScenesWorkflowId(project.id)).catch(() => false);
}
