// What a video run (make-video, issue 32) checks and creates before anything is made, for every door that starts
// one: the web's make-video and batches, and the worker's batch activity (which creates each video's project).
import type { Prisma } from "~/generated/prisma/client";
import { resolutionEnum } from "~/lib/video-format";
import type { MakeVideoOptions } from "~/lib/make-video-options";
import { prisma } from "./db.server";
import { assertCanUpload, assertCanUseMusic } from "./permissions.server";
import { renderHeightFor } from "./render-input.server";
import { createProject, createProjectIn, type NewProject } from "./projects.server";
import { refusal } from "./refusal.server";
import { getProviderKeys } from "./settings.server";

/**
 * What the account's plan and settings allow, checked before anything is made: music and upload are Premium
 * (402), the quality at most the plan's (402), a cloud image source needs its key (400), an upload needs a live
 * YouTube connection (409). The free plan's one project is checked when the project is created.
 */
export async function assertMakeVideoAllowed(userId: string, options: MakeVideoOptions): Promise<void> {
  if (options.music) await assertCanUseMusic(userId);
  if (options.upload) {
    await assertCanUpload(userId);
    const connection = await prisma.youtubeConnection.findUnique({ where: { userId }, select: { revokedAt: true } });
    if (!connection || connection.revokedAt) throw refusal(409, "YouTube is not connected. Connect YouTube on the Upload page first, or leave upload off.", { field: "upload", needsConnection: true });
    if (options.publishAt && new Date(options.publishAt).getTime() <= Date.now()) throw refusal(400, "publishAt must be in the future.", { field: "publishAt" });
  }
  // the same rule and words as the render page (core/render-input.server.ts)
  if (options.quality) await renderHeightFor(userId, options.quality);
  if (options.imageSource && options.imageSource !== "offline") {
    const keys = await getProviderKeys(userId);
    if (options.imageSource === "leonardo" && !keys.leonardoApiKey) throw refusal(400, "imageSource leonardo needs your Leonardo API key: save it in Settings first.", { field: "imageSource" });
    if (options.imageSource !== "leonardo" && !keys.pexelsApiKey) throw refusal(400, `imageSource ${options.imageSource} needs your free Pexels API key: save it in Settings first.`, { field: "imageSource" });
  }
}

/** Creates the run's project (free plan: one), styled as the options say. `makeCurrent`: the pages open it. */
export async function createProjectForRun(userId: string, options: MakeVideoOptions, makeCurrent: boolean, tx?: Prisma.TransactionClient) {
  const input: NewProject = {
    title: options.title,
    topic: options.topic,
    resolution: resolutionEnum(options.format),
    durationSeconds: options.duration,
    language: options.language,
    voiceId: options.voice,
    voiceSpeed: options.voiceSpeed,
  };
  // inside the caller's transaction when given (the channel's claim, decision 251), else in its own
  const project = tx ? await createProjectIn(tx, userId, input, { makeCurrent }) : await createProject(userId, input, { makeCurrent });
  return (tx ?? prisma).project.update({
    where: { id: project.id },
    data: {
      captionPreset: options.captions ? options.captionStyle : "none",
      captionPosition: options.captionPosition,
      captionSize: options.captionSize,
      imageSource: options.imageSource ?? null,
      ...(options.musicVolume !== undefined ? { musicVolume: options.musicVolume } : {}),
    },
  });
}

