// Shorts cut from a video by its own scenes (issue 51, decision 229). A Short is a run of the source's scenes, at
// most the platform's Short length, made into a new 9:16 project linked to its source: each picture reframed
// around its subject (the offline pictures know where they drew it; others get sharp's saliency crop), the
// opening hook line drawn into the first picture, the voiceovers and word timings reused as they are (so the
// captions are the source's words, laid out by the renderers in the vertical safe zone), and an end card pointing
// to the full video. It is then an ordinary project: rendered by the same renderers, published like any video.
import type { Prisma, StoryboardCell } from "~/generated/prisma/client";
import { resolutionValue, imageAspectFor } from "~/lib/video-format";
import { pcm16ToWav } from "~/providers/wav";
import { planSceneArt, IMAGE_SIZES } from "~/providers/image/offline-scene.server";
import { pickStoryboardSubjects } from "~/providers/image/scene-subjects.server";
import { END_CARD_SECONDS, hookFor, SHORT_DEFAULT_SECONDS, SHORT_MAX_SECONDS, shortSeconds, type ShortRequest } from "~/lib/short-runs";
import { pickShorts, RULE_BASED_PICK } from "./output-models.server";
import { prisma } from "~/core/db.server";
import { copyMusicTrack, discardMadeProject } from "./media-copies.server";
import { createProject, getProjectForUser } from "~/core/projects.server";
import { mediaIdFromUrl, mediaUrl, readMedia, saveMedia } from "~/core/storage.server";
import { drawEndCard, drawHook, reframeForShort, SHORT_FRAME, type Reframed } from "./short-frames.server";
import { refusal } from "~/core/refusal.server";

export { END_CARD_SECONDS, hookFor, SHORT_DEFAULT_SECONDS, SHORT_MAX_SECONDS, ShortRequestSchema, shortSeconds, suggestShortRuns, type ShortRequest, type ShortSuggestion } from "~/lib/short-runs";
const OFFLINE_PICTURES = "Offline illustration";

async function sourceWithScenes(userId: string, projectId: string) {
  const project = await getProjectForUser(userId, projectId);
  const storyboard = await prisma.storyboard.findUnique({ where: { projectId }, include: { cells: { orderBy: { cellIndex: "asc" } } } });
  return { project, cells: storyboard?.cells ?? [] };
}

/** GET: the source's scenes and the suggested runs, for the page and /api/v1. */
export async function getShortOptions(userId: string, projectId: string, maxSeconds = SHORT_DEFAULT_SECONDS) {
  const { project, cells } = await sourceWithScenes(userId, projectId);
  const ready = cells.length > 0 && cells.every((c) => c.imageUrl && c.audioUrl && c.audioDuration);
  return {
    projectId: project.id,
    title: project.title,
    resolution: resolutionValue(project.resolution),
    maxSeconds,
    limitSeconds: SHORT_MAX_SECONDS,
    ready,
    scenes: cells.map((c) => ({ cellIndex: c.cellIndex, text: c.voiceoverText, seconds: c.audioDuration ?? c.estimatedDuration, imageUrl: c.imageUrl })),
    // the creator's text model picks them when there is one, the rule-based pick otherwise (decision 246)
    ...(ready ? await pickShorts(userId, project, cells, maxSeconds) : { suggestions: [], suggestedBy: RULE_BASED_PICK, notice: null }),
  };
}

/** The offline picture's subject box, recomputed exactly as the storyboard drew it (same words, seed and size). */
function offlineSubjectBox(cell: StoryboardCell, all: StoryboardCell[], title: string, aspect: "16:9" | "9:16", projectId: string) {
  if (cell.imageMadeBy !== OFFLINE_PICTURES || cell.imageSource !== "generated") return null;
  const scenes = all.map((s) => ({ narration: s.voiceoverText, prompt: s.imagePrompt }));
  const index = all.findIndex((s) => s.cellIndex === cell.cellIndex);
  const subjects = pickStoryboardSubjects(title, scenes)[index];
  const art = planSceneArt(cell.voiceoverText, cell.imagePrompt.trim() || "Untitled scene", aspect, `${projectId}:${cell.cellIndex}:${cell.imagePrompt}`, subjects, IMAGE_SIZES[aspect]);
  return art.mainBox ?? null;
}

