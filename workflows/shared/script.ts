// The script stage's contract, shared by its workflow (workflows/script.ts), its activities
// (workflows/activities/script.ts), the web side (app/server/script.server.ts, app/routes/script/) and the
// progress view (app/components/script/). No I/O here.
import { defineQuery } from "@temporalio/workflow";

export const scriptWorkflowId = (projectId: string) => `script-${projectId}`;

export type ScriptWorkflowInput = {
  projectId: string;
  userId: string;
  title: string;
  topic: string;
  durationSeconds: number;
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

/** The workflow's own failure type once the reason is recorded. */
export const SCRIPT_FAILED = "ScriptGenerationFailed";
