// Activities of the storyboard stage: the scene split, and each scene's image and voiceover.
// Made by a factory so tests can hand in providers of their own (a failing image model, say).
import { ApplicationFailure } from "@temporalio/activity";
import { isPexelsSource, LEONARDO_KEY_MISSING, PEXELS_KEY_MISSING } from "~/lib/image-source";
import { Prisma } from "~/generated/prisma/client";
import type { StockMediaProvider } from "~/providers/image/pexels.server";
import { estimateWordTimings, type VoiceoverWordTimings } from "../../app/lib/timeline/word-timings";
import { createOfflineImageProvider } from "~/providers/image/offline-scene.server";
import type { Providers } from "~/providers/index.server";
import { trimVoiceover } from "~/providers/speech/voiceover";
import { prisma } from "~/core/db.server";
import { deleteReplacedMedia } from "~/core/replaced-media.server";
import { NO_KEPT_GENERATED_MEDIA } from "~/core/scene-cell-media.server";
import { getUserSettings } from "~/core/settings.server";
import { deleteMedia, mediaIdFromUrl, mediaUrl, saveMedia } from "~/core/storage.server";
import { estimatedDurationFor, needsAudio, needsImage, sceneCountFor } from "~/lib/storyboard";
import { imageAspectFor, resolutionValue } from "~/lib/video-format";
import { defaultVoiceFor, isEspeakVoice } from "~/lib/voices";
import { speechRateFactor } from "~/lib/voice-speed";
import { isFliteVoice } from "~/providers/speech/flite.server";
import type { SpeechProvider } from "~/providers/types";
import { withHeartbeat } from "../shared/heartbeat";
import { SCENE_MISSING, SCENE_WORDS_CHANGED } from "../shared/scene-media";
import { NO_SCRIPT } from "../shared/storyboard";
import { OWN_SCRIPT_WRITER } from "~/lib/own-script";
import { splitOwnScriptIntoScenes } from "~/providers/text/own-script-scenes";
import { projectNotOwned, requireProjectOwner } from "./ownership";
import { asActivityFailure, providersForUser, stockMediaForUser } from "./providers";
import { fetchStockSceneMedia, usedStockIds } from "./stock-media";

export type StoryboardActivityDeps = {
  providersFor: (userId: string) => Promise<Pick<Providers, "text" | "image" | "speech">>;
  /** The creator's stock media (Pexels), null without a key; the real one when a test hands in none. */
  stockFor?: (userId: string) => Promise<StockMediaProvider | null>;
};

const defaultDeps: StoryboardActivityDeps = { providersFor: providersForUser, stockFor: stockMediaForUser };

/**
 * The voice a scene is spoken with: offline, the project's voice, else the creator's saved voice, when it speaks
 * the project's language, else the language's default (Flite's rms for English, eSpeak NG otherwise). With a
 * cloud voice service (multilingual), the project's or the saved voice of that service, else its default.
 */
export async function voiceForProject(
  speech: Pick<SpeechProvider, "source" | "listVoices">,
  project: { language: string; voiceId: string | null },
  savedVoiceId: string | null | undefined,
): Promise<string | undefined> {
  const preferred = [project.voiceId, savedVoiceId];
  if (speech.source === "offline") return defaultVoiceFor(project.language, await speech.listVoices(), preferred);
  return preferred.find((id): id is string => !!id && !isEspeakVoice(id) && !isFliteVoice(id));
}


