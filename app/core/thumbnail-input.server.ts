// The thumbnail stage's start, written once (issue 46, decision 213): the thumbnail workflow's input, with the
// creator's preferred font and size (Settings) wherever the caller names none. The thumbnail page
// (app/server/thumbnail.server.ts) and the make-video workflow's thumbnail stage (workflows/activities/make-video.ts)
// use it.
import { thumbnailFontFor, thumbnailFontSizeFor } from "~/lib/thumbnail";
import type { ThumbnailWorkflowInput } from "../../workflows/shared/thumbnail";
import { getUserSettings } from "./settings.server";

/** What the caller chose: the picture and words; a font (its value) and size, or null for the creator's preferred. */
export type ThumbnailChoice = { imageUrl: string; cellIndex: number | null; title: string; font?: string | null; fontSize?: number | null };

/** The thumbnail workflow's input for the user's project `projectId` (ownership checked by the caller). */
export async function thumbnailInputFor(userId: string, projectId: string, choice: ThumbnailChoice): Promise<ThumbnailWorkflowInput> {
  const settings = !choice.font || choice.fontSize == null ? await getUserSettings(userId) : null;
  return {
    userId,
    projectId,
    imageUrl: choice.imageUrl,
    cellIndex: choice.cellIndex,
    title: choice.title,
    font: choice.font || thumbnailFontFor(settings?.preferredThumbnailFont ?? null).value,
    fontSize: choice.fontSize ?? thumbnailFontSizeFor(settings?.preferredThumbnailFontSize ?? null),
  };
}
