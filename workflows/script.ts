// The script stage: a title and a topic become a proofread script of minutes x 150 words.
// Long scripts are written in bounded chunks, each its own retryable activity, so a failure or a worker
// restart loses at most the chunk in flight. Progress is read with scriptProgressQuery.
import {
  ApplicationFailure,
  CancellationScope,
  defineQuery,
  isCancellation,
  proxyActivities,
  setHandler,
  workflowInfo,
} from "@temporalio/workflow";
import type { createScriptActivities } from "./activities/script";
import { countWords, EXPANSION_THRESHOLD, MAX_EXPANSION_ATTEMPTS, planChunks, targetWordsFor } from "../app/lib/script";

type Activities = ReturnType<typeof createScriptActivities>;

export type ScriptPhase = "initializing" | "generating_chunks" | "expanding_chunks" | "proofreading";
export type ScriptProgress = {
  phase: ScriptPhase;
  percentComplete: number;
  currentChunk: number;
  totalChunks: number;
  currentWords: number;
  targetWords: number;
  expansionAttempt: number;
  stage: string;
};
export type ScriptWorkflowInput = {
  projectId: string;
  userId: string;
  title: string;
  topic: string;
  durationSeconds: number;
};

export const scriptProgressQuery = defineQuery<ScriptProgress>("scriptProgress");
export const scriptWorkflowId = (projectId: string) => `script-${projectId}`;

const { writeScriptChunk, expandScriptChunk, proofreadAndSaveScript, markScriptStarted, markScriptEnded } =
  proxyActivities<Activities>({
    startToCloseTimeout: "3 minutes",
    heartbeatTimeout: "10 seconds",
    retry: { initialInterval: "1 second", backoffCoefficient: 2, maximumInterval: "30 seconds", maximumAttempts: 5 },
  });

export async function scriptWorkflow(input: ScriptWorkflowInput): Promise<{ wordCount: number }> {
  const targetWords = targetWordsFor(input.durationSeconds);
  const chunkTargets = planChunks(targetWords);
  const seed = `${input.projectId}:${workflowInfo().runId}`;
  const chunks: string[] = [];
  const progress: ScriptProgress = {
    phase: "initializing",
    percentComplete: 0,
    currentChunk: 0,
    totalChunks: chunkTargets.length,
    currentWords: 0,
    targetWords,
    expansionAttempt: 0,
    stage: "Preparing script generation...",
  };
  setHandler(scriptProgressQuery, () => progress);
  const wordsSoFar = () => chunks.reduce((sum, c) => sum + countWords(c), 0);

  try {
    await markScriptStarted({ projectId: input.projectId, workflowId: workflowInfo().workflowId, targetWords });

    progress.phase = "generating_chunks";
    for (let i = 0; i < chunkTargets.length; i++) {
      progress.currentChunk = i + 1;
      progress.stage = `Writing part ${i + 1} of ${chunkTargets.length}...`;
      progress.percentComplete = Math.round(5 + (75 * i) / chunkTargets.length);
      chunks[i] = await writeScriptChunk({
        userId: input.userId,
        title: input.title,
        topic: input.topic,
        chunkIndex: i,
        totalChunks: chunkTargets.length,
        targetWords: chunkTargets[i]!,
        seed,
      });
      progress.currentWords = wordsSoFar();
    }

    progress.phase = "expanding_chunks";
    progress.percentComplete = 80;
    for (let i = 0; i < chunks.length; i++) {
      const target = chunkTargets[i]!;
      for (let attempt = 1; attempt <= MAX_EXPANSION_ATTEMPTS && countWords(chunks[i]!) < target * EXPANSION_THRESHOLD; attempt++) {
        progress.currentChunk = i + 1;
        progress.expansionAttempt = attempt;
        progress.stage = `Expanding part ${i + 1} (attempt ${attempt} of ${MAX_EXPANSION_ATTEMPTS})...`;
        chunks[i] = await expandScriptChunk({
          userId: input.userId,
          title: input.title,
          topic: input.topic,
          text: chunks[i]!,
          targetWords: target,
          attempt,
          seed,
        });
        progress.currentWords = wordsSoFar();
      }
      progress.percentComplete = Math.round(80 + (10 * (i + 1)) / chunks.length);
    }

    progress.phase = "proofreading";
    progress.stage = "Proofreading the script...";
    progress.percentComplete = 90;
    const { wordCount } = await proofreadAndSaveScript({ projectId: input.projectId, userId: input.userId, title: input.title, chunks });
    progress.currentWords = wordCount;
    progress.percentComplete = 100;
    progress.stage = "Script complete";
    return { wordCount };
  } catch (error) {
    const cancelled = isCancellation(error);
    const message = cancelled ? "Script generation was cancelled" : failureMessage(error);
    // Record the outcome even when cancelled: a cancelled scope would refuse to schedule the activity.
    await CancellationScope.nonCancellable(() =>
      markScriptEnded({ projectId: input.projectId, userId: input.userId, status: cancelled ? "cancelled" : "error", error: message }),
    );
    if (cancelled) throw error;
    throw ApplicationFailure.nonRetryable(message, "ScriptGenerationFailed");
  }
}

function failureMessage(error: unknown): string {
  // An activity failure wraps the activity's own error as its cause: that message is the useful one.
  let current = error as { message?: string; cause?: unknown } | undefined;
  while (current?.cause) current = current.cause as typeof current;
  return current?.message || "An error occurred during script generation";
}
