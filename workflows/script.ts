// The script stage: a title and a topic become a proofread script long enough to fill the requested duration when
// the creator's voice reads it (planScriptLength: the voice's speaking rate, the pauses between scenes).
// Long scripts are written in bounded chunks, each its own retryable activity, so a failure or a worker
// restart loses at most the chunk in flight. Progress is read with scriptProgressQuery.
import { patched, proxyActivities, setHandler, workflowInfo } from "@temporalio/workflow";
import type { ScriptActivities } from "./activities/script";
import { countWords, EXPANSION_THRESHOLD, MAX_EXPANSION_ATTEMPTS, planChunks, targetWordsFor } from "../app/lib/script";
import { recordStageFailure } from "./shared/failures";
import { LONG_WORK } from "./shared/priorities";
import {
  SCRIPT_FAILED,
  scriptProgressQuery,
  scriptFitDraftSignal,
  scriptStreamedSignal,
  type ScriptProgress,
  type ScriptWorkflowInput,
  type ScriptWorkflowResult,
} from "./shared/script";

const scriptActivityOptions = {
  startToCloseTimeout: "3 minutes",
  heartbeatTimeout: "10 seconds",
  retry: { initialInterval: "1 second", backoffCoefficient: 2, maximumInterval: "30 seconds", maximumAttempts: 5 },
} as const;
const { planScriptLength, writeScriptChunk, expandScriptChunk, proofreadAndSaveScript, markScriptStarted, markScriptEnded } =
  proxyActivities<ScriptActivities>(scriptActivityOptions);
// timing the drafts with the voice is seconds of CPU: other scripts' saves go before it (decision 298)
const { fitScriptToTime } = proxyActivities<ScriptActivities>({ ...scriptActivityOptions, priority: LONG_WORK });

export async function scriptWorkflow(input: ScriptWorkflowInput): Promise<ScriptWorkflowResult> {
  let targetWords = targetWordsFor(input.durationSeconds);
  let chunkTargets = planChunks(targetWords);
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
  // A streaming provider's words arrive while its chunk is written: the progress moves within the chunk.
  setHandler(scriptStreamedSignal, ({ phase, chunkIndex, words }) => {
    if (progress.phase !== phase || progress.currentChunk !== chunkIndex + 1) return;
    const target = chunkTargets[chunkIndex] ?? 1;
    progress.currentWords = chunks.reduce((sum, c, i) => (i === chunkIndex ? sum : sum + countWords(c)), 0) + words;
    if (phase === "generating_chunks") {
      progress.percentComplete = Math.max(progress.percentComplete, Math.round(5 + (75 * (chunkIndex + Math.min(1, words / target))) / chunkTargets.length));
      progress.stage = `Writing part ${chunkIndex + 1} of ${chunkTargets.length}... (${words} of ${target} words)`;
    } else {
      progress.stage = `Expanding part ${chunkIndex + 1} (attempt ${progress.expansionAttempt} of ${MAX_EXPANSION_ATTEMPTS})... (${words} of ${target} words)`;
    }
  });

  // The fit times each draft with the voice and may write it again: say how close the closest draft comes.
  setHandler(scriptFitDraftSignal, ({ draft, maxRewrites, bestSeconds, plannedSeconds }) => {
    if (progress.phase !== "proofreading") return;
    const timed = `${bestSeconds.toFixed(1)} s of ${plannedSeconds} s`;
    progress.stage = draft === 0 ? `Timing the narration with the voice... (${timed})` : `Rewriting to fit the length: draft ${draft} of up to ${maxRewrites} (closest so far: ${timed})`;
  });

  // Runs started before the length was planned from the voice keep the old words-per-minute rule on replay.
  const planned = patched("narration-fits-its-time");
  try {
    if (planned) {
      progress.stage = "Measuring the voice's pace...";
      const plan = await planScriptLength({ projectId: input.projectId, userId: input.userId, durationSeconds: input.durationSeconds });
      targetWords = plan.targetWords;
      chunkTargets = planChunks(targetWords);
      progress.targetWords = targetWords;
      progress.totalChunks = chunkTargets.length;
      progress.stage = "Preparing script generation...";
    }
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
        language: input.language,
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
          chunkIndex: i,
          language: input.language,
        });
        progress.currentWords = wordsSoFar();
      }
      progress.percentComplete = Math.round(80 + (10 * (i + 1)) / chunks.length);
    }

    progress.phase = "proofreading";
    progress.percentComplete = 90;
    if (planned) {
      progress.stage = "Timing the narration with the voice...";
      const fitted = await fitScriptToTime({
        projectId: input.projectId,
        userId: input.userId,
        title: input.title,
        topic: input.topic,
        durationSeconds: input.durationSeconds,
        targetWords,
        seed,
        chunks,
        language: input.language,
      });
      chunks.splice(0, chunks.length, ...fitted.chunks);
      progress.currentWords = wordsSoFar();
    }
    progress.stage = "Proofreading the script...";
    const { wordCount } = await proofreadAndSaveScript({ projectId: input.projectId, userId: input.userId, title: input.title, chunks, language: input.language });
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
