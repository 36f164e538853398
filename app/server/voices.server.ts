// A project's narration as the pages show it: language, the voice that will speak (chosen or the language's
// default), the speed, and whether the offline writer can write the language.
import type { Project } from "~/generated/prisma/client";
import { languageLabel, offlineWriterNote } from "~/lib/languages";
import { defaultVoiceFor, isPiperVoice, PIPER_PREFIX } from "~/lib/voices";
import { speechRateFactor } from "~/lib/voice-speed";
import type { ProjectVoiceUpdate } from "~/lib/project-voice";
import { randomUUID } from "node:crypto";
import { TYPICAL_CLOUD_WORDS_PER_SECOND } from "~/lib/narration";
import type { voicePaceWorkflow } from "../../workflows/voice-pace";
import { voicePaceWorkflowId, type VoicePace } from "../../workflows/shared/voice-pace";
import { startWorkflow } from "./temporal.server";
import { prisma } from "~/core/db.server";
import { getProjectForUser } from "~/core/projects.server";
import { getUserSettings } from "~/core/settings.server";
import { userProviders } from "./providers.server";

export type ProjectNarration = {
  projectId: string;
  language: string;
  languageLabel: string;
  /** the project's chosen voice; null: the default for the language */
  voiceId: string | null;
  /** the voice that will speak, by name when the list is local (offline voices) */
  voiceName: string;
  voiceSource: "cloud" | "offline";
  voiceSpeed: number;
  /** set when the offline writer will write English instead of the project's language */
  scriptNote: string | null;
};

export async function describeNarration(userId: string, project: Pick<Project, "id" | "language" | "voiceId" | "voiceSpeed">): Promise<ProjectNarration> {
  const [{ speech, text }, settings] = await Promise.all([userProviders(userId), getUserSettings(userId)]);
  let voiceName: string;
  if (speech.source === "offline") {
    const voices = await speech.listVoices();
    const id = defaultVoiceFor(project.language, voices, [project.voiceId, settings.elevenLabsVoiceId]);
    voiceName = voices.find((v) => v.id === id)?.name ?? "the offline voice";
    // a chosen neural voice whose files are gone: say so, and which voice speaks instead (decision 205)
    if (isPiperVoice(project.voiceId) && !voices.some((v) => v.id === project.voiceId)) {
      voiceName = `${voiceName} (the chosen neural voice ${project.voiceId.slice(PIPER_PREFIX.length)} is not installed)`;
    }
  } else {
    voiceName = project.voiceId ? `${speech.name} voice ${project.voiceId}` : `your ${speech.name} voice`;
  }
  return {
    projectId: project.id,
    language: project.language,
    languageLabel: languageLabel(project.language),
    voiceId: project.voiceId,
    voiceName,
    voiceSource: speech.source,
    voiceSpeed: speechRateFactor(project),
    scriptNote: text.source === "offline" ? offlineWriterNote(project.language) : null,
  };
}

/** PUT /api/projects/{id}/narration: changes the language, voice or speed of one of the user's projects (another's: 404). */
export async function updateNarration(userId: string, projectId: string, update: ProjectVoiceUpdate): Promise<ProjectNarration> {
  await getProjectForUser(userId, projectId);
  const project = await prisma.project.update({
    where: { id: projectId },
    data: {
      ...(update.language !== undefined ? { language: update.language } : {}),
      ...(update.voiceId !== undefined ? { voiceId: update.voiceId } : {}),
      ...(update.voiceSpeed !== undefined ? { voiceSpeed: update.voiceSpeed } : {}),
    },
  });
  return describeNarration(userId, project);
}

export type SpeakingPace = VoicePace;

/** Paces already measured, by voice: a voice's pace does not change while the app runs. */
const paces = new Map<string, Promise<SpeakingPace>>();

/**
 * How fast the voice a project with this language and voice would use speaks, in words per second at speed 1:
 * the figure the narration fit plans with, measured on the worker for offline voices (a short workflow: the web
 * runs no voice), typical for cloud ones. The length estimate under an own script (/create, /script) multiplies it
 * by the chosen speed.
 */
export async function speakingPace(userId: string, narration: { language: string; voiceId: string | null }): Promise<SpeakingPace> {
  const [{ speech }, settings] = await Promise.all([userProviders(userId), getUserSettings(userId)]);
  if (speech.source !== "offline") return { wordsPerSecond: TYPICAL_CLOUD_WORDS_PER_SECOND, measured: false };
  const voiceId = defaultVoiceFor(narration.language, await speech.listVoices(), [narration.voiceId, settings.elevenLabsVoiceId]) ?? null;
  const key = `${speech.name}|${voiceId ?? "default"}`;
  let pace = paces.get(key);
  if (!pace) {
    pace = startWorkflow<typeof voicePaceWorkflow>("voicePaceWorkflow", {
      workflowId: voicePaceWorkflowId(randomUUID()),
      args: [{ userId, language: narration.language, voiceId }],
      memo: { startedBy: "the own script's length estimate" },
      executionTimeout: "3 minutes",
    }).then((handle) => handle.result());
    pace.catch(() => paces.delete(key));
    paces.set(key, pace);
  }
  return pace;
}
