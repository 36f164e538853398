// One way every stage records its failure: on its own row and in the user's error log, in a scope that a
// cancellation cannot interrupt (a cancelled scope would refuse to schedule the recording activities).
import { ApplicationFailure, CancellationScope, isCancellation, proxyActivities } from "@temporalio/workflow";
import { innermostMessage } from "./errors";

/** The activity every stage shares for the error log (workflows/activities/index.ts offers it). */
type ErrorLogActivities = {
  logPipelineError(input: { userId: string; projectId?: string; type: string; message: string }): Promise<void>;
};

const { logPipelineError } = proxyActivities<ErrorLogActivities>({
  startToCloseTimeout: "30 seconds",
  retry: { maximumAttempts: 3 },
});

export type StageFailure = { message: string; cancelled: boolean };

/**
 * Records why a stage stopped and rethrows it as a non-retryable failure of type `failureType` (a cancellation
 * is rethrown as it is). `recordOnRow` writes the stage's own row; the error log gets `logType` unless cancelled.
 */
export async function recordStageFailure(
  error: unknown,
  options: {
    userId: string;
    projectId?: string;
    logType: string;
    failureType: string;
    fallbackMessage: string;
    cancelledMessage?: string;
    recordOnRow: (failure: StageFailure) => Promise<unknown>;
  },
): Promise<never> {
  const cancelled = isCancellation(error);
  const message = cancelled ? (options.cancelledMessage ?? "Cancelled") : innermostMessage(error, options.fallbackMessage);
  await CancellationScope.nonCancellable(async () => {
    await options.recordOnRow({ message, cancelled });
    if (!cancelled) await logPipelineError({ userId: options.userId, projectId: options.projectId, type: options.logType, message });
  });
  if (cancelled) throw error;
  throw ApplicationFailure.nonRetryable(message, options.failureType);
}
