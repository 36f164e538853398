// Copies of stored files for a project made from another (a language version, a Short; decision 232). A project
// owns the files its rows show: deleting it (or any clean-up of its media) removes them, so a project made from
// another never points at the other's files; it gets its own copies, streamed from storage to storage.
import type { MediaFile } from "~/generated/prisma/client";
import { prisma } from "~/core/db.server";
import { deleteMedia, mediaIdFromUrl, mediaUrl, openMediaStream, saveMediaFromStream, type StoredMediaFile } from "~/core/storage.server";

type Target = { userId: string; projectId: string };

/** The file copied into `target`'s project (same kind, type, size and duration), or null when there is none. */
export async function copyMediaFile(fileId: string | null | undefined, target: Target): Promise<StoredMediaFile | null> {
  if (!fileId) return null;
  const file: MediaFile | null = await prisma.mediaFile.findFirst({ where: { id: fileId, userId: target.userId } });
  if (!file) return null;
  const extension = file.storageKey.match(/\.([a-z0-9]{1,8})$/i)?.[1] ?? "bin";
  return saveMediaFromStream({
    userId: target.userId,
    projectId: target.projectId,
    kind: file.kind,
    mimeType: file.mimeType,
    extension,
    durationSeconds: file.durationSeconds,
    width: file.width,
    height: file.height,
    stream: await openMediaStream(file),
  });
}

/** A cell's file as the copy's url and id; the url kept as it was when it is not one of our files (an outside link). */
export async function copiedMedia(url: string | null, fileId: string | null, target: Target): Promise<{ url: string | null; fileId: string | null }> {
  const copy = await copyMediaFile(fileId, target);
  return copy ? { url: mediaUrl(copy), fileId: copy.id } : { url: fileId ? null : url, fileId: null };
}

/**
 * The source's background music, copied: the completed track its renders use (the newest whose file is there),
 * as a completed track of the target with its own file. Returns the new track's id, or null when the source has none.
 */
export async function copyMusicTrack(sourceProjectId: string, target: Target): Promise<string | null> {
  const tracks = await prisma.musicTrack.findMany({ where: { projectId: sourceProjectId, status: "completed" }, orderBy: { updatedAt: "desc" } });
  for (const track of tracks) {
    const copy = await copyMediaFile(track.mediaFileId ?? mediaIdFromUrl(track.audioUrl), target).catch(() => null);
    if (!copy) continue;
    const made = await prisma.musicTrack.create({
      data: { projectId: target.projectId, title: track.title, prompt: track.prompt, status: "completed", audioUrl: mediaUrl(copy), duration: track.duration, mediaFileId: copy.id },
    });
    return made.id;
  }
  return null;
}

/** A half-made project's end (a Short or version that failed part-way): its files (stored files and rows), then the project. */
export async function discardMadeProject(projectId: string): Promise<void> {
  const files = await prisma.mediaFile.findMany({ where: { projectId }, select: { id: true } });
  for (const file of files) await deleteMedia(file.id).catch(() => undefined);
  await prisma.project.delete({ where: { id: projectId } }).catch(() => undefined);
}
