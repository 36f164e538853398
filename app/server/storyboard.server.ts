// The storyboard stage as the web side sees it: start the split, read its status and cells, edit a cell,
// and generate scene media (one scene, or all at once) through their workflows.
import { WorkflowFailedError, WorkflowNotFoundError } from "@temporalio/client";
import type { Project } from "~/generated/prisma/client";
import { captionStyleFor, type CaptionStyle } from "~/lib/caption-style";
import { estimatedDurationFor } from "~/lib/storyboard";
import { resolutionValue } from "~/lib/video-format";
import {
  generateAllProgressQuery,
  generateAllWorkflowId,
  sceneImageWorkflowId,
  sceneVoiceoverWorkflowId,
  type GenerateAllProgress,
} from "../../workflows/shared/scene-media";
import type { generateAllContentWorkflow, sceneImageWorkflow, sceneVoiceoverWorkflow } from "../../workflows/scene-media";
import { innermostMessage } from "../../workflows/shared/errors";
import { storyboardWorkflowId } from "../../workflows/shared/storyboard";
import type { storyboardWorkflow } from "../../workflows/storyboard";
import { prisma } from "~/core/db.server";
import { endedUnrecorded, forgetWorkflow, progressCache, workflowSnapshot } from "./progress-cache.server";
import { readStoryboardForStatus } from "./status-reads.server";
import { getTemporalClient, startWorkflow, WorkflowAlreadyRunningError, workflowIsRunning } from "./temporal.server";
import { refusal } from "~/core/refusal.server";
import { DROP_VOICE } from "~/core/scene-layout.server";

export const NO_SCRIPT_MESSAGE = "No script available to generate storyboard from";

export type StoryboardCellView = {
  /** the scene's row id: what scene editing names a scene by (its index changes as scenes move) */
  id: string;
  cellIndex: number;
  imagePrompt: string;
  voiceoverText: string;
  imageUrl: string | null;
  audioUrl: string | null;
  estimatedDuration: number;
  audioDuration: number | null;
  /** generated, or the creator's own: "upload" or "project_image" (Undo brings the generated one back) */
  imageSource: "generated" | "upload" | "project_image";
  /** a short muted clip shown instead of the image; imageUrl is then its first frame */
  clipUrl: string | null;
  clipDuration: number | null;
  /** who made the scene's stock photo or clip (Pexels), shown on the card and credited in the description */
  mediaCredit: { kind: "photo" | "video"; author: string; pageUrl: string } | null;
  /** when each word of the voiceover is spoken (JSON as stored; read with storedWordTimings) */
  wordTimings: unknown;
  /** the image provider that made the generated picture, by name (null: not recorded) */
  imageMadeBy: string | null;
  /** the speech provider that spoke the voiceover, by name (null: not recorded) */
  voiceMadeBy: string | null;
};

const CELL_VIEW = {
  id: true,
  cellIndex: true,
  imagePrompt: true,
  voiceoverText: true,
  imageUrl: true,
  audioUrl: true,
  estimatedDuration: true,
  audioDuration: true,
  imageSource: true,
  clipUrl: true,
  clipDuration: true,
  mediaCredit: true,
  wordTimings: true,
  imageMadeBy: true,
  voiceMadeBy: true,
} as const;

type CellRow = Omit<StoryboardCellView, "mediaCredit"> & { mediaCredit: unknown };

function toView(row: CellRow): StoryboardCellView {
  const credit = row.mediaCredit as { kind?: unknown; author?: unknown; pageUrl?: unknown } | null;
  const valid = credit && (credit.kind === "photo" || credit.kind === "video") && typeof credit.author === "string" && typeof credit.pageUrl === "string";
  return { ...row, mediaCredit: valid ? { kind: credit.kind as "photo" | "video", author: credit.author as string, pageUrl: credit.pageUrl as string } : null };
}


