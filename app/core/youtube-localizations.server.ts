// YouTube's per-language metadata for a video with versions in other languages (issue 51, decision 231): the
// original's upload carries each version's title and description as `localizations` (with snippet.defaultLanguage,
// which YouTube requires alongside them), and each rendered version's caption track as another language.
// https://developers.google.com/youtube/v3/docs/videos#localizations
// https://developers.google.com/youtube/v3/guides/implementation/localizations
import { storedCaptionCues, type CaptionTrackCue } from "~/lib/caption-track";
import { apertiumMode, apertiumTranslate } from "~/providers/translation/apertium.server";
import { prisma } from "./db.server";

/** YouTube's limits on a video's title (100 characters) and description (5,000 bytes). */
const TITLE_MAX = 100;
const DESCRIPTION_MAX_BYTES = 5000;

export type VersionLocalization = { language: string; title: string; description: string; cues: CaptionTrackCue[] };

const clipBytes = (text: string, max: number) => {
  let out = text;
  while (Buffer.byteLength(out, "utf8") > max) out = out.slice(0, -1);
  return out;
};

/**
 * The project's versions in other languages: each one's title, the upload's description translated into its language
 * (offline, with Apertium when it has the pair; else the version's title alone), and its latest render's captions.
 */
export async function versionLocalizations(projectId: string, sourceLanguage: string, description: string): Promise<VersionLocalization[]> {
  const versions = await prisma.project.findMany({
    where: { sourceProjectId: projectId, derivedKind: "version" },
    orderBy: { createdAt: "asc" },
    include: { videos: { where: { status: "completed" }, orderBy: { createdAt: "desc" }, take: 1, select: { captionCues: true } } },
  });
  const byLanguage = new Map<string, VersionLocalization>();
  for (const version of versions) {
    if (version.language === sourceLanguage) continue;
    let translated = version.title;
    if (description.trim() && apertiumMode(sourceLanguage, version.language)) {
      // line by line: a description's chapters and links are one to a line
      const lines = description.split("\n");
      const filled = lines.map((line, i) => ({ line, i })).filter(({ line }) => line.trim());
      const done = await apertiumTranslate(filled.map(({ line }) => line), sourceLanguage, version.language).catch(() => null);
      if (done) {
        const out = [...lines];
        filled.forEach(({ i }, k) => (out[i] = done[k] ?? lines[i]!));
        translated = out.join("\n");
      }
    }
    // the newest version in a language wins
    byLanguage.set(version.language, {
      language: version.language,
      title: version.title.slice(0, TITLE_MAX),
      description: clipBytes(translated, DESCRIPTION_MAX_BYTES),
      cues: storedCaptionCues(version.videos[0]?.captionCues),
    });
  }
  return [...byLanguage.values()];
}
