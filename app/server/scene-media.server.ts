// The creator's own media per scene, as the web sees it: an uploaded image or short clip, or one of the project's
// earlier images, replacing the scene's generated picture, and Undo back to it; a clip goes to the worker's
// scene-clip workflow. Everything is scoped to the signed-in creator's own project. The files themselves are
// prepared in scene-media-files.server.ts and shown on a scene by scene-cell-media.server.ts, which the worker's
// activities import too: neither imports a workflow, so the worker never reaches back into this module.
import { z } from "zod";
import type { MediaCredit } from "~/providers/image/pexels.server";
import { Prisma, type Project } from "~/generated/prisma/client";
import { effectiveImageSource, isPexelsSource, type ImageSourceValue } from "~/lib/image-source";
import { resolutionValue, videoSizeFor } from "~/lib/video-format";
import { WorkflowFailedError, WorkflowNotFoundError } from "@temporalio/client";
import { defaultPayloadConverter } from "@temporalio/common";
import type { sceneClipWorkflow } from "../../workflows/scene-media";
import { innermostMessage } from "../../workflows/shared/errors";
import { SCENE_MEDIA_REJECTED, sceneClipWorkflowId, type SceneClipProgress } from "../../workflows/shared/scene-media";
import { getTemporalClient, startWorkflow, WorkflowAlreadyRunningError } from "./temporal.server";
import { prisma } from "~/core/db.server";
import { getProviderKeys } from "~/core/settings.server";
import { deleteMedia, mediaUrl, saveMedia } from "~/core/storage.server";
import { findCell, NO_KEPT_GENERATED_MEDIA, showOwnMedia } from "~/core/scene-cell-media.server";
import { SceneMediaRejection, prepareSceneImage, sniffSceneUpload } from "~/core/scene-media-files.server";
import { discardSceneUpload, type ReceivedSceneUpload } from "./scene-upload.server";
import { refusal } from "~/core/refusal.server";
export { SCENE_MEDIA_LIMITS, SceneMediaRejection } from "~/core/scene-media-files.server";

/** Stores an uploaded image or clip for the scene and shows it there. */
export async function uploadSceneMedia(userId: string, project: Project, cellIndex: number, upload: { data: Buffer; fileName?: string | null }) {
  const cell = await findCell(project.id, cellIndex);
  const kind = await sniffSceneUpload(upload.data, upload.fileName);
  // the size scene images are generated at (HD), so an upload looks like any other scene in the render
  const size = videoSizeFor(resolutionValue(project.resolution), 1080);
  if (kind.kind === "image") {
    const jpeg = await prepareSceneImage(upload.data, size);
    const file = await saveMedia({ userId, projectId: project.id, kind: "image", data: jpeg, mimeType: "image/jpeg", extension: "jpg", ...size });
    await showOwnMedia(cell, file, "upload");
    return { imageUrl: mediaUrl(file), clipUrl: null };
  }
  // A clip is converted by the worker (decision 072): the raw upload is stored for it, then removed by it.
  const raw = await saveMedia({ userId, projectId: project.id, kind: "clip", data: upload.data, mimeType: `video/${kind.type === "mov" ? "quicktime" : kind.type}`, extension: kind.type });
  return convertClipInWorker({ userId, project, cellIndex, uploadFileId: raw.id });
}

/**
 * Shows an upload received as a stream (scene-upload.server.ts) in the scene: an image prepared and stored, a clip
 * (stored raw as it arrived) converted by the worker. A scene that does not exist: 404, and the raw clip is removed.
 */