/** Starts splitting the project's script into scenes, unless scenes exist or a split is under way. */
export async function startStoryboardGeneration(userId: string, project: Project) {
  const script = await prisma.script.findUnique({ where: { projectId: project.id } });
  if (script?.status !== "completed" || !script.text) throw refusal(400, NO_SCRIPT_MESSAGE);
  const existing = await prisma.storyboard.findUnique({ where: { projectId: project.id }, include: { _count: { select: { cells: true } } } });
  const workflowId = storyboardWorkflowId(project.id);
  if (existing?.status === "completed" && existing._count.cells > 0) return { existing: true, status: "completed" as const };
  if (existing?.status === "processing" && (await workflowIsRunning(workflowId))) return { processing: true, status: "processing" as const };
  await prisma.storyboard.upsert({
    where: { projectId: project.id },
    create: { projectId: project.id, title: project.title, status: "processing", workflowId },
    update: { title: project.title, status: "processing", error: null, workflowId },
  });
  try {
    await startWorkflow<typeof storyboardWorkflow>("storyboardWorkflow", {
      workflowId,
      args: [{ projectId: project.id, userId }],
      memo: { userId, projectId: project.id, projectTitle: project.title },
    });
    forgetWorkflow(workflowId);
  } catch (e) {
    if (e instanceof WorkflowAlreadyRunningError) return { processing: true, status: "processing" as const };
    await prisma.storyboard.update({ where: { projectId: project.id }, data: { status: "error", error: "Failed to start storyboard generation" } });
    throw e;
  }
  return { started: true, status: "processing" as const };
}

export async function getStoryboardStatus(project: Project | null) {
  if (!project) return { status: "not_found" as const, cellCount: 0 };
  // one query with the scene count (decision 186: a poll's cost is its reads)
  const storyboard = await readStoryboardForStatus(project.id);
  if (!storyboard) return { status: "not_found" as const, cellCount: 0 };
  const ended =
    storyboard.status === "processing" &&
    !!storyboard.workflowId &&
    endedUnrecorded(await workflowSnapshot(storyboard.workflowId, null, storyboard.updatedAt), storyboard.updatedAt);
  if (ended) {
    // terminated by an operator: say so rather than spin forever
    const message = "Storyboard generation was stopped";
    await prisma.storyboard.updateMany({ where: { id: storyboard.id, status: "processing" }, data: { status: "error", error: message } });
    return { status: "error" as const, cellCount: storyboard.cellCount, title: storyboard.title, error: message };
  }
  const status = storyboard.status === "completed" ? "completed" : storyboard.status === "processing" ? "processing" : "error";
  return {
    status,
    cellCount: storyboard.cellCount,
    title: storyboard.title,
    error: storyboard.error,
    // who split the script into scenes, and since when a split has been running (the page shows the time)
    splitBy: storyboard.splitBy,
    startedAt: status === "processing" ? storyboard.updatedAt.toISOString() : null,
  };
}

export async function listCells(projectId: string): Promise<StoryboardCellView[]> {
  const rows = await prisma.storyboardCell.findMany({
    where: { storyboard: { projectId } },
    orderBy: { cellIndex: "asc" },
    select: CELL_VIEW,
  });
  return rows.map(toView);
}

export async function updateCell(projectId: string, edit: { cellIndex: number; imagePrompt?: string; voiceoverText?: string }) {
  const cell = await prisma.storyboardCell.findFirst({ where: { cellIndex: edit.cellIndex, storyboard: { projectId } } });
  if (!cell) throw refusal(404, `Scene ${edit.cellIndex + 1} does not exist`, { field: "cellIndex" });
  const row = await prisma.storyboardCell.update({
    where: { id: cell.id },
    data: {
      ...(edit.imagePrompt !== undefined ? { imagePrompt: edit.imagePrompt } : {}),
      // new words drop the voiceover that said the old ones, as an edited script does (scene-layout.server.ts): the
      // card offers to speak it again and Generate All makes it, instead of a video saying what the text no longer does
      ...(edit.voiceoverText !== undefined && edit.voiceoverText !== cell.voiceoverText
        ? { voiceoverText: edit.voiceoverText, estimatedDuration: estimatedDurationFor(edit.voiceoverText), ...DROP_VOICE }
        : {}),
    },
    select: CELL_VIEW,
  });
  return toView(row);
}

/**
 * Generates one scene's image or voiceover and answers with its URL, as the spec's calls do. The work runs as
 * a workflow (retries, visible to operators); a second request for the same scene joins the one running.
 */
