// Deleting a project: its running workflows are stopped first (so nothing writes into it afterwards), then
// its media files (files and rows), then the project's rows (the schema cascades from Project). Only the
// owner can delete; another user's id answers 404 exactly like a missing one. Frees the free plan's slot.
import type { Client } from "@temporalio/client";
import { prisma } from "~/core/db.server";
import { getProjectForUser } from "~/core/projects.server";
import { deleteMedia } from "~/core/storage.server";
import { getTemporalClient, workflowIsRunning } from "./temporal.server";
import { stopPlatformPostWorkflows } from "./platforms/platform-post-stop.server";
import { stopWorkflows } from "./workflow-stop.server";

/**
 * Every stage's workflow id starts with "<stage>-<projectId>" (script-, storyboard-, generate-all-,
 * scene-image-<project>-<scene>, render-, and the later stages'). Listed here so a new stage's prefix is one line.
 */
export const PROJECT_WORKFLOW_PREFIXES = [
  "script",
  "storyboard",
  "generate-all",
  "scene-image",
  "scene-voiceover",
  "render",
  "music",
  "music-track",
  "background-music",
  "thumbnail",
  "metadata",
  "upload",
  "youtube-upload",
  "animate-scenes",
  "scene-check",
] as const;

/** Whether a workflow id belongs to this project (the project id is a cuid: no other project's id contains it). */
export function isProjectWorkflowId(workflowId: string, projectId: string): boolean {
  return PROJECT_WORKFLOW_PREFIXES.some((prefix) => workflowId === `${prefix}-${projectId}` || workflowId.startsWith(`${prefix}-${projectId}-`));
}

const quote = (value: string) => `'${value.replace(/['\\]/g, "")}'`;

/**
 * The ids of the project's running workflows: those Temporal's visibility store lists, plus the one-per-project
 * ids asked directly (visibility lags a moment behind a workflow started just now).
 */
async function runningWorkflowIds(client: Client, projectId: string): Promise<string[]> {
  const prefixes = PROJECT_WORKFLOW_PREFIXES.map((p) => `WorkflowId STARTS_WITH ${quote(`${p}-${projectId}`)}`).join(" OR ");
  const ids = new Set<string>();
  for await (const execution of client.workflow.list({ query: `ExecutionStatus = 'Running' AND (${prefixes})` })) {
    if (isProjectWorkflowId(execution.workflowId, projectId)) ids.add(execution.workflowId);
  }
  const direct = PROJECT_WORKFLOW_PREFIXES.map((p) => `${p}-${projectId}`).filter((id) => !ids.has(id));
  const running = await Promise.all(direct.map((id) => workflowIsRunning(id)));
  direct.forEach((id, i) => running[i] && ids.add(id));
  return [...ids];
}

/** Asks each workflow to cancel (they record their own ending); terminates those still running after a grace period. */
export async function stopProjectWorkflows(projectId: string): Promise<string[]> {
  const client = await getTemporalClient();
  const ids = await runningWorkflowIds(client, projectId);
  await stopWorkflows(ids, "The project was deleted");
  return ids;
}

export type DeletedProject = { id: string; title: string; filesRemoved: number; workflowsStopped: number };

/** DELETE /api/projects/{id}. */
export async function deleteProject(userId: string, projectId: string): Promise<DeletedProject> {
  const project = await getProjectForUser(userId, projectId);
  // its TikTok/Instagram posts' workflows are keyed by the post, not the project: stopped before their rows go
  await stopPlatformPostWorkflows({ userId, projectId: project.id });
  const stopped = await stopProjectWorkflows(project.id);

  // Files recorded under the project, and any file its rows point at (all of them the user's own).
  const [owned, cells, tracks, videos, thumbnails] = await Promise.all([
    prisma.mediaFile.findMany({ where: { projectId: project.id, userId }, select: { id: true } }),
    prisma.storyboardCell.findMany({ where: { storyboard: { projectId: project.id } }, select: { imageFileId: true, audioFileId: true } }),
    prisma.musicTrack.findMany({ where: { projectId: project.id }, select: { mediaFileId: true } }),
    prisma.renderedVideo.findMany({ where: { projectId: project.id }, select: { mediaFileId: true } }),
    prisma.thumbnail.findMany({ where: { projectId: project.id }, select: { mediaFileId: true } }),
  ]);
  const referenced = [
    ...cells.flatMap((c) => [c.imageFileId, c.audioFileId]),
    ...tracks.map((t) => t.mediaFileId),
    ...videos.map((v) => v.mediaFileId),
    ...thumbnails.map((t) => t.mediaFileId),
  ].filter((id): id is string => Boolean(id));
  const referencedOwned = referenced.length
    ? await prisma.mediaFile.findMany({ where: { id: { in: referenced }, userId }, select: { id: true } })
    : [];
  const fileIds = [...new Set([...owned, ...referencedOwned].map((f) => f.id))];
  for (const id of fileIds) await deleteMedia(id);
  // its uploads' publish claims (decision 270) are keyed "<upload id>/<platform>", without a relation
  const uploads = await prisma.youtubeUpload.findMany({ where: { projectId: project.id }, select: { id: true } });

  await prisma.$transaction([
    // rows keyed by the project's id without a relation (issue 50) go with it
    prisma.sceneTransitions.deleteMany({ where: { projectId: project.id } }),
    prisma.sceneCheck.deleteMany({ where: { projectId: project.id } }),
    ...(uploads.length ? [prisma.publishClaim.deleteMany({ where: { OR: uploads.map((u) => ({ key: { startsWith: `${u.id}/` } })) } })] : []),
    prisma.project.deleteMany({ where: { id: project.id, userId } }),
    prisma.user.updateMany({ where: { id: userId, currentProjectId: project.id }, data: { currentProjectId: null } }),
  ]);
  return { id: project.id, title: project.title, filesRemoved: fileIds.length, workflowsStopped: stopped.length };
}
