// A TikTok or Instagram post's row, written one way for every door that posts (issue 49's publish step, /api/v1,
// MCP, and a channel's slot, decision 271): one post of a video per account while one is scheduled, under way or
// published, checked again under a lock on (video, account) so two retries cannot both pass. The post's workflow
// (workflows/platform-post.ts, `platform-post-<postId>`) does the rest.
import type { Prisma } from "~/generated/prisma/client";
import type { DbClient } from "~/core/db.server";
import { refusal } from "~/core/refusal.server";
import { platformPostWorkflowId } from "../../../workflows/shared/platform-post";

/** The states in which a video already is (or will be) on an account: posting it there again would post it twice. */
export const LIVE_OR_COMING = ["scheduled", "posting", "processing", "published"];

/** The video's post on this account that is scheduled, under way or published, if any. */
export function livePostOf(db: DbClient, videoId: string, connectionId: string) {
  return db.platformPost.findFirst({ where: { videoId, connectionId, status: { in: LIVE_OR_COMING } }, orderBy: { createdAt: "desc" } });
}

/** 409 when the video already has a post on this account that is scheduled, under way or published. */
export async function refuseSecondPost(db: DbClient, videoId: string, connectionId: string): Promise<void> {
  const existing = await livePostOf(db, videoId, connectionId);
  if (!existing) return;
  const state = existing.status === "published" ? "is already published" : existing.status === "scheduled" ? "is already scheduled" : "is already being posted";
  throw refusal(409, `This video ${state} on that account (post ${existing.id}): cancel or wait for that post before posting it again.`, { field: "connectionId", postId: existing.id });
}

export type NewPlatformPost = {
  userId: string;
  projectId: string;
  videoId: string;
  connectionId: string;
  platform: "tiktok" | "instagram";
  caption: string;
  options: Record<string, unknown>;
  scheduledAt: Date | null;
};

/**
 * Writes the post's row inside `tx` under a transaction-scoped lock on (video, account), after checking again that the
 * video has no live post there (409 otherwise). `withWorkflowId`: the row names its workflow at once (a caller that
 * starts the workflow itself, durably, such as a channel's workflow: the web's restart sweep then leaves it alone).
 */
export async function insertPlatformPost(tx: Prisma.TransactionClient, post: NewPlatformPost, { withWorkflowId = false } = {}) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`platform-post:${post.videoId}:${post.connectionId}`}))`;
  await refuseSecondPost(tx, post.videoId, post.connectionId);
  const row = await tx.platformPost.create({
    data: { ...post, options: post.options as Prisma.InputJsonValue, status: post.scheduledAt ? "scheduled" : "posting" },
  });
  return withWorkflowId ? tx.platformPost.update({ where: { id: row.id }, data: { workflowId: platformPostWorkflowId(row.id) } }) : row;
}
