// A video's transitions (issue 50, decision 225), kept per project: the video's kind and length, and per-scene
// choices. Read by the render plan and the storyboard's live preview.
import { FOLLOW_VIDEO, TRANSITION_CHOICES, NO_TRANSITIONS, type TransitionChoice, type VideoTransitions } from "~/lib/transitions";
import { prisma } from "~/core/db.server";

const isChoice = (v: unknown): v is TransitionChoice => typeof v === "string" && (TRANSITION_CHOICES as readonly string[]).includes(v);

export async function getTransitions(projectId: string): Promise<VideoTransitions> {
  const row = await prisma.sceneTransitions.findUnique({ where: { projectId } });
  if (!row) return NO_TRANSITIONS;
  const perScene: Record<string, TransitionChoice> = {};
  for (const [k, v] of Object.entries((row.perScene ?? {}) as Record<string, unknown>)) if (/^\d+$/.test(k) && isChoice(v)) perScene[k] = v;
  return { kind: isChoice(row.kind) ? row.kind : "none", seconds: row.seconds, perScene };
}

/** Saves the video's choices; a scene given FOLLOW_VIDEO ("video") drops its own choice and follows the video's. */
export async function saveTransitions(projectId: string, input: Partial<Omit<VideoTransitions, "perScene">> & { perScene?: Record<string, TransitionChoice | typeof FOLLOW_VIDEO> }): Promise<VideoTransitions> {
  const current = await getTransitions(projectId);
  const perScene: Record<string, TransitionChoice> = { ...current.perScene };
  for (const [index, choice] of Object.entries(input.perScene ?? {})) {
    if (choice === FOLLOW_VIDEO) delete perScene[index];
    else perScene[index] = choice;
  }
  const next = { kind: input.kind ?? current.kind, seconds: input.seconds ?? current.seconds, perScene };
  await prisma.sceneTransitions.upsert({ where: { projectId }, create: { projectId, ...next }, update: next });
  return next;
}
