// Versions of a video in other languages (issue 51, decision 230). A version is a new project linked to its source
// (derivedKind "version"): the script and every scene's voiceover text translated (offline with Apertium, labelled
// as machine translation), the title translated, the same pictures and music (copies of the stored files, not made
// again: each project owns its files, decision 232) and the same format; its voiceovers are then made in the new language with the project's offline voice by the storyboard's
// "generate all" run, which makes only what is missing (the voiceovers). The creator may proofread the translated
// scenes first on the Storyboard page; the captions follow the voiceover text and its word timings.
import { z } from "zod";
import type { Prisma } from "~/generated/prisma/client";
import { isSupportedLanguage, languageLabel, primaryLanguage } from "~/lib/languages";
import { apertiumTargets } from "~/providers/translation/apertium.server";
import { translatorFor } from "./output-models.server";
import { prisma } from "~/core/db.server";
import { copiedMedia, copyMusicTrack, discardMadeProject } from "./media-copies.server";
import { createProject, getProjectForUser } from "~/core/projects.server";
import { startGenerateAll } from "./storyboard.server";
import { refusal } from "~/core/refusal.server";

export const VersionRequestSchema = z
  .object({
    language: z.string().trim().min(2, "language must be a language code such as es.").max(16, "language must be a language code such as es."),
    /** make the voiceovers now; false leaves them for after proofreading (the Storyboard page's Generate all) */
    voiceovers: z.boolean().optional(),
  })
  .strict();
export type VersionRequest = z.infer<typeof VersionRequestSchema>;

/** The languages this server can make a version of the project in, offline. */
export async function getVersionOptions(userId: string, projectId: string) {
  const project = await getProjectForUser(userId, projectId);
  // the creator's text model translates into every language Reelsmith speaks; offline, Apertium's pairs (decision 246)
  const translator = await translatorFor(userId, project.language);
  return { projectId: project.id, language: project.language, translator: translator.name, targets: translator.targets.map((code) => ({ code, name: languageLabel(code) })) };
}

export type VersionMade = { projectId: string; title: string; language: string; translatedBy: string; scenes: number; voiceovers: "started" | "after proofreading" };

/** Translates the source into `language` as a new project linked to it. */
export async function createVersion(userId: string, sourceId: string, request: VersionRequest): Promise<VersionMade> {
  const source = await getProjectForUser(userId, sourceId);
  const to = request.language;
  if (!isSupportedLanguage(to)) throw refusal(400, `Reelsmith has no voice for the language "${to}".`, { field: "language" });
  if (primaryLanguage(to) === primaryLanguage(source.language)) throw refusal(400, "The version's language must differ from the video's.", { field: "language" });
  const translator = await translatorFor(userId, source.language);
  if (!translator.targets.includes(to)) {
    throw refusal(422, `This server cannot translate ${languageLabel(source.language)} into ${languageLabel(to)} offline. Apertium has: ${apertiumTargets(source.language).map(languageLabel).join(", ") || "no pair for this language"}.`, { field: "language" });
  }
  const [storyboard, script] = await Promise.all([
    prisma.storyboard.findUnique({ where: { projectId: source.id }, include: { cells: { orderBy: { cellIndex: "asc" } } } }),
    prisma.script.findUnique({ where: { projectId: source.id } }),
  ]);
  if (!storyboard?.cells.length || !script?.text) throw refusal(409, "This video has no scenes yet. Make its storyboard first.");
  const cells = storyboard.cells;
  // one Apertium run: the title, the script's paragraphs, then each scene's voiceover
  const paragraphs = script.text.split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean);
  const { texts: translated, by: translatedBy } = await translator.translate([source.title, ...paragraphs, ...cells.map((c) => c.voiceoverText)], to, source.title);
  const title = translated[0]!.slice(0, 200);
  const scriptText = translated.slice(1, 1 + paragraphs.length).join("\n\n");
  const voiceovers = translated.slice(1 + paragraphs.length);
  const version = await createProject(
    userId,
    { title, topic: source.topic, resolution: source.resolution, durationSeconds: source.durationSeconds, language: to, voiceId: null, voiceSpeed: source.voiceSpeed },
    { makeCurrent: false },
  );
  const words = scriptText.split(/\s+/).filter(Boolean).length;
  const target = { userId, projectId: version.id };
  try {
    const made: Prisma.StoryboardCellCreateWithoutStoryboardInput[] = [];
    for (const [i, c] of cells.entries()) {
      // the same pictures, copied: deleting either project leaves the other's pictures in place (decision 232)
      const [image, clip] = await Promise.all([copiedMedia(c.imageUrl, c.imageFileId, target), copiedMedia(c.clipUrl, c.clipFileId, target)]);
      // a scene with nothing to say (a Short's end card) keeps its silence: there is nothing to speak again
      const silence = c.voiceoverText.trim() ? null : await copiedMedia(c.audioUrl, c.audioFileId, target);
      made.push({
        cellIndex: c.cellIndex,
        imagePrompt: c.imagePrompt,
        voiceoverText: voiceovers[i] ?? c.voiceoverText,
        estimatedDuration: c.estimatedDuration,
        imageUrl: image.url,
        imageFileId: image.fileId,
        imageSource: c.imageSource,
        imageMadeBy: c.imageMadeBy,
        clipUrl: clip.url,
        clipFileId: clip.fileId,
        clipDuration: c.clipDuration,
        mediaCredit: (c.mediaCredit ?? undefined) as Prisma.InputJsonValue | undefined,
        ...(silence ? { audioUrl: silence.url, audioFileId: silence.fileId, audioDuration: c.audioDuration } : {}),
      });
    }
    await copyMusicTrack(source.id, target);
    await prisma.$transaction([
      prisma.script.create({ data: { projectId: version.id, status: "completed", text: scriptText, wordCount: words, targetWords: words, writtenBy: translatedBy, completedAt: new Date() } }),
      prisma.storyboard.create({ data: { projectId: version.id, title, status: "completed", splitBy: translatedBy, cells: { create: made } } }),
      prisma.project.update({
        where: { id: version.id },
        data: {
          sourceProjectId: source.id,
          derivedKind: "version",
          derivedFrom: { from: source.language, to, translatedBy, machineTranslation: true, sourceTitle: source.title },
          imageSource: source.imageSource,
          captionPreset: source.captionPreset,
          captionPosition: source.captionPosition,
          captionSize: source.captionSize,
          musicVolume: source.musicVolume,
        },
      }),
    ]);
  } catch (e) {
    // no half-made version: its copies and its project go
    await discardMadeProject(version.id);
    throw e;
  }
  const startNow = request.voiceovers ?? true;
  if (startNow) await startGenerateAll(userId, version);
  return { projectId: version.id, title, language: to, translatedBy, scenes: cells.length, voiceovers: startNow ? "started" : "after proofreading" };
}
