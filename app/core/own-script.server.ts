// The creator's own script (issue 33): typed, pasted or loaded on /create, or edited on /script, saved as the
// project's completed script without a word changed. When the project has a storyboard, the scenes whose words
// did not change keep their pictures and voiceovers; the rest are laid out anew (one transaction).
// The one writer of a script the creator wrote: the script page's save (app/server/script.server.ts, which first
// checks the owner and stops a draft being written) and the make-video workflow's script stage (issue 32) use it.
import type { Project } from "~/generated/prisma/client";
import { OWN_SCRIPT_WRITER, normaliseOwnScript, ownScriptProblem, ownScriptWords, planScriptEdit, type ScriptEditPlan } from "~/lib/own-script";
import { targetWordsFor } from "~/lib/script";
import { splitVoiceover } from "~/providers/text/scenes";
import { refusal } from "./refusal.server";
import { prisma } from "./db.server";
import { applySceneLayout, type LayoutItem } from "./scene-layout.server";

export { OWN_SCRIPT_MAX_CHARS, OWN_SCRIPT_WRITER } from "~/lib/own-script";

export type SavedOwnScript = {
  wordCount: number;
  /** what happened to the storyboard's scenes (null: the project had no scenes yet) */
  scenes: { kept: number[]; changed: number[]; added: number; total: number } | null;
};

/** The text as it will be saved, or a thrown 400/413 JSON response `{ message, field: "text" }`. */
export function checkedOwnScript(text: unknown): string {
  if (typeof text !== "string") throw refusal(400, "text: Send the script as a string.", { field: "text" });
  const normalised = normaliseOwnScript(text);
  const problem = ownScriptProblem(normalised);
  if (problem) throw refusal(problem.status, problem.message, { field: "text" });
  return normalised;
}

/** Average words a scene of this storyboard holds (for cutting new words into scenes of a similar size). */
function wordsPerScene(texts: string[]): number {
  const words = texts.reduce((sum, t) => sum + t.split(/\s+/).filter(Boolean).length, 0);
  return texts.length ? Math.max(5, words / texts.length) : 40;
}

/**
 * Writes `text` (already checked: checkedOwnScript) as `project`'s completed script, by the creator, and lays the
 * storyboard's scenes out anew when it has some (kept scenes keep their media). One transaction: nothing is
 * half-saved. The caller has checked the project is the user's and its scenes may change.
 */
export async function writeOwnScript(project: Project, text: string): Promise<SavedOwnScript> {
  const storyboard = await prisma.storyboard.findUnique({
    where: { projectId: project.id },
    include: { cells: { orderBy: { cellIndex: "asc" }, select: { id: true, voiceoverText: true } } },
  });
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
