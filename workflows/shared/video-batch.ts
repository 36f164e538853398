// The batch contract (issue 32, decision 164): a list of videos made one make-video run per row, at most
// `concurrency` at once. Shared by workflows/video-batch.ts, its activities and app/server/batches.server.ts.
import { defineQuery } from "@temporalio/workflow";

/** Videos of one batch made at once: the default, and the most (the per-user pipeline limit). */
export const BATCH_CONCURRENCY = { default: 2, max: 4 } as const;
/** The most rows one batch may hold. */
export const BATCH_MAX_ROWS = 100;

export const videoBatchWorkflowId = (batchId: string) => `video-batch-${batchId}`;
export type VideoBatchWorkflowInput = { batchId: string; userId: string; concurrency: number };

/** Counts over this run of the batch, and the most make-video children that ran at once (the limit, held). */
export type VideoBatchProgress = { total: number; running: number; completed: number; failed: number; maxConcurrent: number };
export const videoBatchProgressQuery = defineQuery<VideoBatchProgress>("videoBatchProgress");

/** A row that cannot start (its project refused by the plan, the row gone): recorded on the row, not retried. */
export const BATCH_ROW_REFUSED = "BatchRowRefused";
