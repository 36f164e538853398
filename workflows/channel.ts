// A channel that runs itself (issue 52, decision 235), `channel-<channelId>`: a loop that asks the channelStep
// activity what is due at the channel's time (ideas placed into slots, videos to start ahead of their slots, approved
// videos whose slot has come), starts those make-video runs as children that outlive it (their ids are the
// project's, so a start repeated after a crash joins the run instead of making a second), then sleeps on a durable
// timer until the next thing due or a change. A dead worker or a day offline only delays the next step: the step
// reads the database, so a slot that passed is published late and marked so, never skipped, and an idea moves from
// approved to publishing once, so a retried step never posts twice.
import {
  condition,
  continueAsNew,
  ParentClosePolicy,
  proxyActivities,
  setHandler,
  startChild,
  WorkflowIdReusePolicy,
} from "@temporalio/workflow";
import type { ChannelActivities } from "./activities/channel";
import { makeVideoWorkflow } from "./make-video";
import { platformPostWorkflow } from "./platform-post";
import {
  CHANNEL_STEPS_PER_RUN,
  channelChangedSignal,
  channelClockAdvanceSignal,
  channelStateQuery,
  type ChannelWorkflowInput,
  type ChannelWorkflowState,
} from "./shared/channel";
import { makeVideoWorkflowId } from "./shared/make-video";
import { platformPostWorkflowId } from "./shared/platform-post";

const acts = proxyActivities<ChannelActivities>({
  startToCloseTimeout: "1 minute",
  retry: { initialInterval: "1 second", backoffCoefficient: 2, maximumInterval: "1 minute" },
});

const DEFAULT_POLL_MS = 30_000;
/** The longest real sleep between steps: a step at least every hour, whatever the schedule. */
const MAX_SLEEP_MS = 3600_000;

export async function channelWorkflow(input: ChannelWorkflowInput): Promise<void> {
  const state: ChannelWorkflowState = { lastStepAtMs: null, steps: 0, started: 0, published: 0 };
  let changed = false;
  setHandler(channelChangedSignal, () => {
    changed = true;
  });
  setHandler(channelStateQuery, () => state);
  const clock = input.clock ? { ...input.clock } : undefined;
  setHandler(channelClockAdvanceSignal, (ms) => {
    if (!clock || !(ms > 0)) return;
    clock.virtualAtMs += ms;
    changed = true;
  });
  const speed = clock?.speed ?? 1;
  const now = () => (clock ? clock.virtualAtMs + (Date.now() - clock.realAtMs) * clock.speed : Date.now());

  for (let i = 0; i < CHANNEL_STEPS_PER_RUN; i++) {
    changed = false;
    const at = now();
    const step = await acts.channelStep({ channelId: input.channelId, userId: input.userId, nowMs: at });
    state.lastStepAtMs = at;
    state.steps++;
    if (step.stop) return;
    for (const run of [...step.make, ...step.publish]) {
      try {
        await startChild(makeVideoWorkflow, {
          workflowId: makeVideoWorkflowId(run.projectId),
          args: [{ runId: run.runId, userId: input.userId, projectId: run.projectId, tuning: input.tuning }],
          parentClosePolicy: ParentClosePolicy.ABANDON,
          memo: { channel: input.channelId, ideaId: run.ideaId, projectId: run.projectId, owner: input.userId },
        });
      } catch (e) {
        // the run is already going (a step repeated after a crash): it is the same video, left to finish
        if (!(e instanceof Error && e.name === "WorkflowExecutionAlreadyStartedError")) throw e;
      }
    }
    // TikTok and Instagram: each post's own workflow (the publish step's, decision 271), started once: its id is the
    // post's and a closed one is never started again (REJECT_DUPLICATE), so a post handed back twice posts once
    for (const post of step.posts ?? []) {
      try {
        await startChild(platformPostWorkflow, {
          workflowId: platformPostWorkflowId(post.postId),
          args: [{ postId: post.postId, userId: input.userId, projectId: post.projectId, platform: post.platform, scheduledAt: null }],
          parentClosePolicy: ParentClosePolicy.ABANDON,
          workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
          // not a pipeline run: it holds none of the creator's run slots (as the Publish page's posts)
          memo: { startedBy: `platform-post:${input.userId}`, channel: input.channelId, ideaId: post.ideaId },
        });
      } catch (e) {
        if (!(e instanceof Error && e.name === "WorkflowExecutionAlreadyStartedError")) throw e;
      }
    }
    state.started += step.make.length;
    state.published += step.publish.length + (step.posts?.length ?? 0);
    let sleepMs = MAX_SLEEP_MS;
    if (step.nextAtMs !== null) sleepMs = Math.min(sleepMs, Math.max(0, (step.nextAtMs - now()) / speed));
    if (step.busy || step.make.length || step.publish.length || step.posts?.length) sleepMs = Math.min(sleepMs, input.pollMs ?? DEFAULT_POLL_MS);
    if (sleepMs > 0) await condition(() => changed, Math.max(1, Math.ceil(sleepMs)));
  }
  await continueAsNew<typeof channelWorkflow>({ ...input, clock });
}