export function createStoryboardActivities(deps: StoryboardActivityDeps = defaultDeps) {
  async function call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await withHeartbeat(fn);
    } catch (e) {
      throw asActivityFailure(e);
    }
  }

  async function loadCell(userId: string, projectId: string, cellIndex: number) {
    await requireProjectOwner(userId, projectId);
    const cell = await prisma.storyboardCell.findFirst({
      where: { cellIndex, storyboard: { projectId, project: { userId } } },
      include: { storyboard: { include: { project: true } } },
    });
    if (!cell) throw ApplicationFailure.nonRetryable(`Scene ${cellIndex + 1} does not exist`, SCENE_MISSING);
    return cell;
  }

  type LoadedCell = Awaited<ReturnType<typeof loadCell>>;

  /**
   * The scene moved on while its voice was made: this voice is deleted. A voice on the scene now is the answer (an
   * edit drops the voice, so one there says the scene's words); new words with none are spoken by the next attempt.
   */
  async function keepCurrentVoice(cell: LoadedCell, madeFileId: string): Promise<{ audioUrl: string; durationSeconds: number }> {
    await deleteMedia(madeFileId).catch(() => {});
    const now = await prisma.storyboardCell.findUnique({ where: { id: cell.id }, select: { audioUrl: true, audioDuration: true } });
    if (!now) throw ApplicationFailure.nonRetryable(`Scene ${cell.cellIndex + 1} does not exist`, SCENE_MISSING);
    if (now.audioUrl && now.audioDuration != null) return { audioUrl: now.audioUrl, durationSeconds: now.audioDuration };
    throw ApplicationFailure.retryable(`Scene ${cell.cellIndex + 1}'s words changed while its voice was made; it is spoken again with the new words`, SCENE_WORDS_CHANGED);
  }

  /**
   * Shows newly generated media on the scene. A new generated image replaces the generated one. When the
   * creator's own media showed, it stays in the project's images (they can pick it again); only the generated
   * media kept for Undo is replaced.
   */
  async function showGenerated(
    cell: LoadedCell,
    media: { image: { id: string }; clip: { id: string; durationSeconds: number } | null; credit: Prisma.InputJsonValue | null; madeBy: string },
  ): Promise<{ imageUrl: string; clipUrl?: string }> {
    const imageUrl = mediaUrl(media.image.id);
    const clipUrl = media.clip ? mediaUrl(media.clip.id) : null;
    const ownMedia = cell.imageSource !== "generated";
    await prisma.storyboardCell.update({
      where: { id: cell.id },
      data: {
        imageUrl,
        imageFileId: media.image.id,
        // the provider that made it, for the storyboard's "Made with" (docs/decisions/081)
        imageMadeBy: media.madeBy,
        imageSource: "generated",
        clipUrl,
        clipFileId: media.clip?.id ?? null,
        clipDuration: media.clip?.durationSeconds ?? null,
        mediaCredit: media.credit ?? Prisma.DbNull,
        ...NO_KEPT_GENERATED_MEDIA,
      },
    });
    const old = ownMedia
      ? [cell.generatedImageFileId, cell.generatedClipFileId]
      : [cell.imageFileId ?? mediaIdFromUrl(cell.imageUrl), cell.clipFileId ?? mediaIdFromUrl(cell.clipUrl)];
    await deleteReplacedMedia(cell.storyboard.projectId, old.filter((id) => id !== media.image.id && id !== media.clip?.id));
    return clipUrl ? { imageUrl, clipUrl } : { imageUrl };
  }

  /** The scene's Pexels photo or clip (the project's image source), credited to its author. */
  async function generateStockMedia(input: { projectId: string; userId: string; cellIndex: number }, cell: LoadedCell) {
    const stock = await (deps.stockFor ?? stockMediaForUser)(input.userId);
    if (!stock) throw ApplicationFailure.nonRetryable(PEXELS_KEY_MISSING, "ImageSourceUnavailable");
    const others = await prisma.storyboardCell.findMany({
      where: { storyboardId: cell.storyboardId, id: { not: cell.id } },
      select: { mediaCredit: true, generatedMediaCredit: true },
    });
    const media = await call(() =>
      fetchStockSceneMedia({
        stock,
        kind: cell.storyboard.project.imageSource === "pexels_clips" ? "clip" : "photo",
        userId: input.userId,
        project: cell.storyboard.project,
        prompt: cell.imagePrompt,
        narration: cell.voiceoverText,
        exclude: usedStockIds(others),
      }),
    );
    return showGenerated(cell, { ...media, credit: media.credit, madeBy: stock.name });
  }

  return {
    /** Splits the project's completed script into scenes and saves them as the storyboard's cells. */
    async writeStoryboardScenes(input: { projectId: string; userId: string; seed: string }): Promise<{ cellCount: number }> {
      const project = await prisma.project.findFirst({ where: { id: input.projectId, userId: input.userId }, include: { script: true } });
      if (!project) throw projectNotOwned();
      const script = project.script?.status === "completed" ? project.script.text : null;
      if (!script) throw ApplicationFailure.nonRetryable("No script available to generate storyboard from", NO_SCRIPT);
      const resolution = resolutionValue(project.resolution);
      const sceneCount = sceneCountFor(resolution, project.durationSeconds);
      const { text } = await deps.providersFor(input.userId);
      const request = { title: project.title, script, resolution, durationSeconds: project.durationSeconds, sceneCount, seed: input.seed, language: project.language };
      // the creator's own script keeps its breaks (a blank line or a `---` line), and every word (decision 170)
      const own = project.script?.writtenBy === OWN_SCRIPT_WRITER;
      const scenes = await call(() => (own ? splitOwnScriptIntoScenes(text, request) : text.splitIntoScenes(request)));
      await prisma.$transaction(async (tx) => {
        const storyboard = await tx.storyboard.update({
          where: { projectId: input.projectId },
          data: { status: "completed", error: null, title: project.title, splitBy: text.name },
        });
        await tx.storyboardCell.deleteMany({ where: { storyboardId: storyboard.id } });
        await tx.storyboardCell.createMany({
          data: scenes.map((scene, cellIndex) => ({
            storyboardId: storyboard.id,
            cellIndex,
            imagePrompt: scene.imagePrompt,
            voiceoverText: scene.voiceoverText,
            estimatedDuration: estimatedDurationFor(scene.voiceoverText),
          })),
        });
      });
      return { cellCount: scenes.length };
    },

    async markStoryboardFailed(input: { projectId: string; error: string }): Promise<void> {
      await prisma.storyboard.updateMany({ where: { projectId: input.projectId }, data: { status: "error", error: input.error } });
    },

    /**
     * Generates the scene's image with the project's image source at the format's aspect ratio: an offline
     * illustration, a Leonardo image, or a Pexels stock photo or clip searched from the scene's prompt.
     */
    async generateSceneImage(input: { projectId: string; userId: string; cellIndex: number }): Promise<{ imageUrl: string; clipUrl?: string }> {
      const cell = await loadCell(input.userId, input.projectId, input.cellIndex);
      if (isPexelsSource(cell.storyboard.project.imageSource)) return generateStockMedia(input, cell);
      const settings = await getUserSettings(input.userId);
      const { image: byKeys } = await deps.providersFor(input.userId);
      // The project's chosen image source wins over "the cloud when a key is saved".
      const chosen = cell.storyboard.project.imageSource;
      if (chosen === "leonardo" && byKeys.source === "offline") throw ApplicationFailure.nonRetryable(LEONARDO_KEY_MISSING, "ImageSourceUnavailable");
      const image = chosen === "offline" && byKeys.source !== "offline" ? createOfflineImageProvider() : byKeys;
      // Every scene's words, in order: the offline illustrator leads each scene with a subject of its own (decision 142).
      const scenes = await prisma.storyboardCell.findMany({
        where: { storyboardId: cell.storyboardId },
        orderBy: { cellIndex: "asc" },
        select: { cellIndex: true, voiceoverText: true, imagePrompt: true },
      });
      const result = await call(() =>
        image.generateImage({
          prompt: cell.imagePrompt,
          narration: cell.voiceoverText,
          storyboard: {
            title: cell.storyboard.project.title,
            scenes: scenes.map((s) => ({ narration: s.voiceoverText, prompt: s.imagePrompt })),
            index: scenes.findIndex((s) => s.cellIndex === cell.cellIndex),
          },
          aspectRatio: imageAspectFor(resolutionValue(cell.storyboard.project.resolution)),
          modelId: settings.leonardoModelId ?? undefined,
          seed: `${input.projectId}:${input.cellIndex}:${cell.imagePrompt}`,
        }),
      );
      const file = await saveMedia({
        userId: input.userId,
        projectId: input.projectId,
        kind: "image",
        data: result.image,
        mimeType: result.mimeType,
        extension: result.mimeType === "image/jpeg" ? "jpg" : "png",
        width: result.width,
        height: result.height,
      });
      return showGenerated(cell, { image: file, clip: null, credit: null, madeBy: image.name });
    },

    /** Speaks the scene's voiceover text in the project's language, voice and speed; stores the real duration and the voice. */
    async generateSceneVoiceover(input: { projectId: string; userId: string; cellIndex: number }): Promise<{ audioUrl: string; durationSeconds: number }> {
      const cell = await loadCell(input.userId, input.projectId, input.cellIndex);
      const project = cell.storyboard.project;
      const settings = await getUserSettings(input.userId);
      const { speech } = await deps.providersFor(input.userId);
      const voiceId = await call(() => voiceForProject(speech, project, settings.elevenLabsVoiceId));
      // trimmed of the voice's own edge silence: the pause at each cut is the timeline's, short and even
      const result = trimVoiceover(
        await call(() => speech.synthesize({ text: cell.voiceoverText, voiceId, speed: speechRateFactor(project), language: project.language })),
      );
      const file = await saveMedia({
        userId: input.userId,
        projectId: input.projectId,
        kind: "voiceover",
        data: result.audio,
        mimeType: result.mimeType,
        extension: result.mimeType === "audio/mpeg" ? "mp3" : "wav",
        durationSeconds: result.durationSeconds,
      });
      const audioUrl = mediaUrl(file);
      // the provider's word timings where it gives them, else an estimate by syllables; both for this audio's length
      const wordTimings: VoiceoverWordTimings = result.words?.length
        ? { source: "provider", audioSeconds: result.durationSeconds, words: result.words }
        : { source: "estimate", audioSeconds: result.durationSeconds, words: estimateWordTimings(cell.voiceoverText, result.durationSeconds) };
      // shown only if the scene still says these words and still has the voice it had: new words typed while the
      // voice spoke the old ones, or another attempt's voice stored meanwhile, must not be replaced by this one
      const stored = await prisma.storyboardCell.updateMany({
        where: { id: cell.id, voiceoverText: cell.voiceoverText, audioFileId: cell.audioFileId },
        data: {
          audioUrl,
          audioFileId: file.id,
          audioDuration: result.durationSeconds,
          wordTimings,
          audioVoiceId: result.voiceId ?? voiceId ?? null,
          audioProvider: result.provider ?? speech.name,
          voiceMadeBy: result.provider ?? speech.name,
        },
      });
      if (stored.count === 0) return keepCurrentVoice(cell, file.id);
      const old = cell.audioFileId ?? mediaIdFromUrl(cell.audioUrl);
      if (old !== file.id) await deleteReplacedMedia(input.projectId, [old]);
      return { audioUrl, durationSeconds: result.durationSeconds };
    },

    /** The cells Generate All has to fill: indexes lacking an image, and lacking audio. */
    async findCellsLackingMedia(input: { projectId: string }): Promise<{ images: number[]; voiceovers: number[] }> {
      const cells = await prisma.storyboardCell.findMany({
        where: { storyboard: { projectId: input.projectId } },
        orderBy: { cellIndex: "asc" },
        select: { cellIndex: true, imageUrl: true, audioUrl: true },
      });
      return {
        images: cells.filter((c) => needsImage(c)).map((c) => c.cellIndex),
        voiceovers: cells.filter((c) => needsAudio(c)).map((c) => c.cellIndex),
      };
    },
  };
}

export type StoryboardActivities = ReturnType<typeof createStoryboardActivities>;
