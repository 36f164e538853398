// One post of a video to one TikTok or Instagram account (issue 49), now or at a time. Neither platform schedules
// posts through its API, so the workflow's durable timer does: a post for Friday starts on Friday after any restart,
// once, and its time may be moved (signal) or the post cancelled (workflow cancel) until it starts. Then: the
// platform's rules are checked again with the account's latest limits; the post is started and the platform's
// publish id (TikTok) or container id (Instagram) is saved before any byte is sent; the bytes go (heartbeating,
// resumed from what the platform reports on a retry); the platform's status is polled with durable sleeps; and an
// Instagram container is published, after checking it was not published already. No step can post twice.
import { condition, isCancellation, proxyActivities, setHandler, sleep } from "@temporalio/workflow";
import type { createPlatformPostActivities } from "./activities/platform-post";
import { recordStageFailure } from "./shared/failures";
import { innermostMessage } from "./shared/errors";
import { proxyActivitiesOn } from "./shared/queues";
import { startWebhookDeliveries } from "./webhooks";
import {
  PLATFORM_NON_RETRYABLE,
  PLATFORM_POST_FAILED,
  platformPostProgressQuery,
  platformPostRescheduleSignal,
  type PlatformPostInput,
  type PlatformPostProgress,
  type PlatformPostResult,
} from "./shared/platform-post";

type Activities = ReturnType<typeof createPlatformPostActivities>;

const { checkPlatformPost, startPlatformPost, pollPlatformPost, publishPlatformPost, recordPlatformPostOutcome, queuePlatformPostEvent } = proxyActivities<Activities>({
  startToCloseTimeout: "2 minutes",
  retry: { initialInterval: "2 seconds", backoffCoefficient: 2, maximumInterval: "5 minutes", maximumAttempts: 10, nonRetryableErrorTypes: PLATFORM_NON_RETRYABLE },
});

const { sendPlatformPostBytes } = proxyActivitiesOn<Activities>("heavy", {
  startToCloseTimeout: "6 hours",
  heartbeatTimeout: "20 seconds",
  retry: { initialInterval: "2 seconds", backoffCoefficient: 2, maximumInterval: "1 minute", maximumAttempts: 8, nonRetryableErrorTypes: PLATFORM_NON_RETRYABLE },
});

/** TikTok moderation may take hours; an Instagram container expires after 24 hours. */
const MAX_POLLS = 2000;

export async function platformPostWorkflow(input: PlatformPostInput & { scheduledAt: number | null }): Promise<PlatformPostResult> {
  const state: PlatformPostProgress = { phase: input.scheduledAt ? "scheduled" : "checking", scheduledAt: input.scheduledAt, bytesUploaded: 0, totalBytes: 0, error: null };
  setHandler(platformPostProgressQuery, () => state);
  setHandler(platformPostRescheduleSignal, (at) => {
    if (state.phase === "scheduled") state.scheduledAt = at;
  });

  try {
    // the durable wait: moved by the signal, ended by a cancellation
    while (state.scheduledAt !== null && state.scheduledAt > Date.now()) {
      const waitingFor = state.scheduledAt;
      await condition(() => state.scheduledAt !== waitingFor, waitingFor - Date.now());
    }
    state.phase = "checking";
    const { totalBytes } = await checkPlatformPost(input);
    state.totalBytes = totalBytes;
    await startPlatformPost(input);
    state.phase = "uploading";
    await sendPlatformPostBytes(input);
    Object.assign(state, { phase: "processing", bytesUploaded: totalBytes });
    let polls = 0;
    for (;;) {
      const polled = await pollPlatformPost(input);
      if (polled.done) break;
      if (++polls > MAX_POLLS) throw new Error("The platform did not finish processing the video in time");
      await sleep(polled.waitMs);
    }
    state.phase = "publishing";
    const result = await publishPlatformPost(input);
    state.phase = result.status;
    // a failure to queue the event does not undo the post
    await announce(input, "post.published").catch(() => {});
    return result;
  } catch (e) {
    Object.assign(state, { phase: "failed", error: innermostMessage(e, FALLBACK_MESSAGE) });
    try {
      // the row's outcome written once, as every stage records its failure
      return await recordStageFailure(e, {
        userId: input.userId,
        projectId: input.projectId,
        logType: "platform-post",
        failureType: PLATFORM_POST_FAILED,
        fallbackMessage: FALLBACK_MESSAGE,
        cancelledMessage: "The post was cancelled",
        recordOnRow: ({ message, cancelled }) => recordPlatformPostOutcome({ postId: input.postId, status: cancelled ? "cancelled" : "failed", message }),
      });
    } finally {
      // after the row, so the event carries the reason; a cancelled post is not announced
      if (!isCancellation(e)) await announce(input, "post.failed").catch(() => {});
    }
  }
}

const FALLBACK_MESSAGE = "The post failed for an unknown reason";

/** The post's outcome for the creator's webhook endpoints; each delivery is its own workflow that outlives this one. */
async function announce(input: PlatformPostInput, event: "post.published" | "post.failed") {
  await startWebhookDeliveries(await queuePlatformPostEvent({ postId: input.postId, userId: input.userId, event }), event, input.userId);
}
