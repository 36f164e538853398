// The script stage's contract, shared by its workflow (workflows/script.ts), its activities
// (workflows/activities/script.ts), the web side (app/server/script.server.ts, app/routes/script/) and the
// progress view (app/components/script/). No I/O here.
import { defineQuery, defineSignal } from "@temporalio/workflow";

export const scriptWorkflowId = (projectId: string) => `script-${projectId}`;

export type ScriptWorkflowInput = {
  projectId: string;
  userId: string;
  title: string;
  topic: string;
  durationSeconds: number;
  /** the project's language (BCP-47); absent: English. The offline writer writes English and French only. */
  language?: string;
};
export type ScriptWorkflowResult = { wordCount: number };

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
export const scriptProgressQuery = defineQuery<ScriptProgress>("scriptProgress");

/**
 * Sent by a chunk's activity while a provider streams its answer (at most about once a second): the words of the
 * chunk written so far, so the progress query moves within a chunk, not only between chunks.
 */
export type ScriptStreamed = { phase: "generating_chunks" | "expanding_chunks"; chunkIndex: number; words: number };
export const scriptStreamedSignal = defineSignal<[ScriptStreamed]>("scriptStreamed");

/**
 * Sent by the fit activity after it timed a draft with the voice: which draft (0 is the script as written), the
 * video length the closest draft so far makes, and the length asked for.
 */
export type ScriptFitDraft = { draft: number; maxRewrites: number; bestSeconds: number; plannedSeconds: number };
export const scriptFitDraftSignal = defineSignal<[ScriptFitDraft]>("scriptFitDraft");

/** How long the script should be: from the voice's speaking rate, the scenes' pauses and the requested length. */
export type ScriptLengthPlan = { targetWords: number; wordsPerSecond: number; sceneCount: number; measured: boolean };

/** The chunks to save after timing them with the voice (rewritten by the offline writer when they missed). */
export type ScriptFit = { chunks: string[]; rewrites: number; videoSeconds?: number; plannedSeconds?: number };

/** The workflow's own failure type once the reason is recorded. */
export const SCRIPT_FAILED = "ScriptGenerationFailed";
