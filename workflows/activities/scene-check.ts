// Scenes checked against what is said (issue 50, decision 226): one activity per scene. With a Gemini key the
// picture goes to Gemini's vision (a text-priced request, retried like any other); without one, a picture the
// offline illustrator made is checked by its own subjects. The verdict is kept for the picture it looked at.
import { ApplicationFailure } from "@temporalio/activity";
import { createGeminiSceneVision } from "~/providers/vision/gemini-vision.server";
import { prisma } from "~/core/db.server";
import { getEnv } from "~/core/env.server";
import { isOfflinePicture, offlineSceneVerdict } from "~/core/offline-scene-verdict.server";
import { getProviderKeys } from "~/core/settings.server";
import { readMedia } from "~/core/storage.server";
import { SCENE_MISSING } from "../shared/scene-media";
import { SCENE_CHECK_BAR, type SceneCheckOutcome } from "../shared/scene-check";
import { activityProviderCall, asActivityFailure } from "./providers";

export function createSceneCheckActivities() {
  return {
    async checkSceneAgainstWords(input: { userId: string; projectId: string; cellIndex: number }): Promise<SceneCheckOutcome> {
      const project = await prisma.project.findFirst({ where: { id: input.projectId, userId: input.userId }, include: { storyboard: { include: { cells: { orderBy: { cellIndex: "asc" } } } } } });
      const cells = project?.storyboard?.cells ?? [];
      const cell = cells.find((c) => c.cellIndex === input.cellIndex);
      if (!project || !cell) throw ApplicationFailure.create({ message: `Scene ${input.cellIndex + 1} does not exist`, type: SCENE_MISSING, nonRetryable: true });
      if (!cell.imageUrl || !cell.imageFileId) return { cellIndex: input.cellIndex, checked: false };
      const keys = await getProviderKeys(input.userId);
      let verdict: { score: number; passed: boolean; reason: string; suggestedPrompt: string | null; checkedBy: string };
      if (keys.geminiApiKey?.trim()) {
        const file = await prisma.mediaFile.findFirst({ where: { id: cell.imageFileId, userId: input.userId } });
        if (!file) return { cellIndex: input.cellIndex, checked: false };
        const env = getEnv();
        const vision = createGeminiSceneVision({ apiKey: keys.geminiApiKey.trim(), baseUrl: env.GEMINI_BASE_URL, model: env.GEMINI_MODEL, call: activityProviderCall() });
        try {
          const answer = await vision.checkScene({ image: await readMedia(file), mimeType: file.mimeType, voiceover: cell.voiceoverText, prompt: cell.imagePrompt });
          const passed = answer.score >= SCENE_CHECK_BAR;
          verdict = { score: answer.score, passed, reason: answer.reason, suggestedPrompt: passed ? null : answer.suggestedPrompt.trim() || null, checkedBy: "gemini" };
        } catch (e) {
          throw asActivityFailure(e);
        }
      } else if (isOfflinePicture(cell.imageMadeBy) && !cell.clipUrl) {
        const scenes = cells.map((c) => ({ narration: c.voiceoverText, prompt: c.imagePrompt }));
        verdict = { ...offlineSceneVerdict(project.storyboard?.title ?? project.title, scenes, cell.cellIndex), checkedBy: "offline" };
      } else {
        // a picture from elsewhere with no vision key: nothing can look at it
        return { cellIndex: input.cellIndex, checked: false };
      }
      const data = { imageUrl: cell.imageUrl, ...verdict, checkedAt: new Date() };
      await prisma.sceneCheck.upsert({ where: { projectId_cellIndex: { projectId: project.id, cellIndex: cell.cellIndex } }, create: { projectId: project.id, cellIndex: cell.cellIndex, ...data }, update: data });
      return { cellIndex: input.cellIndex, checked: true, passed: verdict.passed, score: verdict.score };
    },
  };
}

export type SceneCheckActivities = ReturnType<typeof createSceneCheckActivities>;
