// Activities of the publish stage's thumbnail and metadata half: render a thumbnail and store it, and write
// the upload's description and tags. A factory, so tests can hand in providers of their own.
import { ApplicationFailure } from "@temporalio/activity";
import { limitUploadMetadata } from "~/lib/upload-metadata";
import { thumbnailFontFor } from "~/lib/thumbnail";
import type { Providers } from "~/providers/index.server";
import { prisma } from "~/core/db.server";
import { getUserSettings } from "~/core/settings.server";
import { findMediaForUser, mediaIdFromUrl, mediaSize, mediaUrl, readMedia, saveMedia } from "~/core/storage.server";
import { renderThumbnail } from "../engine/thumbnail-render";
import {
  THUMBNAIL_IMAGE_MISSING,
  type ThumbnailWorkflowInput,
  type ThumbnailWorkflowResult,
  type UploadMetadataWorkflowInput,
  type UploadMetadataWorkflowResult,
} from "../shared/thumbnail";
import { withHeartbeat } from "../shared/heartbeat";
import { asActivityFailure, providersForUser } from "./providers";

export type ThumbnailActivityDeps = { providersFor: (userId: string) => Promise<Pick<Providers, "text">> };

const defaultDeps: ThumbnailActivityDeps = { providersFor: providersForUser };

/** The user's own image file behind an /api/media URL, when its row and its bytes both exist. */
async function ownImage(userId: string, url: string | null | undefined) {
  const id = mediaIdFromUrl(url);
  const file = id ? await findMediaForUser(userId, id) : null;
  return file && file.mimeType.startsWith("image/") && (await mediaSize(file)) !== null ? file : null;
}

export function createThumbnailActivities(deps: ThumbnailActivityDeps = defaultDeps) {
  return {
    /** Renders the thumbnail over the picked scene image, stores the PNG and records it as generated. */
    async renderProjectThumbnail(input: ThumbnailWorkflowInput): Promise<ThumbnailWorkflowResult> {
      const project = await prisma.project.findFirst({ where: { id: input.projectId, userId: input.userId }, select: { id: true } });
      if (!project) throw ApplicationFailure.nonRetryable("The project no longer exists", THUMBNAIL_IMAGE_MISSING);
      const image = await ownImage(input.userId, input.imageUrl);
      if (!image) throw ApplicationFailure.nonRetryable("The picked scene image no longer exists; pick another one", THUMBNAIL_IMAGE_MISSING);
      const settings = await getUserSettings(input.userId);
      // a watermark whose file was removed is skipped rather than failing every thumbnail
      const watermarkFile = await ownImage(input.userId, settings.watermarkImageUrl);
      const font = thumbnailFontFor(input.font);
      const { png, layout } = await renderThumbnail({
        image: await readMedia(image),
        title: input.title,
        font,
        fontSize: input.fontSize,
        watermark: watermarkFile ? await readMedia(watermarkFile) : null,
      });
      const file = await saveMedia({
        userId: input.userId,
        projectId: input.projectId,
        kind: "thumbnail",
        mimeType: "image/png",
        extension: "png",
        data: png,
        width: 1280,
        height: 720,
      });
      const thumbnailUrl = mediaUrl(file);
      const row = await prisma.thumbnail.create({
        data: {
          projectId: input.projectId,
          thumbnailUrl,
          mediaFileId: file.id,
          title: input.title,
          cellIndex: input.cellIndex,
          fontFamily: font.family,
          fontSize: input.fontSize,
        },
      });
      return { thumbnailId: row.id, thumbnailUrl, fontSize: layout.fontSize };
    },

    /** The description and tags for the upload form, from the creator's text provider, within YouTube's limits. */
    async writeUploadMetadataFor(input: UploadMetadataWorkflowInput): Promise<UploadMetadataWorkflowResult> {
      try {
        const { text } = await deps.providersFor(input.userId);
        const metadata = await withHeartbeat(() => text.writeUploadMetadata({ title: input.title, script: input.script, language: input.language }), { intervalMs: 5000 });
        return { ...limitUploadMetadata(metadata), source: text.source };
      } catch (e) {
        throw asActivityFailure(e);
      }
    },
  };
}
