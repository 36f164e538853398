// A user with something in every table a route can read: a project with a script, a storyboard whose scenes
// have images and voiceovers, a rendered video, an error-log entry and saved keys. Every text carries a marker
// unique to this user, so any answer that contains it leaked this user's data.
import { randomUUID } from "node:crypto";
import type { User } from "~/generated/prisma/client";
import { pcm16ToWav } from "~/providers/wav";
import { prisma } from "~/core/db.server";
import { logError } from "~/core/error-log.server";
import { updateConfig } from "~/core/settings.server";
import { saveMedia } from "~/core/storage.server";
import { createTestUser, sessionCookieFor } from "../support/auth";

// 1x1 PNG and a tiny WAV header + silence
const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000185d5a6a80000000049454e44ae426082", "hex");
const wav = (seconds: number): Buffer => pcm16ToWav(Buffer.alloc(Math.round(seconds * 8000) * 2), 8000);
export { PNG, wav };

export type Seeded = {
  user: User;
  cookie: string;
  marker: string;
  projectId: string;
  mediaIds: string[];
  renderId: string;
  secret: string;
  /** Texts that belong to this user only: none may appear in another user's answers. */
  privateTexts: string[];
  /** Ids of this user's rows: another user may send them, but must never get their contents. */
  ids: string[];
};

export async function seedUser(label: string, options: { sceneSeconds?: number; durationSeconds?: number } = {}): Promise<Seeded> {
  const marker = `${label}MARK${randomUUID().slice(0, 8)}`;
  const user = await createTestUser(`${marker.toLowerCase()}@example.com`, `Name ${marker}`);
  const cookie = await sessionCookieFor(user.id);
  const project = await prisma.project.create({
    data: { userId: user.id, title: `Title ${marker}`, topic: `Topic ${marker}`, resolution: "shorts", durationSeconds: options.durationSeconds ?? 30 },
  });
  await prisma.user.update({ where: { id: user.id }, data: { currentProjectId: project.id } });
  await prisma.script.create({
    data: { projectId: project.id, status: "completed", text: `Script ${marker} text of the video.`, wordCount: 6, targetWords: 75, completedAt: new Date() },
  });
  const mediaIds: string[] = [];
  const storyboard = await prisma.storyboard.create({ data: { projectId: project.id, title: `Title ${marker}`, status: "completed" } });
  for (const cellIndex of [0, 1]) {
    const image = await saveMedia({ userId: user.id, projectId: project.id, kind: "image", data: PNG, mimeType: "image/png", extension: "png" });
    const audio = await saveMedia({ userId: user.id, projectId: project.id, kind: "voiceover", data: wav(options.sceneSeconds ?? 1), mimeType: "audio/wav", extension: "wav" });
    mediaIds.push(image.id, audio.id);
    await prisma.storyboardCell.create({
      data: {
        storyboardId: storyboard.id,
        cellIndex,
        imagePrompt: `Prompt ${marker} ${cellIndex}`,
        voiceoverText: `Voice ${marker} ${cellIndex}`,
        imageUrl: `/api/media/${image.id}`,
        audioUrl: `/api/media/${audio.id}`,
        imageFileId: image.id,
        audioFileId: audio.id,
        estimatedDuration: 1,
      },
    });
  }
  const video = await saveMedia({ userId: user.id, projectId: project.id, kind: "video", data: Buffer.from(`video ${marker}`), mimeType: "video/mp4", extension: "mp4" });
  mediaIds.push(video.id);
  const render = await prisma.renderedVideo.create({
    data: { projectId: project.id, status: "completed", videoUrl: `/api/media/${video.id}`, mediaFileId: video.id, width: 360, height: 640, durationSeconds: 2, completedAt: new Date() },
  });
  await logError({ userId: user.id, type: "script_generation", message: `Error ${marker}` });
  const secret = `AIzaSy${marker}${"k".repeat(20)}`;
  await updateConfig(user.id, { geminiApiKey: secret } as never);
  return {
    user,
    cookie,
    marker,
    projectId: project.id,
    mediaIds,
    renderId: render.id,
    secret,
    privateTexts: [marker, marker.toLowerCase(), secret, user.id],
    ids: [project.id, ...mediaIds, render.id, storyboard.id],
  };
}

/** Everything of this user's that another user's calls must leave unchanged. */
export async function snapshotOf(userId: string) {
  const user = await prisma.user.findUniqueOrThrow({ where: { id: userId } });
  const projects = await prisma.project.findMany({
    where: { userId },
    include: { script: true, storyboard: { include: { cells: true } }, videos: true, musicTracks: true },
    orderBy: { createdAt: "asc" },
  });
  const media = await prisma.mediaFile.findMany({ where: { userId }, orderBy: { id: "asc" } });
  const settings = await prisma.userSettings.findUnique({ where: { userId } });
  const logs = await prisma.errorLog.findMany({ where: { userId }, orderBy: { id: "asc" } });
  // (a media file's size is a bigint, decision 187: compared as its digits)
  return JSON.parse(JSON.stringify({ user: { ...user, updatedAt: null }, projects, media, settings, logs }, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value)));
}
