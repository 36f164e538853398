// The publish stage's thumbnail and metadata half as the web sees it: what the Thumbnail Generator reads,
// generating (the thumbnail and metadata workflows, whose results the routes wait for: docs/decisions/021),
// and approval. The renderer itself is workflows/engine/thumbnail-render.ts (run by the worker).
import { createHash } from "node:crypto";
import { WorkflowFailedError } from "@temporalio/client";
import {
  THUMBNAIL_FONTS,
  thumbnailFontFor,
  thumbnailFontSizeFor,
  type GenerateThumbnailRequest,
  type ThumbnailView,
  type ThumbnailWorkspace,
} from "~/lib/thumbnail";
import type { thumbnailWorkflow, uploadMetadataWorkflow } from "../../workflows/thumbnail";
import { innermostMessage } from "../../workflows/shared/errors";
import {
  thumbnailWorkflowId,
  uploadMetadataWorkflowId,
  type ThumbnailWorkflowResult,
  type UploadMetadataWorkflowResult,
} from "../../workflows/shared/thumbnail";
import { withMediaCredits } from "~/lib/upload-metadata";
import { withChapters } from "~/lib/chapters";
import { UPLOAD_LIMITS } from "~/lib/constants";
import { sceneChapters } from "./preflight.server";
import { mediaCreditLines } from "~/providers/image/pexels.server";
import { prisma } from "~/core/db.server";
import { getCurrentProject, getProjectForUser } from "~/core/projects.server";
import { projectMediaCredits } from "./scene-media.server";
import { getUserSettings } from "~/core/settings.server";
import { findMediaForUser, mediaIdFromUrl } from "~/core/storage.server";
import { getTemporalClient, startWorkflow, WorkflowAlreadyRunningError, type WorkflowMemo } from "./temporal.server";
import { thumbnailInputFor } from "~/core/thumbnail-input.server";
import { refusal } from "~/core/refusal.server";

// ── What the Thumbnail Generator reads ────────────────────────────────────────────────────────────
const RECENT_THUMBNAILS = 12;

export function toThumbnailView(t: { id: string; thumbnailUrl: string; title: string; fontFamily: string; fontSize: number; approved: boolean; createdAt: Date }): ThumbnailView {
  return { id: t.id, thumbnailUrl: t.thumbnailUrl, title: t.title, fontFamily: t.fontFamily, fontSize: t.fontSize, approved: t.approved, createdAt: t.createdAt.toISOString() };
}

/** The project a thumbnail call is for: the given one (the caller's own, else 404), or the current one. */
export async function thumbnailProject(userId: string, projectId: string | null | undefined) {
  if (projectId) return getProjectForUser(userId, projectId);
  return getCurrentProject(userId);
}

/** Scene images, recent thumbnails and the creator's defaults for one of the user's projects. */
export async function getThumbnailWorkspace(userId: string, projectId?: string | null): Promise<ThumbnailWorkspace> {
  const [project, settings] = await Promise.all([thumbnailProject(userId, projectId), getUserSettings(userId)]);
  const defaults = {
    defaultFont: thumbnailFontFor(settings.preferredThumbnailFont).value,
    defaultFontSize: thumbnailFontSizeFor(settings.preferredThumbnailFontSize),
    hasWatermark: Boolean(settings.watermarkImageUrl),
  };
  if (!project) return { projectId: null, projectTitle: null, images: [], thumbnails: [], ...defaults };
  const [cells, thumbnails] = await Promise.all([
    prisma.storyboardCell.findMany({
      where: { storyboard: { projectId: project.id }, imageUrl: { not: null } },
      orderBy: { cellIndex: "asc" },
      select: { cellIndex: true, imageUrl: true },
    }),
    prisma.thumbnail.findMany({ where: { projectId: project.id }, orderBy: { createdAt: "desc" }, take: RECENT_THUMBNAILS }),
  ]);
  return {
    projectId: project.id,
    projectTitle: project.title,
    images: cells.flatMap((c) => (c.imageUrl ? [{ cellIndex: c.cellIndex, imageUrl: c.imageUrl }] : [])),
    thumbnails: thumbnails.map(toThumbnailView),
    ...defaults,
  };
}

/** Checks that an /api/media URL is one of the user's own images (scene images, uploads); a 400 naming the field if not. */
export async function assertOwnedImage(userId: string, url: string, field: string): Promise<void> {
  const id = mediaIdFromUrl(url);
  const file = id ? await findMediaForUser(userId, id) : null;
  if (!file || !file.mimeType.startsWith("image/")) {
    throw refusal(400, `${field}: pick one of your scene images (this one was not found)`, { field });
  }
}