export async function generateSceneMedia(userId: string, project: Project, cellIndex: number, kind: "image" | "voiceover") {
  const cell = await prisma.storyboardCell.findFirst({ where: { cellIndex, storyboard: { projectId: project.id } } });
  if (!cell) throw refusal(404, `Scene ${cellIndex + 1} does not exist`, { field: "cellIndex" });
  const client = await getTemporalClient();
  const workflowId = kind === "image" ? sceneImageWorkflowId(project.id, cellIndex) : sceneVoiceoverWorkflowId(project.id, cellIndex);
  const workflowType = kind === "image" ? "sceneImageWorkflow" : "sceneVoiceoverWorkflow";
  try {
    await startWorkflow<typeof sceneImageWorkflow | typeof sceneVoiceoverWorkflow>(workflowType, {
      workflowId,
      args: [{ projectId: project.id, userId, cellIndex }],
      memo: { userId, projectId: project.id, projectTitle: project.title },
    });
  } catch (e) {
    if (!(e instanceof WorkflowAlreadyRunningError)) throw e; // a second request joins the run in flight
  }
  try {
    return (await client.workflow.getHandle(workflowId).result()) as { imageUrl?: string; audioUrl?: string };
  } catch (e) {
    // the provider's reason (a rejected key, a refused prompt), after the activity's retries
    if (e instanceof WorkflowFailedError) throw refusal(502, innermostMessage(e) || `The ${kind} could not be generated`);
    throw e;
  }
}

export async function startGenerateAll(userId: string, project: Project) {
  try {
    const handle = await startWorkflow<typeof generateAllContentWorkflow>("generateAllContentWorkflow", {
      workflowId: generateAllWorkflowId(project.id),
      args: [{ projectId: project.id, userId }],
      memo: { userId, projectId: project.id, projectTitle: project.title },
    });
    progressCache().forget(generateAllKey(project.id));
    // the page watches this run by its id: a short run can end before the page's first poll sees it running
    return { started: true, runId: handle.firstExecutionRunId };
  } catch (e) {
    if (e instanceof WorkflowAlreadyRunningError) return { started: false, processing: true };
    throw e;
  }
}

export type GenerateAllView = (GenerateAllProgress & { running: boolean; runId: string }) | null;
const generateAllKey = (projectId: string) => `generate-all:${projectId}`;

/**
 * Generate All's progress while it runs, its summary once done, or null when none has run; with the run's id.
 * From the progress cache: Temporal is asked at most once a second per project, however many pages watch.
 */
export function getGenerateAllProgress(project: Project): Promise<GenerateAllView> {
  return progressCache().read(generateAllKey(project.id), () => fetchGenerateAllProgress(project), { ended: (view) => view !== null && !view.running });
}

async function fetchGenerateAllProgress(project: Project): Promise<GenerateAllView> {
  const client = await getTemporalClient();
  const handle = client.workflow.getHandle(generateAllWorkflowId(project.id));
  try {
    const description = await client.withDeadline(Date.now() + 5000, () => handle.describe());
    if (description.status.name === "RUNNING") {
      const progress = await client.withDeadline(Date.now() + 2000, () => handle.query(generateAllProgressQuery)).catch(() => null);
      return progress ? { ...progress, running: true, runId: description.runId } : null;
    }
    if (description.status.name === "COMPLETED") return { ...((await handle.result()) as GenerateAllProgress), running: false, runId: description.runId };
    return null;
  } catch (e) {
    if (e instanceof WorkflowNotFoundError) return null;
    throw e;
  }
}

/** The project's caption style as the storyboard shows it: what was chosen, and what applies (the format's default). */
export function getCaptionStyle(project: Project): { chosen: boolean; style: CaptionStyle } {
  return { chosen: project.captionPreset !== null, style: captionStyleFor(resolutionValue(project.resolution), project) };
}

/** Remembers the caption style for the project's preview and its next render. */
export async function setCaptionStyle(project: Project, style: CaptionStyle) {
  const updated = await prisma.project.update({
    where: { id: project.id },
    data: { captionPreset: style.preset, captionPosition: style.position, captionSize: style.size },
  });
  return getCaptionStyle(updated);
}
