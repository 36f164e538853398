// The script stage's start, written once (issue 46, decision 213): the project's script row marked processing under
// the script workflow's id (so a status read right after already says so) and the workflow's input. The script page
// (app/server/script.server.ts) and the make-video workflow's script stage (workflows/activities/make-video.ts) use it.
import type { Project } from "~/generated/prisma/client";
import { scriptWorkflowId, type ScriptWorkflowInput } from "../../workflows/shared/script";
import { prisma } from "./db.server";

/** Marks `project`'s script processing (its text, words and error cleared) and returns the script workflow's input. */
export async function startScriptRow(
  userId: string,
  project: Pick<Project, "id" | "title" | "topic" | "durationSeconds" | "language">,
): Promise<{ input: ScriptWorkflowInput; workflowId: string; startedAt: Date }> {
  const workflowId = scriptWorkflowId(project.id);
  const startedAt = new Date();
  await prisma.script.upsert({
    where: { projectId: project.id },
    create: { projectId: project.id, status: "processing", targetWords: 0, startedAt, workflowId },
    update: { status: "processing", text: null, wordCount: null, error: null, startedAt, completedAt: null, workflowId },
  });
  const input = { projectId: project.id, userId, title: project.title, topic: project.topic, durationSeconds: project.durationSeconds, language: project.language };
  return { input, workflowId, startedAt };
}