export async function showReceivedSceneUpload(userId: string, project: Project, cellIndex: number, received: ReceivedSceneUpload) {
  let cell: Awaited<ReturnType<typeof findCell>>;
  try {
    cell = await findCell(project.id, cellIndex);
  } catch (e) {
    await discardSceneUpload(received).catch(() => {});
    throw e;
  }
  if (received.kind === "clip") return convertClipInWorker({ userId, project, cellIndex, uploadFileId: received.file.id });
  const size = videoSizeFor(resolutionValue(project.resolution), 1080);
  const jpeg = await prepareSceneImage(received.data, size);
  const file = await saveMedia({ userId, projectId: project.id, kind: "image", data: jpeg, mimeType: "image/jpeg", extension: "jpg", ...size });
  await showOwnMedia(cell, file, "upload");
  return { imageUrl: mediaUrl(file), clipUrl: null };
}

/** The project's images the creator can pick for a scene: generated ones and uploads, newest first. */
export async function listProjectImages(userId: string, projectId: string) {
  const files = await prisma.mediaFile.findMany({
    where: { userId, projectId, kind: "image" },
    orderBy: { createdAt: "desc" },
    take: 60,
    select: { id: true, width: true, height: true, createdAt: true },
  });
  return files.map((f) => ({ id: f.id, url: mediaUrl(f.id), width: f.width, height: f.height, createdAt: f.createdAt.toISOString() }));
}

/** Shows one of the project's earlier images in the scene; a file of another creator or project is not found. */
export async function pickProjectImage(userId: string, project: Project, cellIndex: number, mediaFileId: string) {
  const file = await prisma.mediaFile.findFirst({ where: { id: mediaFileId, userId, projectId: project.id, kind: "image" } });
  if (!file) throw refusal(404, "That image is not one of this project's images.", { field: "mediaFileId" });
  const cell = await findCell(project.id, cellIndex);
  if (cell.imageFileId === file.id && !cell.clipFileId) return { imageUrl: mediaUrl(file), clipUrl: null };
  await showOwnMedia(cell, file, "project_image");
  return { imageUrl: mediaUrl(file), clipUrl: null };
}

/** Undo: the scene shows its generated image again (or none, when it had none before). */
export async function restoreGeneratedImage(project: Project, cellIndex: number) {
  const cell = await findCell(project.id, cellIndex);
  if (cell.imageSource === "generated") throw refusal(409, `Scene ${cellIndex + 1} already shows its generated image.`, { field: "cellIndex" });
  await prisma.storyboardCell.update({
    where: { id: cell.id },
    data: {
      imageUrl: cell.generatedImageUrl,
      imageFileId: cell.generatedImageFileId,
      imageSource: "generated",
      clipUrl: cell.generatedClipUrl,
      clipFileId: cell.generatedClipFileId,
      clipDuration: cell.generatedClipDuration,
      mediaCredit: cell.generatedMediaCredit ?? Prisma.DbNull,
      ...NO_KEPT_GENERATED_MEDIA,
    },
  });
  return { imageUrl: cell.generatedImageUrl, clipUrl: cell.generatedClipUrl };
}

/** The project's image source: as chosen, as in effect, and which keys the creator saved (Leonardo, Pexels). */
export async function getImageSource(userId: string, project: Project) {
  const keys = await getProviderKeys(userId);
  const leonardoKeySaved = !!keys.leonardoApiKey;
  const pexelsKeySaved = !!keys.pexelsApiKey;
  const chosen = project.imageSource ?? null;
  return { imageSource: chosen, effective: effectiveImageSource(chosen, leonardoKeySaved), leonardoKeySaved, pexelsKeySaved };
}

/** Remembers which source the project's scene images come from; Leonardo and Pexels need the creator's key. */
export async function setImageSource(userId: string, project: Project, source: ImageSourceValue) {
  const keys = await getProviderKeys(userId);
  const leonardoKeySaved = !!keys.leonardoApiKey;
  const pexelsKeySaved = !!keys.pexelsApiKey;
  if (source === "leonardo" && !leonardoKeySaved) throw refusal(400, "Leonardo needs your Leonardo API key: save it in Settings first.", { field: "imageSource" });
  if (isPexelsSource(source) && !pexelsKeySaved) throw refusal(400, "Pexels photos and clips need your free Pexels API key: save it in Settings first.", { field: "imageSource" });
  await prisma.project.update({ where: { id: project.id }, data: { imageSource: source } });
  return { imageSource: source, effective: source, leonardoKeySaved, pexelsKeySaved };
}

