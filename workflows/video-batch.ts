// A batch of videos (issue 32, decision 164), `video-batch-<batchId>`: its queued rows, in order, each made by a
// make-video child workflow, at most `concurrency` at once: a slot takes the next row when its video is done.
// A row's failure is recorded on the row (by make-video, or by startBatchRow) and the batch goes on.
import { executeChild, proxyActivities, setHandler } from "@temporalio/workflow";
import type { VideoBatchActivities } from "./activities/video-batch";
import { makeVideoWorkflow } from "./make-video";
import { makeVideoWorkflowId } from "./shared/make-video";
import { BATCH_CONCURRENCY, BATCH_ROW_REFUSED, videoBatchProgressQuery, type VideoBatchProgress, type VideoBatchWorkflowInput } from "./shared/video-batch";

const acts = proxyActivities<VideoBatchActivities>({
  startToCloseTimeout: "1 minute",
  retry: { initialInterval: "1 second", backoffCoefficient: 2, maximumAttempts: 5, nonRetryableErrorTypes: [BATCH_ROW_REFUSED] },
});

export async function videoBatchWorkflow(input: VideoBatchWorkflowInput): Promise<VideoBatchProgress> {
  const queue = await acts.queuedBatchRows({ batchId: input.batchId, userId: input.userId });
  const progress: VideoBatchProgress = { total: queue.length, running: 0, completed: 0, failed: 0, maxConcurrent: 0 };
  setHandler(videoBatchProgressQuery, () => progress);

  async function slot() {
    for (let runId = queue.shift(); runId; runId = queue.shift()) {
      progress.running++;
      progress.maxConcurrent = Math.max(progress.maxConcurrent, progress.running);
      try {
        const { projectId } = await acts.startBatchRow({ runId, userId: input.userId });
        await executeChild(makeVideoWorkflow, {
          workflowId: makeVideoWorkflowId(projectId),
          args: [{ runId, userId: input.userId, projectId }],
          memo: { batch: input.batchId, projectId, owner: input.userId },
        });
        progress.completed++;
      } catch {
        progress.failed++;
      } finally {
        progress.running--;
      }
    }
  }

  const slots = Math.max(1, Math.min(input.concurrency, BATCH_CONCURRENCY.max));
  await Promise.all(Array.from({ length: slots }, slot));
  return progress;
}
