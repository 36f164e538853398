// Animate scenes (issue 50): the whole request checked against the budget first (refused with the figures, before
// any call), then one AI clip per scene, one after another. A scene that fails is reported; the rest go on.
// Cancelling the workflow cancels the running generation (its activity hears it with a heartbeat's answer).
import { ActivityFailure, ApplicationFailure, isCancellation, proxyActivities } from "@temporalio/workflow";
import type { AiClipActivities } from "./activities/ai-clips";
import { AI_CLIP_REJECTED, CLIP_BUDGET_REFUSED, type AnimateScenesInput, type AnimateScenesResult } from "./shared/ai-clips";
import { innermostMessage } from "./shared/errors";
import { SCENE_MISSING } from "./shared/scene-media";
import { LONG_WORK } from "./shared/priorities";
import { proxyActivitiesOn } from "./shared/queues";

const { checkAiClipBudget } = proxyActivities<AiClipActivities>({ startToCloseTimeout: "30 seconds", retry: { maximumAttempts: 3, nonRetryableErrorTypes: [CLIP_BUDGET_REFUSED] } });
// a generation takes minutes: the activity heartbeats while it polls, and a retry polls the same job
const { generateSceneAiClip } = proxyActivitiesOn<AiClipActivities>("heavy", {
  priority: LONG_WORK,
  startToCloseTimeout: "15 minutes",
  heartbeatTimeout: "30 seconds",
  retry: { initialInterval: "2 seconds", backoffCoefficient: 2, maximumAttempts: 4, nonRetryableErrorTypes: [CLIP_BUDGET_REFUSED, AI_CLIP_REJECTED, SCENE_MISSING] },
});

export async function animateScenesWorkflow(input: AnimateScenesInput): Promise<AnimateScenesResult> {
  await checkAiClipBudget(input);
  const result: AnimateScenesResult = { clips: [], failures: [] };
  for (const cellIndex of input.cellIndexes) {
    try {
      result.clips.push(await generateSceneAiClip({ userId: input.userId, projectId: input.projectId, provider: input.provider, source: input.source, pollIntervalMs: input.pollIntervalMs, cellIndex }));
    } catch (e) {
      if (isCancellation(e)) throw e;
      const cause = e instanceof ActivityFailure ? e.cause : e;
      // the budget is checked again per scene (another request may have spent it meanwhile): nothing more starts
      if (cause instanceof ApplicationFailure && cause.type === CLIP_BUDGET_REFUSED) throw cause;
      result.failures.push({ cellIndex, message: innermostMessage(e, String(e)) });
    }
  }
  return result;
}