/** The status a refusal from the worker carries ("413 Clip too long: ..."): 415 when it names none. */
function rejectionFrom(error: unknown): SceneMediaRejection {
  let current = error as { type?: string; details?: unknown[]; cause?: unknown } | undefined;
  while (current) {
    if (current.type === SCENE_MEDIA_REJECTED) break;
    current = current.cause as typeof current;
  }
  const status = typeof current?.details?.[0] === "number" ? (current.details[0] as number) : current ? 415 : 502;
  const message = innermostMessage(error, "The clip could not be converted. Try again.");
  return new SceneMediaRejection(status, message);
}

/**
 * Converts an uploaded clip in the worker (the scene-media workflow) and waits for it: the web process only
 * waits, ffmpeg runs elsewhere. A second upload to the same scene while one converts is refused.
 */
async function convertClipInWorker(input: { userId: string; project: Project; cellIndex: number; uploadFileId: string }) {
  const { userId, project, cellIndex, uploadFileId } = input;
  const workflowId = sceneClipWorkflowId(project.id, cellIndex);
  try {
    await startWorkflow<typeof sceneClipWorkflow>("sceneClipWorkflow", {
      workflowId,
      args: [{ userId, projectId: project.id, cellIndex, uploadFileId }],
      memo: { userId, projectId: project.id, projectTitle: project.title },
    });
  } catch (e) {
    await deleteMedia(uploadFileId).catch(() => {});
    if (e instanceof WorkflowAlreadyRunningError) throw new SceneMediaRejection(409, `A clip for scene ${cellIndex + 1} is still being converted. Wait for it, then try again.`);
    throw e;
  }
  const client = await getTemporalClient();
  try {
    return await client.workflow.getHandle<typeof sceneClipWorkflow>(workflowId).result();
  } catch (e) {
    if (e instanceof WorkflowFailedError) throw rejectionFrom(e);
    throw e;
  }
}

/** How far the conversion of a scene's uploaded clip is, for its card; null when none is converting. */
export async function clipConversionProgress(project: Project, cellIndex: number): Promise<SceneClipProgress | null> {
  const client = await getTemporalClient();
  const handle = client.workflow.getHandle(sceneClipWorkflowId(project.id, cellIndex));
  try {
    const description = await handle.describe();
    if (description.status.name !== "RUNNING") return null;
    // the converting activity heartbeats the share done; a heartbeat not yet recorded reads as "starting"
    const payload = description.raw.pendingActivities?.[0]?.heartbeatDetails?.payloads?.[0];
    let share: unknown = null;
    try {
      share = payload ? defaultPayloadConverter.fromPayload(payload) : null;
    } catch {
      share = null;
    }
    return { phase: "converting", percent: typeof share === "number" ? Math.round(share * 100) : null };
  } catch (e) {
    if (e instanceof WorkflowNotFoundError) return null;
    throw e;
  }
}

const MediaCreditSchema = z.object({
  provider: z.literal("Pexels"),
  kind: z.enum(["photo", "video"]),
  id: z.number(),
  author: z.string(),
  authorUrl: z.string(),
  pageUrl: z.string(),
});

/** The stock media credits of the project's scenes as they show now, in scene order. */
export async function projectMediaCredits(projectId: string): Promise<MediaCredit[]> {
  const cells = await prisma.storyboardCell.findMany({ where: { storyboard: { projectId } }, orderBy: { cellIndex: "asc" }, select: { mediaCredit: true } });
  return cells.map((c) => MediaCreditSchema.safeParse(c.mediaCredit)).flatMap((r) => (r.success ? [r.data] : []));
}
