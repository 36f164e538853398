// The TikTok / Instagram post stage's contract (issue 49), shared by the workflow, its activities and the web side:
// one workflow per post (`platform-post-<postId>`), its input, the progress query, the signal that moves a
// scheduled post's time, and the error types a retry cannot fix.
import { defineQuery, defineSignal } from "@temporalio/workflow";

export type PlatformPostInput = { postId: string; userId: string; projectId: string; platform: "tiktok" | "instagram" };

export type PlatformPostPhase = "scheduled" | "checking" | "uploading" | "processing" | "publishing" | "published" | "sent_to_inbox" | "failed" | "cancelled";

export type PlatformPostProgress = { phase: PlatformPostPhase; scheduledAt: number | null; bytesUploaded: number; totalBytes: number; error: string | null };

export type PlatformPostResult = { status: "published" | "sent_to_inbox"; publishedId: string | null; permalink: string | null };

export const platformPostWorkflowId = (postId: string) => `platform-post-${postId}`;
export const platformPostProgressQuery = defineQuery<PlatformPostProgress>("platformPostProgress");
/** A new time for a scheduled post (ms since the epoch; null: now). Taken only until the post starts. */
export const platformPostRescheduleSignal = defineSignal<[number | null]>("platformPostReschedule");

/** The platform's own rules refuse this post (duration, size, caption, privacy level, the account's limits). */
export const PLATFORM_POST_REFUSED = "PlatformPostRefused";
/** The platform refused the account's tokens: the creator must reconnect. */
export const PLATFORM_NOT_CONNECTED = "PlatformNotConnected";
export const PLATFORM_POST_FAILED = "PlatformPostFailed";
export const PLATFORM_NON_RETRYABLE = [PLATFORM_POST_REFUSED, PLATFORM_NOT_CONNECTED];
