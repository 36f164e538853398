// The music stage. musicTracksWorkflow: one run per Generate click (`music-tracks-<project>-<first track>`)
// submits the generation and polls it until the tracks are stored or failed; Suno's callback wakes it early
// (musicCallbackSignal), polling stays the fallback. backgroundMusicWorkflow (`background-music-<project>`)
// mixes a completed track into the latest render, with progress readable by backgroundMusicProgressQuery.
import { ApplicationFailure, condition, proxyActivities, setHandler } from "@temporalio/workflow";
import type { createMusicActivities } from "./activities/music";
import { recordStageFailure } from "./shared/failures";
import { proxyActivitiesOn } from "./shared/queues";
import {
  backgroundMusicProgressQuery,
  backgroundMusicProgressSignal,
  DEFAULT_MUSIC_MAX_WAIT_MS,
  DEFAULT_MUSIC_POLL_INTERVAL_MS,
  musicCallbackSignal,
  MUSIC_INPUT_ERROR,
  type BackgroundMusicInput,
  type BackgroundMusicProgress,
  type BackgroundMusicResult,
  type MusicTracksInput,
  type MusicTracksResult,
} from "./shared/music";

type Activities = ReturnType<typeof createMusicActivities>;

const { markMusicTracksFailed } = proxyActivities<Activities>({
  startToCloseTimeout: "1 minute",
  retry: { initialInterval: "1 second", backoffCoefficient: 2, maximumAttempts: 5, nonRetryableErrorTypes: [MUSIC_INPUT_ERROR] },
});
// submitting calls the music service: it heartbeats while it waits, so a cancellation reaches the request (decision 200)
const { startMusicGeneration } = proxyActivities<Activities>({
  startToCloseTimeout: "1 minute",
  heartbeatTimeout: "20 seconds",
  retry: { initialInterval: "1 second", backoffCoefficient: 2, maximumAttempts: 5, nonRetryableErrorTypes: [MUSIC_INPUT_ERROR] },
});
// the offline composer renders while polled: a few minutes of music may take a minute on two cores
const { pollMusicGeneration } = proxyActivitiesOn<Activities>("heavy", {
  startToCloseTimeout: "15 minutes",
  heartbeatTimeout: "30 seconds",
  retry: { initialInterval: "2 seconds", backoffCoefficient: 2, maximumAttempts: 5, nonRetryableErrorTypes: [MUSIC_INPUT_ERROR] },
});
const { mixBackgroundMusic } = proxyActivitiesOn<Activities>("heavy", {
  startToCloseTimeout: "30 minutes",
  heartbeatTimeout: "30 seconds",
  retry: { initialInterval: "1 second", backoffCoefficient: 2, maximumAttempts: 3, nonRetryableErrorTypes: [MUSIC_INPUT_ERROR] },
});

export async function musicTracksWorkflow(input: MusicTracksInput): Promise<MusicTracksResult> {
  let callbacks = 0;
  setHandler(musicCallbackSignal, () => {
    callbacks++;
  });
  const interval = input.pollIntervalMs ?? DEFAULT_MUSIC_POLL_INTERVAL_MS;
  const deadline = Date.now() + (input.maxWaitMs ?? DEFAULT_MUSIC_MAX_WAIT_MS);
  try {
    const { taskId } = await startMusicGeneration(input);
    for (;;) {
      // a callback that arrives while this poll runs must still cut the next wait short
      const seen = callbacks;
      const outcome = await pollMusicGeneration({ userId: input.userId, projectId: input.projectId, trackIds: input.trackIds, taskId });
      if (outcome.status === "completed") return { status: "completed", completed: input.trackIds.length, error: null };
      if (outcome.status === "error") throw ApplicationFailure.nonRetryable(outcome.error ?? "Failed to generate music", "MusicProviderFailed");
      if (Date.now() > deadline) throw ApplicationFailure.nonRetryable("The music service did not finish in time. Try generating again.", "MusicTimedOut");
      // wait for the next poll, or less when a callback says the task moved on
      await condition(() => callbacks > seen, interval);
    }
  } catch (error) {
    return recordStageFailure(error, {
      userId: input.userId,
      projectId: input.projectId,
      logType: "music_generation",
      failureType: "MusicGenerationFailed",
      fallbackMessage: "Failed to generate music",
      cancelledMessage: "The music generation was cancelled",
      recordOnRow: ({ message }) => markMusicTracksFailed({ trackIds: input.trackIds, error: message }),
    });
  }
}

export async function backgroundMusicWorkflow(input: BackgroundMusicInput): Promise<BackgroundMusicResult> {
  const state: BackgroundMusicProgress = { status: "preparing", percent: 0, stage: "Preparing the mix...", error: null };
  setHandler(backgroundMusicProgressQuery, () => state);
  setHandler(backgroundMusicProgressSignal, (update) => {
    if (state.status === "completed" || state.status === "failed") return;
    Object.assign(state, update);
  });
  try {
    const result = await mixBackgroundMusic(input);
    Object.assign(state, { status: "completed", percent: 100, stage: "Background music added" } satisfies Partial<BackgroundMusicProgress>);
    return result;
  } catch (error) {
    return recordStageFailure(error, {
      userId: input.userId,
      projectId: input.projectId,
      logType: "background_music",
      failureType: "BackgroundMusicFailed",
      fallbackMessage: "Failed to add background music to video",
      cancelledMessage: "Adding background music was cancelled",
      recordOnRow: async ({ message }) => {
        Object.assign(state, { status: "failed", stage: "Mixing failed", error: message } satisfies Partial<BackgroundMusicProgress>);
      },
    });
  }
}
