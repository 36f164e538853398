// The script stage: a title and a topic become a proofread script of minutes x 150 words.
// Long scripts are written in bounded chunks, each its own retryable activity, so a failure or a worker
// restart loses at most the chunk in flight. Progress is read with scriptProgressQuery.
import { proxyActivities, setHandler, workflowInfo } from "@temporalio/workflow";
import type { ScriptActivities } from "./activities/script";
import { countWords, EXPANSION_THRESHOLD, MAX_EXPANSION_ATTEMPTS, planChunks, targetWordsFor } from "../app/lib/script";
import { recordStageFailure } from "./shared/failures";
import { SCRIPT_FAILED, scriptProgressQuery, type ScriptProgress, type ScriptWorkflowInput, type ScriptWorkflowResult } from "./shared/script";

const { writeScriptChunk, expandScriptChunk, proofreadAndSaveScript, markScriptStarted, markScriptEnded } =
  proxyActivities<ScriptActivities>({
    startToCloseTimeout: "3 minutes",
    heartbeatTimeout: "10 seconds",
    retry: { initialInterval: "1 second", backoffCoefficient: 2, maximumInterval: "30 seconds", maximumAttempts: 5 },
  });

export async function scriptWorkflow(input: ScriptWorkflowInput): Promise<ScriptWorkflowResult> {
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
    return await recordStageFailure(error, {
      userId: input.userId,
      projectId: input.projectId,
      logType: "script_generation",
      failureType: SCRIPT_FAILED,
      fallbackMessage: "An error occurred during script generation",
      cancelledMessage: "Script generation was cancelled",
      recordOnRow: ({ message, cancelled }) =>
        markScriptEnded({ projectId: input.projectId, status: cancelled ? "cancelled" : "error", error: message }),
    });
  }
}
