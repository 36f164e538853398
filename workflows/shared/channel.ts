// The channel contract (issue 52, decision 235): one long-lived workflow per channel, `channel-<channelId>`, that
// wakes at the next thing due (a video to start ahead of its slot, a slot to publish) or when the channel changes
// (the changed signal), and reconciles the channel's ideas with the clock. Shared by workflows/channel.ts, its
// activities and app/server/channels.server.ts. No I/O here: the workflow bundle imports it.
import { defineQuery, defineSignal } from "@temporalio/workflow";
import type { MakeVideoTuning } from "./make-video";

export const channelWorkflowId = (channelId: string) => `channel-${channelId}`;

/**
 * A clock for tests: channel time = virtualAtMs + (workflow time - realAtMs) * speed, so a week passes in seconds.
 * Never set by the pages or the API: the real clock is the workflow's own.
 */
export type ChannelClock = { virtualAtMs: number; realAtMs: number; speed: number };

export type ChannelWorkflowInput = {
  channelId: string;
  userId: string;
  clock?: ChannelClock;
  /** Test shortcuts handed to each make-video run (a tiny render). */
  tuning?: MakeVideoTuning;
  /** Real milliseconds between checks while a video is being made or published (default 30 s). */
  pollMs?: number;
};

/** What is due now, as the channelStep activity found it. */
export type ChannelStep = {
  /** The channel is gone or paused: the workflow ends (a new one starts when it is resumed). */
  stop: boolean;
  /** Ideas whose video starts now: their run and project are made, the workflow starts make-video for each. */
  make: { ideaId: string; runId: string; projectId: string }[];
  /** Approved ideas whose slot has come: the workflow starts the publish (make-video with upload) for each. */
  publish: { ideaId: string; runId: string; projectId: string }[];
  /** TikTok / Instagram posts of approved ideas whose slot has come (decision 271): the workflow starts each post's workflow. */
  posts?: { ideaId: string; postId: string; projectId: string; platform: "tiktok" | "instagram" }[];
  /** Channel time (ms) of the next thing due; null: nothing scheduled (the workflow waits for a change). */
  nextAtMs: number | null;
  /** A video is being made or published: check again soon. */
  busy: boolean;
};

export const channelChangedSignal = defineSignal("channelChanged");
/** Tests only: moves a test clock (ChannelWorkflowInput.clock) forward by this many ms; ignored on the real clock. */
export const channelClockAdvanceSignal = defineSignal<[number]>("channelClockAdvance");
export type ChannelWorkflowState = { lastStepAtMs: number | null; steps: number; started: number; published: number };
export const channelStateQuery = defineQuery<ChannelWorkflowState>("channelState");

/** Steps before the workflow continues as new (keeps its history short over months). */
export const CHANNEL_STEPS_PER_RUN = 200;
/** A slot published this long after its time is marked late (the calendar says by how much). */
export const CHANNEL_LATE_AFTER_MS = 10 * 60_000;
/** How far ahead ideas are placed into slots. */
export const CHANNEL_HORIZON_DAYS = 35;
