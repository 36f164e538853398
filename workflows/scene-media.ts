// Scene media: one scene's image or voiceover, and Generate All Content, which fills every scene lacking
// media: images in batches of 5 with a 2 s pause, voiceovers one by one with a 1 s pause. A failed scene is
// counted and skipped; the rest go on. Running as a workflow, it survives a closed tab or a restarted worker.
import { defineQuery, proxyActivities, setHandler, sleep } from "@temporalio/workflow";
import type { createStoryboardActivities } from "./activities/storyboard";
import { GENERATE_ALL } from "../app/lib/constants";

type Activities = ReturnType<typeof createStoryboardActivities>;
export type SceneMediaInput = { projectId: string; userId: string; cellIndex: number };

const { generateSceneImage, generateSceneVoiceover, findCellsLackingMedia } = proxyActivities<Activities>({
  startToCloseTimeout: "10 minutes",
  heartbeatTimeout: "20 seconds",
  retry: { initialInterval: "2 seconds", backoffCoefficient: 2, maximumAttempts: 3, nonRetryableErrorTypes: ["SceneMissing"] },
});

export const sceneImageWorkflowId = (projectId: string, cellIndex: number) => `scene-image-${projectId}-${cellIndex}`;
export const sceneVoiceoverWorkflowId = (projectId: string, cellIndex: number) => `scene-voiceover-${projectId}-${cellIndex}`;
export const generateAllWorkflowId = (projectId: string) => `generate-all-${projectId}`;

export async function sceneImageWorkflow(input: SceneMediaInput): Promise<{ imageUrl: string }> {
  return generateSceneImage(input);
}

export async function sceneVoiceoverWorkflow(input: SceneMediaInput): Promise<{ audioUrl: string; durationSeconds: number }> {
  return generateSceneVoiceover(input);
}

export type GenerateAllProgress = {
  phase: "finding" | "images" | "voiceovers" | "done";
  imagesTotal: number;
  imagesDone: number;
  imagesFailed: number;
  voiceoversTotal: number;
  voiceoversDone: number;
  voiceoversFailed: number;
  failures: { cellIndex: number; kind: "image" | "voiceover"; message: string }[];
};
export const generateAllProgressQuery = defineQuery<GenerateAllProgress>("generateAllProgress");

export async function generateAllContentWorkflow(input: { projectId: string; userId: string }): Promise<GenerateAllProgress> {
  const progress: GenerateAllProgress = {
    phase: "finding",
    imagesTotal: 0,
    imagesDone: 0,
    imagesFailed: 0,
    voiceoversTotal: 0,
    voiceoversDone: 0,
    voiceoversFailed: 0,
    failures: [],
  };
  setHandler(generateAllProgressQuery, () => progress);
  const missing = await findCellsLackingMedia({ projectId: input.projectId });
  progress.imagesTotal = missing.images.length;
  progress.voiceoversTotal = missing.voiceovers.length;
  const failed = (cellIndex: number, kind: "image" | "voiceover", error: unknown) => {
    let e = error as { message?: string; cause?: unknown } | undefined;
    while (e?.cause) e = e.cause as typeof e;
    progress.failures.push({ cellIndex, kind, message: e?.message ?? String(error) });
  };

  progress.phase = "images";
  for (let start = 0; start < missing.images.length; start += GENERATE_ALL.imageBatchSize) {
    if (start > 0) await sleep(GENERATE_ALL.imageBatchPauseMs);
    const batch = missing.images.slice(start, start + GENERATE_ALL.imageBatchSize);
    await Promise.all(
      batch.map(async (cellIndex) => {
        try {
          await generateSceneImage({ ...input, cellIndex });
          progress.imagesDone++;
        } catch (error) {
          progress.imagesFailed++;
          failed(cellIndex, "image", error);
        }
      }),
    );
  }

  progress.phase = "voiceovers";
  for (const [i, cellIndex] of missing.voiceovers.entries()) {
    if (i > 0) await sleep(GENERATE_ALL.voiceoverPauseMs);
    try {
      await generateSceneVoiceover({ ...input, cellIndex });
      progress.voiceoversDone++;
    } catch (error) {
      progress.voiceoversFailed++;
      failed(cellIndex, "voiceover", error);
    }
  }
  progress.phase = "done";
  return progress;
}
