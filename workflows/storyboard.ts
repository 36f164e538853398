// The storyboard stage: the finished script becomes scenes (image prompt + voiceover text each), sized for
// the video's format and length. One run per project (`storyboard-<projectId>`).
import { ApplicationFailure, CancellationScope, proxyActivities, workflowInfo } from "@temporalio/workflow";
import type { createStoryboardActivities } from "./activities/storyboard";
import type * as sharedActivities from "./activities";

type Activities = ReturnType<typeof createStoryboardActivities>;

export type StoryboardWorkflowInput = { projectId: string; userId: string };
export const storyboardWorkflowId = (projectId: string) => `storyboard-${projectId}`;

const { writeStoryboardScenes, markStoryboardFailed } = proxyActivities<Activities>({
  startToCloseTimeout: "5 minutes",
  heartbeatTimeout: "20 seconds",
  retry: { initialInterval: "1 second", backoffCoefficient: 2, maximumAttempts: 5, nonRetryableErrorTypes: ["NoScript"] },
});
const { logPipelineError } = proxyActivities<typeof sharedActivities>({ startToCloseTimeout: "30 seconds" });

export async function storyboardWorkflow(input: StoryboardWorkflowInput): Promise<{ cellCount: number }> {
  try {
    return await writeStoryboardScenes({ projectId: input.projectId, userId: input.userId, seed: `${input.projectId}:${workflowInfo().runId}` });
  } catch (error) {
    const message = innermostMessage(error) || "An error occurred during storyboard generation";
    await CancellationScope.nonCancellable(async () => {
      await markStoryboardFailed({ projectId: input.projectId, error: message });
      await logPipelineError({ userId: input.userId, projectId: input.projectId, type: "storyboard_generation", message });
    });
    throw ApplicationFailure.nonRetryable(message, "StoryboardGenerationFailed");
  }
}

export function innermostMessage(error: unknown): string {
  let current = error as { message?: string; cause?: unknown } | undefined;
  while (current?.cause) current = current.cause as typeof current;
  return current?.message ?? "";
}
