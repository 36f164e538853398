// A storyboard's scenes laid out anew in one transaction (issue 33): scenes kept (with their picture and
// voiceover, maybe with new words), scenes created, and the rest deleted, each at its new index. Used by an edited
// script (own-script.server.ts) and by the storyboard's scene editing (scene-edit.server.ts).
import { Prisma } from "~/generated/prisma/client";
import { estimatedDurationFor } from "~/lib/storyboard";
import { resolutionValue } from "~/lib/video-format";
import type { Project } from "~/generated/prisma/client";
import { offlineImagePrompt } from "~/providers/text/scenes";
import { refusal } from "./refusal.server";
import { NO_KEPT_GENERATED_MEDIA } from "./scene-cell-media.server";

/** No storyboard is laid out with more scenes than this (the split plans at most 240). */
export const MAX_LAID_OUT_SCENES = 500;

export type LayoutItem =
  /** an existing scene (by row id) at this place; `text`: new words, which drop its voiceover (it must be spoken again) */
  | { keep: string; text?: string; dropImage?: boolean }
  /** a new scene: no picture and no voiceover yet (Generate All fills them) */
  | { create: { text: string; imagePrompt?: string } };

/** The image prompt a new scene gets: made from its own words and the video's title, as the offline split does. */
export function newScenePrompt(project: Project, text: string, index: number): string {
  const aspect = resolutionValue(project.resolution) === "16:9" ? "16:9" : "9:16";
  return offlineImagePrompt(text, project.title, aspect, `${project.id}:edit:${Date.now()}`, index, project.language);
}

/** A voiceover's fields cleared: its words changed, so it must be spoken again (the file stays until cleaned up). */
export const DROP_VOICE = { audioUrl: null, audioFileId: null, audioDuration: null, wordTimings: Prisma.DbNull, voiceMadeBy: null, audioVoiceId: null, audioProvider: null };
const DROP_IMAGE = {
  imageUrl: null,
  imageFileId: null,
  clipUrl: null,
  clipFileId: null,
  clipDuration: null,
  mediaCredit: Prisma.DbNull,
  imageMadeBy: null,
  imageSource: "generated" as const,
  ...NO_KEPT_GENERATED_MEDIA,
};

/**
 * Lays the storyboard's scenes out as `items` say, inside the caller's transaction: kept scenes move to their new
 * index (their media with them), new ones are created, scenes not listed are deleted. Two passes over the indexes
 * (first negative, then final) so the unique (storyboard, index) pair never clashes mid-way.
 */
export async function applySceneLayout(tx: Prisma.TransactionClient, project: Project, storyboardId: string, items: LayoutItem[]) {
  if (items.length > MAX_LAID_OUT_SCENES) throw refusal(413, `A storyboard has at most ${MAX_LAID_OUT_SCENES} scenes.`);
  const keptIds = items.flatMap((item) => ("keep" in item ? [item.keep] : []));
  if (new Set(keptIds).size !== keptIds.length) throw new Error("A scene cannot be laid out twice");
  const existing = await tx.storyboardCell.findMany({ where: { storyboardId }, select: { id: true } });
  const known = new Set(existing.map((c) => c.id));
  if (keptIds.some((id) => !known.has(id))) throw refusal(409, "The storyboard changed meanwhile. Reload the page and try again.");
  await tx.storyboardCell.deleteMany({ where: { storyboardId, id: { notIn: keptIds } } });
  const indexes = items.flatMap((item, index) => ("keep" in item ? [index] : []));
  if (keptIds.length) {
    await tx.$executeRaw`UPDATE "StoryboardCell" AS c SET "cellIndex" = -1 - u.idx FROM unnest(${keptIds}::text[], ${indexes}::int[]) AS u(id, idx) WHERE c.id = u.id`;
    await tx.$executeRaw`UPDATE "StoryboardCell" AS c SET "cellIndex" = u.idx FROM unnest(${keptIds}::text[], ${indexes}::int[]) AS u(id, idx) WHERE c.id = u.id`;
  }
  for (const item of items) {
    if (!("keep" in item) || (item.text === undefined && !item.dropImage)) continue;
    await tx.storyboardCell.update({
      where: { id: item.keep },
      data: {
        ...(item.text !== undefined ? { voiceoverText: item.text, estimatedDuration: estimatedDurationFor(item.text), ...DROP_VOICE } : {}),
        ...(item.dropImage ? DROP_IMAGE : {}),
      },
    });
  }
  const created = items.flatMap((item, cellIndex) =>
    "create" in item
      ? [
          {
            storyboardId,
            cellIndex,
            voiceoverText: item.create.text,
            imagePrompt: item.create.imagePrompt ?? newScenePrompt(project, item.create.text, cellIndex),
            estimatedDuration: estimatedDurationFor(item.create.text),
          },
        ]
      : [],
  );
  if (created.length) await tx.storyboardCell.createMany({ data: created });
  await tx.storyboard.update({ where: { id: storyboardId }, data: { updatedAt: new Date() } });
}
