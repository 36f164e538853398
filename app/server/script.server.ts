// The script stage as the web side sees it: start the workflow, and report its status.
import { STUCK_GENERATION_MS } from "~/lib/constants";
import { resolutionEnum, resolutionValue } from "~/lib/video-format";
import type { VideoDetails } from "~/lib/video-details";
import type { Project, Script } from "~/generated/prisma/client";
import type { scriptWorkflow } from "../../workflows/script";
import { scriptProgressQuery, scriptWorkflowId, type ScriptProgress } from "../../workflows/shared/script";
import { prisma } from "./db.server";
import { endedUnrecorded, forgetWorkflow, workflowSnapshot } from "./progress-cache.server";
import { readScriptForStatus } from "./status-reads.server";
import { getTemporalClient, startWorkflow, WorkflowAlreadyRunningError, workflowIsRunning } from "./temporal.server";

export type ScriptStatus = "completed" | "processing" | "error" | "not_found" | "cancelled";

export type ScriptStatusResponse = {
  status: ScriptStatus;
  title?: string;
  topic?: string;
  resolution?: string;
  duration?: number;
  script?: string | null;
  createdAt?: string;
  progress?: ScriptProgress | null;
  error?: string | null;
  isStuck: boolean;
  generationStartTime?: string | null;
  /** The text provider that wrote the completed script, by name (null: not recorded). */
  writtenBy?: string | null;
};

const isStuck = (script: Pick<Script, "status" | "startedAt" | "text">) =>
  script.status === "processing" && !script.text && !!script.startedAt && Date.now() - script.startedAt.getTime() > STUCK_GENERATION_MS;

/**
 * Starts the script workflow for the project. The details sent by the page win (the creator may have edited
 * them in browser storage), so they are saved on the project first. A second start while one runs does not
 * start another; a run stuck for over 30 minutes is cancelled and replaced (the spec's 'Reset & Retry').
 */
export async function startScriptGeneration(userId: string, project: Project, details: VideoDetails) {
  await prisma.project.update({
    where: { id: project.id },
    data: { title: details.title, topic: details.topic, resolution: resolutionEnum(details.resolution), durationSeconds: details.duration },
  });
  const client = await getTemporalClient();
  const workflowId = scriptWorkflowId(project.id);
  const existing = await prisma.script.findUnique({ where: { projectId: project.id } });
  if (existing?.status === "processing") {
    if (!isStuck(existing) && (await workflowIsRunning(workflowId))) {
      return { started: false, status: "processing" as const, generationStartTime: existing.startedAt?.toISOString() ?? null };
    }
    await client.workflow.getHandle(workflowId).terminate("Replaced by a new script generation").catch(() => {});
  }
  const startedAt = new Date();
  // Marked processing now, so a status read right after this call already says so.
  await prisma.script.upsert({
    where: { projectId: project.id },
    create: { projectId: project.id, status: "processing", targetWords: 0, startedAt, workflowId },
    update: { status: "processing", text: null, wordCount: null, error: null, startedAt, completedAt: null, workflowId },
  });
  try {
    await startWorkflow<typeof scriptWorkflow>("scriptWorkflow", {
      workflowId,
      args: [{ projectId: project.id, userId, title: details.title, topic: details.topic, durationSeconds: details.duration, language: project.language }],
      memo: { userId, projectId: project.id, projectTitle: details.title },
    });
    forgetWorkflow(workflowId);
  } catch (e) {
    if (!(e instanceof WorkflowAlreadyRunningError)) {
      await prisma.script.update({ where: { projectId: project.id }, data: { status: "error", error: "Failed to start script generation" } });
      throw e;
    }
    return { started: false, status: "processing" as const, generationStartTime: startedAt.toISOString() };
  }
  return { started: true, status: "processing" as const, generationStartTime: startedAt.toISOString() };
}


export async function getScriptStatus(project: Project | null): Promise<ScriptStatusResponse> {
  if (!project) return { status: "not_found", isStuck: false };
  // one query of the columns shown (decision 186: a poll's cost is its reads)
  const script = await readScriptForStatus(project.id);
  if (!script || script.status === "draft") return { status: "not_found", isStuck: false };
  const base = {
    title: project.title,
    topic: project.topic,
    resolution: resolutionValue(project.resolution),
    duration: project.durationSeconds,
    createdAt: script.createdAt.toISOString(),
    generationStartTime: script.startedAt?.toISOString() ?? null,
  };
  if (script.status === "processing" && script.workflowId) {
    // the run's state from the progress cache (progress null: no worker answered; the row still tells the state)
    const run = await workflowSnapshot(script.workflowId, scriptProgressQuery, script.startedAt);
    if (endedUnrecorded(run, script.startedAt)) {
      // terminated from the Temporal UI, say: say so rather than spin forever
      const ended = await prisma.script.findUnique({ where: { projectId: project.id } });
      if (ended?.status === "processing") {
        await prisma.script.update({ where: { projectId: project.id }, data: { status: "cancelled", error: "Script generation was stopped" } });
        return { ...base, status: "cancelled", script: null, progress: null, error: "Script generation was stopped", isStuck: false };
      }
      return getScriptStatus(project);
    }
    return { ...base, status: "processing", script: null, progress: run.progress, error: null, isStuck: isStuck(script) };
  }
  const status: ScriptStatus = script.status === "completed" ? "completed" : script.status === "cancelled" ? "cancelled" : "error";
  return { ...base, status, script: script.text, progress: null, error: script.error, isStuck: false, writtenBy: script.writtenBy };
}
