// The upload's pre-flight facts as the server knows them (issue 37): the video that would be sent (its size, length,
// measured loudness, caption track), the thumbnail that would be set (type and bytes), and the chapters the scenes
// make. The Upload page checks the creator's metadata against them as they type (app/lib/preflight.ts); the upload
// route runs the same checks and refuses what they block.
import type { Project, RenderedVideo } from "~/generated/prisma/client";
import { captionTrackUrl, storedCaptionCues } from "~/lib/caption-track";
import { chaptersFromScenes, type Chapter } from "~/lib/chapters";
import { CAPTIONS_SCOPE } from "~/lib/youtube";
import { blockingItems, preflightChecks, type PreflightItem, type PreflightThumbnail, type PreflightVideo } from "~/lib/preflight";
import { VIDEO_FPS } from "~/lib/timeline/timing";
import { prisma } from "~/core/db.server";
import { getCurrentProject } from "~/core/projects.server";
import { findMediaForUser, mediaIdFromUrl, mediaSize } from "~/core/storage.server";
import { refusal } from "~/core/refusal.server";

export type PreflightFacts = {
  video: PreflightVideo | null;
  thumbnail: PreflightThumbnail;
  sceneChapters: Chapter[];
  captions: { srt: string; vtt: string } | null;
  /** whether the YouTube connection lets Reelsmith send a caption track (the youtube.force-ssl scope) */
  captionsAllowed: boolean;
};

export function preflightVideo(video: Pick<RenderedVideo, "width" | "height" | "durationSeconds" | "loudnessLufs" | "truePeakDbtp" | "captionCues">): PreflightVideo {
  return {
    width: video.width,
    height: video.height,
    durationSeconds: video.durationSeconds,
    loudnessLufs: video.loudnessLufs,
    truePeakDbtp: video.truePeakDbtp,
    captionCueCount: storedCaptionCues(video.captionCues).length,
  };
}

/** The type and size of the thumbnail an upload would set (the named one, else the project's approved one). */
export async function preflightThumbnail(userId: string, thumbnailUrl: string | null): Promise<PreflightThumbnail> {
  const fileId = mediaIdFromUrl(thumbnailUrl);
  const file = fileId ? await findMediaForUser(userId, fileId) : null;
  const bytes = file ? await mediaSize(file) : null;
  return file && bytes !== null ? { mimeType: file.mimeType.toLowerCase(), bytes } : null;
}

/** Chapters from the project's scenes, timed as the render places them (each voiceover's measured length). */
export async function sceneChapters(projectId: string): Promise<Chapter[]> {
  const cells = await prisma.storyboardCell.findMany({
    where: { storyboard: { projectId } },
    orderBy: { cellIndex: "asc" },
    select: { voiceoverText: true, audioDuration: true, estimatedDuration: true },
  });
  if (cells.some((c) => !c.audioDuration)) return [];
  return chaptersFromScenes(
    cells.map((c) => ({ text: c.voiceoverText, audioDurationInSeconds: c.audioDuration! })),
    VIDEO_FPS,
  );
}

/** GET /api/youtube/preflight: the facts for the current project's newest finished video. */
export async function getPreflightFacts(userId: string): Promise<PreflightFacts> {
  const project = await getCurrentProject(userId);
  if (!project) return { video: null, thumbnail: null, sceneChapters: [], captions: null, captionsAllowed: true };
  return preflightFactsFor(userId, project);
}

export async function preflightFactsFor(userId: string, project: Project): Promise<PreflightFacts> {
  const video = await prisma.renderedVideo.findFirst({ where: { projectId: project.id, status: "completed", videoUrl: { not: null } }, orderBy: { createdAt: "desc" } });
  const [thumbnail, chapters, captionsAllowed] = await Promise.all([
    // the approved thumbnail, as the upload would pick it (thumbnail.server's approvedThumbnail)
    prisma.thumbnail
      .findFirst({ where: { projectId: project.id, approved: true }, orderBy: { createdAt: "desc" }, select: { thumbnailUrl: true } })
      .then((t) => preflightThumbnail(userId, t?.thumbnailUrl ?? null)),
    sceneChapters(project.id),
    captionsAllowedFor(userId),
  ]);
  const facts = video ? preflightVideo(video) : null;
  return {
    video: facts,
    thumbnail,
    sceneChapters: chapters,
    captions: video && facts?.captionCueCount ? { srt: captionTrackUrl(video.id, "srt"), vtt: captionTrackUrl(video.id, "vtt") } : null,
    captionsAllowed,
  };
}

/** A connection whose granted scopes are known and lack youtube.force-ssl cannot send caption tracks. */
export async function captionsAllowedFor(userId: string): Promise<boolean> {
  const connection = await prisma.youtubeConnection.findUnique({ where: { userId }, select: { scope: true } });
  return !connection?.scope || connection.scope.split(/\s+/).includes(CAPTIONS_SCOPE);
}

/** Refuses an upload the pre-flight check blocks: 400 with every blocking item's reason. */
export function assertPreflight(items: PreflightItem[]): void {
  const blocking = blockingItems(items);
  if (!blocking.length) return;
  throw refusal(400, `The pre-flight check stopped the upload: ${blocking.map((i) => `${i.label}: ${i.detail}`).join(" ")}`, {
    field: blocking[0]!.id,
    preflight: items,
  });
}

export { preflightChecks };
