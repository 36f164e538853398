// Scenes checked against what is said (issue 50, decision 226): one retryable activity per scene, one after another.
// A scene whose check fails is left unchecked (not marked); the others go on.
import { isCancellation, proxyActivities } from "@temporalio/workflow";
import type { SceneCheckActivities } from "./activities/scene-check";
import type { SceneCheckInput, SceneCheckOutcome } from "./shared/scene-check";
import { SCENE_MISSING } from "./shared/scene-media";

const { checkSceneAgainstWords } = proxyActivities<SceneCheckActivities>({
  startToCloseTimeout: "2 minutes",
  retry: { initialInterval: "2 seconds", backoffCoefficient: 2, maximumAttempts: 4, nonRetryableErrorTypes: [SCENE_MISSING] },
});

export async function checkScenesWorkflow(input: SceneCheckInput): Promise<SceneCheckOutcome[]> {
  const outcomes: SceneCheckOutcome[] = [];
  for (const cellIndex of input.cellIndexes) {
    try {
      outcomes.push(await checkSceneAgainstWords({ userId: input.userId, projectId: input.projectId, cellIndex }));
    } catch (e) {
      if (isCancellation(e)) throw e;
      outcomes.push({ cellIndex, checked: false });
    }
  }
  return outcomes;
}