/** Marks one of the user's thumbnails as the approved one of its project (the others are no longer approved). */
export async function approveThumbnail(userId: string, thumbnailUrl: string): Promise<ThumbnailView> {
  const thumbnail = await prisma.thumbnail.findFirst({ where: { thumbnailUrl, project: { userId } }, orderBy: { createdAt: "desc" } });
  if (!thumbnail) throw refusal(404, "Thumbnail not found. Generate a thumbnail first.", { field: "thumbnailUrl" });
  const [, approved] = await prisma.$transaction([
    prisma.thumbnail.updateMany({ where: { projectId: thumbnail.projectId, approved: true, NOT: { id: thumbnail.id } }, data: { approved: false } }),
    prisma.thumbnail.update({ where: { id: thumbnail.id }, data: { approved: true } }),
  ]);
  return toThumbnailView(approved);
}

/** The approved thumbnail of a project (the upload sets it on the video), or null. */
export async function approvedThumbnail(projectId: string): Promise<ThumbnailView | null> {
  const t = await prisma.thumbnail.findFirst({ where: { projectId, approved: true }, orderBy: { createdAt: "desc" } });
  return t ? toThumbnailView(t) : null;
}

// ── Generating ──────────────────────────────────────────────────────────────────────────────────────
const requestKey = (value: unknown) => createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, 20);

/** Starts the run (or joins the open one with this id) and waits for its result; a failure is a 502 with its reason. */
async function runAndWait<R>(start: () => Promise<unknown>, workflowId: string, fallback: string): Promise<R> {
  try {
    await start();
  } catch (e) {
    if (!(e instanceof WorkflowAlreadyRunningError)) throw e;
  }
  try {
    return (await (await getTemporalClient()).workflow.getHandle(workflowId).result()) as R;
  } catch (e) {
    if (e instanceof WorkflowFailedError) {
      const message = innermostMessage(e, fallback);
      throw refusal(502, message, { success: false, error: message });
    }
    throw e;
  }
}

/** The font a request names (fontValue, else fontFamily); null when it names none (the creator's preferred one). */
function requestedFont(body: GenerateThumbnailRequest) {
  const named = body.fontValue?.trim() || body.fontFamily?.trim();
  if (!named) return null;
  const font = THUMBNAIL_FONTS.find((f) => f.value === named.toLowerCase() || f.family.toLowerCase() === named.toLowerCase());
  if (!font) {
    const field = body.fontValue?.trim() ? "fontValue" : "fontFamily";
    throw refusal(400, `${field}: choose one of ${THUMBNAIL_FONTS.map((f) => f.family).join(", ")}`, { field, success: false });
  }
  return font;
}

/** POST /api/generate-thumbnail: renders a thumbnail for one of the user's projects and answers with its URL. */
export async function generateThumbnail(userId: string, body: GenerateThumbnailRequest): Promise<ThumbnailWorkflowResult> {
  const project = await thumbnailProject(userId, body.projectId);
  if (!project) throw refusal(404, "No project yet. Create a video first.", { success: false });
  await assertOwnedImage(userId, body.imageUrl, "imageUrl");
  const font = requestedFont(body);
  let cellIndex: number | null = null;
  if (typeof body.cellIndex === "number") {
    const cell = await prisma.storyboardCell.findFirst({ where: { cellIndex: body.cellIndex, storyboard: { projectId: project.id } }, select: { id: true } });
    cellIndex = cell ? body.cellIndex : null;
  }
  // the creator's preferred font and size where the request names none, as make-video's thumbnail stage
  const input = await thumbnailInputFor(userId, project.id, { imageUrl: body.imageUrl, cellIndex, title: body.title, font: font?.value, fontSize: body.fontSize });
  const workflowId = thumbnailWorkflowId(project.id, requestKey(input));
  const memo: WorkflowMemo = { userId, projectId: project.id, projectTitle: project.title };
  return runAndWait<ThumbnailWorkflowResult>(
    () => startWorkflow<typeof thumbnailWorkflow>("thumbnailWorkflow", { workflowId, args: [input], memo }),
    workflowId,
    "The thumbnail could not be generated",
  );
}

/** POST /api/generate-metadata: a description and tags for the upload, from the user's text provider. */
export async function generateUploadMetadata(userId: string, body: { title: string; script: string }): Promise<UploadMetadataWorkflowResult> {
  const project = await getCurrentProject(userId);
  const input = { userId, title: body.title, script: body.script, language: project?.language ?? "en" };
  const workflowId = uploadMetadataWorkflowId(userId, requestKey(input));
  const written = await runAndWait<UploadMetadataWorkflowResult>(
    () => startWorkflow<typeof uploadMetadataWorkflow>("uploadMetadataWorkflow", { workflowId, args: [input], memo: { userId, projectTitle: body.title } }),
    workflowId,
    "The description and tags could not be written",
  );
  // the photographers and videographers of the current project's stock media are credited (decision 073)
  const credits = project ? mediaCreditLines(await projectMediaCredits(project.id)) : [];
  // a video long enough for YouTube's chapter rules gets chapter lines from its scenes, last (editable before upload)
  const chapters = project ? await sceneChapters(project.id) : [];
  return { ...written, description: withChapters(withMediaCredits(written.description, credits), chapters, UPLOAD_LIMITS.descriptionChars) };
}
