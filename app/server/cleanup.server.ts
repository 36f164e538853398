// Project Maintenance: voiceover and image files that no storyboard scene points to any more (replaced by a
// regeneration, or left by a failed run) are found and deleted.
import { CLEANUP_PROJECT_ID } from "~/lib/constants";
import { prisma } from "~/core/db.server";
import { logError } from "~/core/error-log.server";
import { deleteMedia, mediaIdFromUrl, withByteCount, type StoredMediaFile } from "~/core/storage.server";

export type CleanupCounts = { deleted: number; orphaned: number };
export type CleanupResult = { voiceoverFiles: CleanupCounts; imageFiles: CleanupCounts };

/** A file saved moments ago may belong to a generation that has not yet pointed its scene at it. */
export const ORPHAN_GRACE_MS = 5 * 60 * 1000;

/**
 * The project to clean for a request naming `projectIdParam`: that project when the caller owns it; the spec's
 * fixed id (2) stands for the caller's current project. Returns undefined for anything else (answer 404),
 * null when the fixed id is used and the caller has no current project.
 */
export async function resolveCleanupProject(userId: string, projectIdParam: string): Promise<string | null | undefined> {
  const owned = await prisma.project.findFirst({ where: { id: projectIdParam, userId }, select: { id: true } });
  if (owned) return owned.id;
  if (projectIdParam !== String(CLEANUP_PROJECT_ID)) return undefined;
  const user = await prisma.user.findUnique({ where: { id: userId }, select: { currentProjectId: true } });
  if (!user?.currentProjectId) return null;
  const current = await prisma.project.findFirst({ where: { id: user.currentProjectId, userId }, select: { id: true } });
  return current?.id ?? null;
}

/** Image and voiceover files of the project that no scene refers to, older than the grace period. */
export async function findOrphanedMedia(projectId: string, now = new Date()): Promise<StoredMediaFile[]> {
  const [files, cells] = await Promise.all([
    prisma.mediaFile.findMany({
      where: { projectId, kind: { in: ["image", "voiceover"] }, createdAt: { lt: new Date(now.getTime() - ORPHAN_GRACE_MS) } },
      orderBy: { createdAt: "asc" },
    }),
    prisma.storyboardCell.findMany({
      where: { storyboard: { projectId } },
      select: { imageFileId: true, audioFileId: true, imageUrl: true, audioUrl: true, generatedImageFileId: true },
    }),
  ]);
  const referenced = new Set<string>();
  for (const cell of cells) {
    // the generated image kept for Undo while the creator's own media shows is in use too
    for (const id of [cell.imageFileId, cell.audioFileId, cell.generatedImageFileId, mediaIdFromUrl(cell.imageUrl), mediaIdFromUrl(cell.audioUrl)]) {
      if (id) referenced.add(id);
    }
  }
  return files.filter((f) => !referenced.has(f.id)).map(withByteCount);
}

export async function cleanupProjectMedia(userId: string, projectId: string | null): Promise<CleanupResult> {
  const result: CleanupResult = { voiceoverFiles: { deleted: 0, orphaned: 0 }, imageFiles: { deleted: 0, orphaned: 0 } };
  if (!projectId) return result;
  const orphans = await findOrphanedMedia(projectId);
  for (const file of orphans) {
    const counts = file.kind === "voiceover" ? result.voiceoverFiles : result.imageFiles;
    counts.orphaned++;
    try {
      await deleteMedia(file);
      counts.deleted++;
    } catch (e) {
      await logError({
        userId,
        type: "media_cleanup",
        message: `Could not delete the orphaned ${file.kind} file ${file.id}: ${(e as Error).message}`,
        context: { projectId, mediaFileId: file.id },
      });
    }
  }
  return result;
}
