// The storyboard stage: the finished script becomes scenes (image prompt + voiceover text each), sized for
// the video's format and length. One run per project (`storyboard-<projectId>`).
import { proxyActivities, workflowInfo } from "@temporalio/workflow";
import type { StoryboardActivities } from "./activities/storyboard";
import { recordStageFailure } from "./shared/failures";
import { NO_SCRIPT, STORYBOARD_FAILED, type StoryboardWorkflowInput, type StoryboardWorkflowResult } from "./shared/storyboard";

const { writeStoryboardScenes, markStoryboardFailed } = proxyActivities<StoryboardActivities>({
  startToCloseTimeout: "5 minutes",
  heartbeatTimeout: "20 seconds",
  retry: { initialInterval: "1 second", backoffCoefficient: 2, maximumAttempts: 5, nonRetryableErrorTypes: [NO_SCRIPT] },
});

export async function storyboardWorkflow(input: StoryboardWorkflowInput): Promise<StoryboardWorkflowResult> {
  try {
    return await writeStoryboardScenes({ projectId: input.projectId, userId: input.userId, seed: `${input.projectId}:${workflowInfo().runId}` });
  } catch (error) {
    return await recordStageFailure(error, {
      userId: input.userId,
      projectId: input.projectId,
      logType: "storyboard_generation",
      failureType: STORYBOARD_FAILED,
      fallbackMessage: "An error occurred during storyboard generation",
      cancelledMessage: "Storyboard generation was cancelled",
      recordOnRow: ({ message }) => markStoryboardFailed({ projectId: input.projectId, error: message }),
    });
  }
}
