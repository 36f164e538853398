// The creator's own script (issue 33): typed, pasted or loaded on /create, or edited on /script, saved as the
// project's completed script without a word changed. When the project has a storyboard, the scenes whose words
// did not change keep their pictures and voiceovers; the rest are laid out anew (one transaction).
// Also called by the make-video workflow (issue 32) for videos made from a script.
import { OWN_SCRIPT_WRITER, normaliseOwnScript, ownScriptProblem, ownScriptWords, planScriptEdit, scriptSections, type ScriptEditPlan } from "~/lib/own-script";
import { targetWordsFor } from "~/lib/script";
import { splitVoiceover } from "~/providers/text/scenes";
import { jsonError } from "./api.server";
import { prisma } from "./db.server";
import { forgetWorkflow } from "./progress-cache.server";
import { getProjectForUser } from "./projects.server";
import { applySceneLayout, assertScenesEditable, type LayoutItem } from "./scene-layout.server";
import { getTemporalClient } from "./temporal.server";
import { userProviders } from "./providers.server";

export { OWN_SCRIPT_MAX_CHARS, OWN_SCRIPT_WRITER } from "~/lib/own-script";

export type SavedOwnScript = {
  wordCount: number;
  /** what happened to the storyboard's scenes (null: the project had no scenes yet) */
  scenes: { kept: number[]; changed: number[]; added: number; total: number } | null;
};

/** The text as it will be saved, or a thrown 400/413 JSON response `{ message, field: "text" }`. */
export function checkedOwnScript(text: unknown): string {
  if (typeof text !== "string") throw jsonError(400, "text: Send the script as a string.", { field: "text" });
  const normalised = normaliseOwnScript(text);
  const problem = ownScriptProblem(normalised);
  if (problem) throw jsonError(problem.status, problem.message, { field: "text" });
  return normalised;
}

/** Average words a scene of this storyboard holds (for cutting new words into scenes of a similar size). */
function wordsPerScene(texts: string[]): number {
  const words = texts.reduce((sum, t) => sum + t.split(/\s+/).filter(Boolean).length, 0);
  return texts.length ? Math.max(5, words / texts.length) : 40;
}

/**
 * Saves `text` as the project's script, written by the creator. Only the project's owner may (another user's
 * project: 404, as if it did not exist). Empty or binary text: 400; over OWN_SCRIPT_MAX_CHARS: 413. A script being
 * written for the project is stopped first. Nothing is half-saved: the script and the scenes change together.
 */
export async function saveOwnScript(input: { userId: string; projectId: string; text: unknown }): Promise<SavedOwnScript> {
  const project = await getProjectForUser(input.userId, input.projectId);
  const text = checkedOwnScript(input.text);
  const storyboard = await prisma.storyboard.findUnique({
    where: { projectId: project.id },
    include: { cells: { orderBy: { cellIndex: "asc" }, select: { id: true, voiceoverText: true } } },
  });
  if (storyboard?.cells.length) await assertScenesEditable(project.id, storyboard.status);

  const existing = await prisma.script.findUnique({ where: { projectId: project.id } });
  if (existing?.status === "processing" && existing.workflowId) {
    // the creator's words replace the draft being written; its run must not overwrite them when it ends
    const client = await getTemporalClient();
    await client.workflow.getHandle(existing.workflowId).terminate("Replaced by the creator's own script").catch(() => {});
    forgetWorkflow(existing.workflowId);
  }

  let plan: ScriptEditPlan | null = null;
  if (storyboard?.cells.length) {
    const old = storyboard.cells.map((c) => c.voiceoverText);
    plan = planScriptEdit(old, text, { wordsPerScene: wordsPerScene(old), split: (section, n) => splitVoiceover(section, n) });
  }
  const wordCount = ownScriptWords(text);
  const now = new Date();
  await prisma.$transaction(async (tx) => {
    const data = { status: "completed" as const, text, wordCount, error: null, completedAt: now, writtenBy: OWN_SCRIPT_WRITER, workflowId: null };
    await tx.script.upsert({
      where: { projectId: project.id },
      create: { projectId: project.id, targetWords: targetWordsFor(project.durationSeconds), startedAt: now, ...data },
      update: data,
    });
    if (storyboard && plan) {
      const layout: LayoutItem[] = plan.scenes.map((scene) => (scene.keeps === null ? { create: { text: scene.text } } : { keep: storyboard.cells[scene.keeps]!.id }));
      await applySceneLayout(tx, project, storyboard.id, layout);
    }
  });
  return {
    wordCount,
    scenes: plan
      ? { kept: plan.kept.map((k) => k.from), changed: plan.changed, added: plan.scenes.filter((s) => s.keeps === null).length, total: plan.scenes.length }
      : null,
  };
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
    throw jsonError(413, `Proofreading is offered for scripts of up to ${PROOFREAD_MAX_WORDS.toLocaleString("en-US")} words; this one has ${words.toLocaleString("en-US")}.`, { field: "text" });
  }
  const sections = scriptSections(text);
  const { text: writer } = await userProviders(userId);
  const proofread = normaliseOwnScript(await writer.proofreadScript({ title: input.title, text: sections.join("\n\n"), language: input.language }));
  const after = scriptSections(proofread);
  return { text: proofread, changed: after.join("\n") !== sections.join("\n"), by: writer.name, breaksKept: after.length === sections.length };
}