/** Silence as a 16-bit mono WAV. */
function silentWav(seconds: number, sampleRate = 24000): Buffer {
  return pcm16ToWav(Buffer.alloc(Math.round(seconds * sampleRate) * 2), sampleRate);
}

/** A source scene's stored file, the creator's own (never another's, whatever the cell names). */
async function fileFor(userId: string, url: string | null, fileId: string | null) {
  const id = fileId ?? mediaIdFromUrl(url);
  const file = id ? await prisma.mediaFile.findFirst({ where: { id, userId } }) : null;
  if (!file) throw refusal(409, "A scene's media file is missing. Generate the scene again on the Storyboard page.");
  return file;
}

export type ShortReframing = {
  cellIndex: number;
  method: Reframed["method"];
  /** the subject's box in the source picture (offline pictures), and the part of the picture the Short shows */
  subject: { left: number; top: number; size: number } | null;
  crop: Reframed["crop"];
};
export type ShortMade = { projectId: string; title: string; seconds: number; scenes: number; reframing: ShortReframing[] };

/** Makes a Short from a run of the source's scenes: a new 9:16 project linked to the source. */
export async function createShort(userId: string, sourceId: string, request: ShortRequest): Promise<ShortMade> {
  const { project: source, cells } = await sourceWithScenes(userId, sourceId);
  if (!cells.length) throw refusal(409, "This video has no storyboard yet. Make its scenes first.");
  const run = cells.filter((c) => c.cellIndex >= request.fromScene && c.cellIndex <= request.toScene);
  if (!run.length || run[0]!.cellIndex !== request.fromScene || run.at(-1)!.cellIndex !== request.toScene) {
    throw refusal(400, `Scenes ${request.fromScene + 1} to ${request.toScene + 1} are not in this video (it has ${cells.length}).`, { field: "fromScene" });
  }
  if (!run.every((c) => c.imageUrl && c.audioUrl && c.audioDuration)) {
    throw refusal(409, "Every scene of the Short needs its picture and voiceover. Generate them on the Storyboard page.");
  }
  const maxSeconds = request.maxSeconds ?? SHORT_DEFAULT_SECONDS;
  const seconds = shortSeconds(run.map((c) => c.audioDuration!));
  if (seconds > maxSeconds) {
    throw refusal(422, `These scenes run ${seconds.toFixed(1)} s with the end card; a Short here is at most ${maxSeconds} s. Choose fewer scenes.`, { field: "toScene", limit: maxSeconds });
  }
  const hook = request.hook ?? hookFor(run[0]!.voiceoverText);
  const siblings = await prisma.project.count({ where: { sourceProjectId: source.id, derivedKind: "short" } });
  const short = await createProject(
    userId,
    {
      title: `${source.title} (Short ${siblings + 1})`.slice(0, 200),
      topic: source.topic,
      resolution: "shorts",
      durationSeconds: Math.ceil(seconds),
      language: source.language,
      voiceId: source.voiceId,
      voiceSpeed: source.voiceSpeed,
    },
    { makeCurrent: false },
  );
  const aspect = imageAspectFor(resolutionValue(source.resolution));
  const reframing: ShortMade["reframing"] = [];
  const made: Prisma.StoryboardCellCreateWithoutStoryboardInput[] = [];
  let lastPicture: Buffer | null = null;
  try {
    for (const [i, cell] of run.entries()) {
      const [imageFile, audioFile] = await Promise.all([fileFor(userId, cell.imageUrl, cell.imageFileId), fileFor(userId, cell.audioUrl, cell.audioFileId)]);
      const [picture, audio] = await Promise.all([readMedia(imageFile), readMedia(audioFile)]);
      lastPicture = picture;
      const subject = offlineSubjectBox(cell, cells, source.title, aspect, source.id);
      const reframed = await reframeForShort(picture, subject);
      reframing.push({ cellIndex: i, method: reframed.method, subject, crop: reframed.crop });
      const framed = i === 0 ? await drawHook(reframed.image, hook) : reframed.image;
      const image = await saveMedia({ userId, projectId: short.id, kind: "image", data: framed, mimeType: "image/png", extension: "png", ...SHORT_FRAME });
      // the voiceover is the source's, copied: the Short keeps playing if the source is deleted
      const voice = await saveMedia({ userId, projectId: short.id, kind: "voiceover", data: audio, mimeType: audioFile.mimeType, extension: audioFile.mimeType === "audio/mpeg" ? "mp3" : "wav", durationSeconds: cell.audioDuration });
      made.push({
        cellIndex: i,
        imagePrompt: cell.imagePrompt,
        voiceoverText: cell.voiceoverText,
        estimatedDuration: cell.estimatedDuration,
        imageUrl: mediaUrl(image),
        imageFileId: image.id,
        audioUrl: mediaUrl(voice),
        audioFileId: voice.id,
        audioDuration: cell.audioDuration,
        wordTimings: (cell.wordTimings ?? undefined) as Prisma.InputJsonValue | undefined,
        imageMadeBy: cell.imageMadeBy,
        voiceMadeBy: cell.voiceMadeBy,
        audioVoiceId: cell.audioVoiceId,
        audioProvider: cell.audioProvider,
        mediaCredit: (cell.mediaCredit ?? undefined) as Prisma.InputJsonValue | undefined,
      });
    }
    const card = await saveMedia({ userId, projectId: short.id, kind: "image", data: await drawEndCard(lastPicture!, source.title), mimeType: "image/png", extension: "png", ...SHORT_FRAME });
    const silence = await saveMedia({ userId, projectId: short.id, kind: "voiceover", data: silentWav(END_CARD_SECONDS), mimeType: "audio/wav", extension: "wav", durationSeconds: END_CARD_SECONDS });
    made.push({
      cellIndex: run.length,
      imagePrompt: `End card: watch the full video "${source.title}"`,
      voiceoverText: "",
      estimatedDuration: END_CARD_SECONDS,
      imageUrl: mediaUrl(card),
      imageFileId: card.id,
      audioUrl: mediaUrl(silence),
      audioFileId: silence.id,
      audioDuration: END_CARD_SECONDS,
      imageSource: "upload",
    });
    // the source's background music, copied (its own file, like every file of the Short: decision 232)
    await copyMusicTrack(source.id, { userId, projectId: short.id });
    const text = run.map((c) => c.voiceoverText).join("\n\n");
    await prisma.$transaction([
      prisma.script.create({
        data: { projectId: short.id, status: "completed", text, wordCount: text.split(/\s+/).filter(Boolean).length, targetWords: text.split(/\s+/).filter(Boolean).length, writtenBy: "Cut from the full video", completedAt: new Date() },
      }),
      prisma.storyboard.create({ data: { projectId: short.id, title: short.title, status: "completed", splitBy: "Cut from the full video", cells: { create: made } } }),
      prisma.project.update({
        where: { id: short.id },
        data: { sourceProjectId: source.id, derivedKind: "short", musicVolume: source.musicVolume, derivedFrom: { fromScene: request.fromScene, toScene: request.toScene, hook, seconds, reframing } },
      }),
    ]);
  } catch (e) {
    // no half-made Short: its files and its project go
    await discardMadeProject(short.id);
    throw e;
  }
  return { projectId: short.id, title: short.title, seconds: Math.round(seconds * 10) / 10, scenes: run.length, reframing };
}

/** The projects made from a video (its Shorts and versions), newest first. */
export async function listFamily(userId: string, projectId: string) {
  const project = await getProjectForUser(userId, projectId);
  const children = await prisma.project.findMany({ where: { userId, sourceProjectId: project.id }, orderBy: { createdAt: "desc" }, include: { videos: { where: { status: "completed" }, select: { id: true }, take: 1 } } });
  return children.map((c) => ({ id: c.id, title: c.title, kind: c.derivedKind, language: c.language, resolution: resolutionValue(c.resolution), durationSeconds: c.durationSeconds, rendered: c.videos.length > 0 }));
}
