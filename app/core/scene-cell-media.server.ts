// A scene showing the creator's own media (decision 071): the scene's row points at the picture (and clip), the
// generated ones kept for Undo; and the worker's half of an uploaded clip (decision 072), which converts it and
// shows it there. No workflows here, so the worker's activities import it without reaching the web stage module.
import fsp from "node:fs/promises";
import { Prisma, type MediaFile, type Project, type StoryboardCell } from "~/generated/prisma/client";
import { resolutionValue, videoSizeFor } from "~/lib/video-format";
import { refusal } from "./refusal.server";
import { prisma } from "./db.server";
import { deleteMedia, mediaUrl, withLocalMediaCopy } from "./storage.server";
import { SceneMediaRejection, prepareSceneClip, storePreparedClip } from "./scene-media-files.server";

/** A scene with no generated media kept behind what it shows (nothing for Undo to bring back). */
export const NO_KEPT_GENERATED_MEDIA = {
  generatedImageUrl: null,
  generatedImageFileId: null,
  generatedClipUrl: null,
  generatedClipFileId: null,
  generatedClipDuration: null,
  generatedMediaCredit: Prisma.DbNull,
};

/**
 * The scene-media workflow's work on an uploaded clip (decision 072): the raw upload, stored by the web request,
 * is converted, stored and shown on the scene; the raw upload is removed whatever happens.
 */
export async function convertUploadedClip(
  input: { userId: string; projectId: string; cellIndex: number; uploadFileId: string },
  onProgress?: (share: number) => void,
): Promise<{ imageUrl: string; clipUrl: string }> {
  const raw = await prisma.mediaFile.findFirst({ where: { id: input.uploadFileId, userId: input.userId, projectId: input.projectId } });
  if (!raw) throw new SceneMediaRejection(410, "The uploaded clip is gone (it was removed before it could be converted). Upload it again.");
  try {
    const project = await prisma.project.findFirstOrThrow({ where: { id: input.projectId, userId: input.userId } });
    // the worker converts a local copy (the stored file itself with the local folder)
    return await withLocalMediaCopy(raw, (rawPath) => importSceneClip(input.userId, project, input.cellIndex, rawPath, onProgress));
  } finally {
    await deleteMedia(raw).catch(() => {});
  }
}

/** Converts the clip at `inputPath` and shows it on the scene as the creator's upload. */
export async function importSceneClip(userId: string, project: Project, cellIndex: number, inputPath: string, onProgress?: (share: number) => void) {
  const cell = await findCell(project.id, cellIndex);
  const size = videoSizeFor(resolutionValue(project.resolution), 1080);
  const clip = await prepareSceneClip(inputPath, size, { onProgress });
  try {
    const stored = await storePreparedClip(userId, project, clip);
    await showOwnMedia(cell, stored.poster, "upload", { file: stored.file, durationSeconds: stored.durationSeconds });
    return { imageUrl: mediaUrl(stored.poster), clipUrl: mediaUrl(stored.file) };
  } finally {
    await fsp.rm(clip.dir, { recursive: true, force: true });
  }
}

export async function findCell(projectId: string, cellIndex: number): Promise<StoryboardCell> {
  const cell = await prisma.storyboardCell.findFirst({ where: { cellIndex, storyboard: { projectId } } });
  if (!cell) throw refusal(404, `Scene ${cellIndex + 1} does not exist`, { field: "cellIndex" });
  return cell;
}

/** Points the scene at the creator's picture (and clip), keeping the generated image for Undo. */
export async function showOwnMedia(cell: StoryboardCell, image: Pick<MediaFile, "id">, source: "upload" | "project_image", clip?: { file: Pick<MediaFile, "id">; durationSeconds: number }) {
  const keep =
    cell.imageSource === "generated"
      ? {
          generatedImageUrl: cell.imageUrl,
          generatedImageFileId: cell.imageFileId,
          generatedClipUrl: cell.clipUrl,
          generatedClipFileId: cell.clipFileId,
          generatedClipDuration: cell.clipDuration,
          generatedMediaCredit: cell.mediaCredit ?? Prisma.DbNull,
        }
      : {};
  await prisma.storyboardCell.update({
    where: { id: cell.id },
    data: {
      ...keep,
      imageUrl: mediaUrl(image),
      imageFileId: image.id,
      imageSource: source,
      clipUrl: clip ? mediaUrl(clip.file) : null,
      clipFileId: clip?.file.id ?? null,
      clipDuration: clip?.durationSeconds ?? null,
      mediaCredit: Prisma.DbNull,
    },
  });
}
