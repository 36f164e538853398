// A scene's replaced picture, clip or voice (a regeneration put a new one on the scene) is deleted, unless a render
// still in progress planned to draw it: its plan names the file, and a chunk may read it an hour later. Such a file
// is left for Project Maintenance's orphaned-files cleanup (cleanup.server.ts), as a dropped voice is (decision 278).
import { prisma } from "./db.server";
import { deleteMedia } from "./storage.server";

/** Of `ids`, those a render of the project still in progress planned to draw. */
export async function mediaHeldByRenders(projectId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const plans = await prisma.renderPlan.findMany({ where: { render: { projectId, status: { in: ["pending", "processing"] } } }, select: { scenes: true } });
  if (plans.length === 0) return new Set();
  const named = plans.map((plan) => JSON.stringify(plan.scenes)).join("\n");
  return new Set(ids.filter((id) => named.includes(id)));
}

/** Deletes the scene media a regeneration replaced, but not what a render in progress is drawing. Never throws. */
export async function deleteReplacedMedia(projectId: string, ids: (string | null | undefined)[]): Promise<void> {
  const wanted = [...new Set(ids.filter((id): id is string => !!id))];
  const held = await mediaHeldByRenders(projectId, wanted).catch(() => new Set(wanted));
  for (const id of wanted) if (!held.has(id)) await deleteMedia(id).catch(() => {});
}
