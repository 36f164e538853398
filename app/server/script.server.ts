// The script stage as the web side sees it: start the workflow, and report its status.
import { STUCK_GENERATION_MS } from "~/lib/constants";
import { resolutionEnum, resolutionValue } from "~/lib/video-format";
import type { VideoDetails } from "~/lib/video-details";
import type { Project, Script } from "~/generated/prisma/client";
import type { scriptWorkflow } from "../../workflows/script";
import { scriptProgressQuery, scriptWorkflowId, type ScriptProgress } from "../../workflows/shared/script";
import { prisma } from "~/core/db.server";
import { endedUnrecorded, forgetWorkflow, workflowSnapshot } from "./progress-cache.server";
import { readScriptForStatus } from "./status-reads.server";
import { getTemporalClient, startWorkflow, WorkflowAlreadyRunningError, workflowIsRunning } from "./temporal.server";
import { normaliseOwnScript, ownScriptWords, scriptSections } from "~/lib/own-script";
import { checkedOwnScript, writeOwnScript, type SavedOwnScript } from "~/core/own-script.server";
import { startScriptRow } from "~/core/script-input.server";
import { getProjectForUser } from "~/core/projects.server";
import { userProviders } from "./providers.server";
import { assertScenesEditable } from "./scene-edit.server";
import { refusal } from "~/core/refusal.server";

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
  // Marked processing now, so a status read right after this call already says so (as make-video's script stage).
  const { input, startedAt } = await startScriptRow(userId, { ...project, title: details.title, topic: details.topic, durationSeconds: details.duration });
  try {
    await startWorkflow<typeof scriptWorkflow>("scriptWorkflow", {
      workflowId,
      args: [input],
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

/**
 * Saves `text` as the project's script, written by the creator. Only the project's owner may (another user's
 * project: 404, as if it did not exist). Empty or binary text: 400; over OWN_SCRIPT_MAX_CHARS: 413. A script being
 * written for the project is stopped first; refused (409) while the scenes are being split or generated.
 */
export async function saveOwnScript(input: { userId: string; projectId: string; text: unknown }): Promise<SavedOwnScript> {
  const project = await getProjectForUser(input.userId, input.projectId);
  const text = checkedOwnScript(input.text);
  const storyboard = await prisma.storyboard.findUnique({ where: { projectId: project.id }, select: { status: true, _count: { select: { cells: true } } } });
  if (storyboard?._count.cells) await assertScenesEditable(project.id, storyboard.status);

  const existing = await prisma.script.findUnique({ where: { projectId: project.id } });
  if (existing?.status === "processing" && existing.workflowId) {
    // the creator's words replace the draft being written; its run must not overwrite them when it ends
    const client = await getTemporalClient();
    await client.workflow.getHandle(existing.workflowId).terminate("Replaced by the creator's own script").catch(() => {});
    forgetWorkflow(existing.workflowId);
  }
  return writeOwnScript(project, text);
}

/** Proofreading is offered for scripts up to this many words: the provider answers within the request. */
export const PROOFREAD_MAX_WORDS = 3000;

export type ProofreadSuggestion = {
  /** the proofread text, each scene break as a blank line */
  text: string;
  /** false: the proofreader found nothing to change */
  changed: boolean;
  /** who proofread it, by name ("Offline writer" tidies spacing and punctuation only) */
  by: string;
  /** the proofreader kept every scene break where it was */
  breaksKept: boolean;
};

/**
 * A proofread copy of `text` offered to the creator (issue 33): nothing is saved, and nothing changes unless they
 * take it. Read by the user's text provider (a model when one is set up; the offline writer tidies spacing and
 * punctuation and drops repeated sentences). Same checks as saving; over PROOFREAD_MAX_WORDS: 413.
 */
export async function proofreadSuggestion(userId: string, input: { text: unknown; title: string; language: string }): Promise<ProofreadSuggestion> {
  const text = checkedOwnScript(input.text);
  const words = ownScriptWords(text);
  if (words > PROOFREAD_MAX_WORDS) {
    throw refusal(413, `Proofreading is offered for scripts of up to ${PROOFREAD_MAX_WORDS.toLocaleString("en-US")} words; this one has ${words.toLocaleString("en-US")}.`, { field: "text" });
  }
  const sections = scriptSections(text);
  const { text: writer } = await userProviders(userId);
  const proofread = normaliseOwnScript(await writer.proofreadScript({ title: input.title, text: sections.join("\n\n"), language: input.language }));
  const after = scriptSections(proofread);
  return { text: proofread, changed: after.join("\n") !== sections.join("\n"), by: writer.name, breaksKept: after.length === sections.length };
}
