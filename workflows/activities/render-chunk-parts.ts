// Render chunks kept for the project's next render (issue 53, decision 260): each chunk of a fast render is stored
// under the key of what it draws (engine/render-chunk-key.ts), in a RenderChunkPart row beside its media file. The
// next render of the project takes every chunk whose key is unchanged as it is and draws only the others, so an
// edited scene re-renders its chunk alone, and a render that failed part-way keeps the chunks it finished for the
// retry. After a join the project keeps only that render's chunks: one video's picture at most, besides the video.
import { Prisma } from "~/generated/prisma/client";
import { prisma } from "~/core/db.server";
import { deleteMedia, findMediaForUser } from "~/core/storage.server";
import { buildTimeline } from "../../app/lib/timeline/timeline";
import type { RenderPlan } from "../shared/render";
import { chunkContentKey } from "../engine/render-chunk-key";
import type { RenderChunk } from "../engine/render-chunks";
import { planProps } from "./render";

/** The key of what the chunk draws: the plan's timeline with each source named by its stored file's id. */
export function chunkKeyOf(plan: RenderPlan, chunk: Pick<RenderChunk, "fromScene" | "toScene">): string {
  return chunkKeysOf(plan, [chunk])[0]!;
}

/** chunkKeyOf for several chunks of one plan, its timeline built once. */
export function chunkKeysOf(plan: RenderPlan, chunks: readonly Pick<RenderChunk, "fromScene" | "toScene">[]): string[] {
  const timeline = buildTimeline(
    planProps(plan, (kind, i) => {
      if (kind === "image") return `image:${plan.scenes[i]!.imageFileId}`;
      if (kind === "clip") return `clip:${plan.scenes[i]!.clip?.fileId ?? ""}`;
      // the sound is mixed once for the whole video, the brand's pictures make a video render in one piece
      return `${kind}-${i}`;
    })
  );
  return chunks.map((chunk) => chunkContentKey(timeline, chunk));
}

/** The stored file of a kept chunk with this key, when it is still there and as long as asked; else null. */
export async function keptChunkPart(plan: RenderPlan, key: string, frames: number): Promise<string | null> {
  const part = await prisma.renderChunkPart.findUnique({
    where: { projectId_key: { projectId: plan.projectId, key } },
  });
  if (!part) return null;
  const file = part.frames === frames ? await findMediaForUser(plan.userId, part.mediaFileId) : null;
  if (file) return file.id;
  await prisma.renderChunkPart.deleteMany({ where: { id: part.id } });
  return null;
}

/**
 * Records a chunk just stored as the project's kept chunk for its key. When another attempt kept one meanwhile (a
 * chunk retried while the first attempt still ran), that one is used and this file deleted; its id is returned.
 */
export async function keepChunkPart(plan: RenderPlan, key: string, mediaFileId: string, frames: number): Promise<string> {
  try {
    await prisma.renderChunkPart.create({
      data: { projectId: plan.projectId, key, mediaFileId, frames },
    });
    return mediaFileId;
  } catch (e) {
    if (!(e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002")) throw e;
    const kept = await keptChunkPart(plan, key, frames);
    if (!kept) throw e;
    const mine = await findMediaForUser(plan.userId, mediaFileId);
    if (mine) await deleteMedia(mine);
    return kept;
  }
}

/** Which of these files are kept chunks (a failed or finished render's clean-up leaves them). */
export async function keptChunkFiles(fileIds: readonly string[]): Promise<Set<string>> {
  if (fileIds.length === 0) return new Set();
  const rows = await prisma.renderChunkPart.findMany({
    where: { mediaFileId: { in: [...fileIds] } },
    select: { mediaFileId: true },
  });
  return new Set(rows.map((r) => r.mediaFileId));
}

/** Deletes the project's kept chunks other than `keep` (the chunks the render just joined), rows and files. */
export async function pruneChunkParts(userId: string, projectId: string, keep: readonly string[]): Promise<number> {
  const stale = await prisma.renderChunkPart.findMany({
    where: { projectId, mediaFileId: { notIn: [...keep] } },
    select: { mediaFileId: true },
  });
  for (const part of stale) {
    const file = await findMediaForUser(userId, part.mediaFileId);
    // the row goes with its file (cascade); a row whose file is gone goes by itself
    if (file) await deleteMedia(file);
    else
      await prisma.renderChunkPart.deleteMany({
        where: { mediaFileId: part.mediaFileId },
      });
  }
  return stale.length;
}
