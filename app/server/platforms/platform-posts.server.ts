// Posting a video to TikTok and Instagram as the web side sees it (issue 49): the publish body (one entry per
// account, each with its caption, options and time), each platform's rules checked before anything starts (a post a
// platform would refuse is refused for that platform only, with its reasons), one workflow per post
// (workflows/platform-post.ts), the posts' states, and a scheduled post moved or cancelled until it starts.
import { blockingReasons, PLATFORM_NAMES, platformChecks, type Platform, type PlatformVideoFacts } from "~/lib/platform-rules";
import type { RenderedVideo } from "~/generated/prisma/client";
import { platformPostRescheduleSignal, platformPostWorkflowId, type PlatformPostInput } from "../../../workflows/shared/platform-post";
import type { platformPostWorkflow } from "../../../workflows/platform-post";
import { prisma } from "~/core/db.server";
import { assertCanUpload } from "~/core/permissions.server";
import { getCurrentProject } from "~/core/projects.server";
import { findMediaForUser, mediaIdFromUrl, mediaSize } from "~/core/storage.server";
import { getTemporalClient, startWorkflow, WorkflowAlreadyRunningError } from "../temporal.server";
import { reconnectMessage } from "~/core/platforms/platform-tokens.server";
import { ownConnection } from "./platform-connections.server";
import { platformEnv } from "~/core/platforms/platform-env.server";
import { probeFrameRate } from "~/core/platforms/video-origin.server";
import type { PlatformPostView, PublishBody } from "./platform-posts-schemas";
import { refusal } from "~/core/refusal.server";
import { insertPlatformPost, refuseSecondPost } from "~/core/platforms/platform-post-rows.server";

export { PublishBodySchema, RescheduleBodySchema, type PlatformPostView, type PublishBody } from "./platform-posts-schemas";

/** The video's facts for the platforms' rules (the file's size read from storage, its frame rate by ffprobe). */
export async function videoFacts(userId: string, video: Pick<RenderedVideo, "mediaFileId" | "videoUrl" | "durationSeconds" | "width" | "height">): Promise<PlatformVideoFacts> {
  const fileId = video.mediaFileId ?? mediaIdFromUrl(video.videoUrl);
  const file = fileId ? await findMediaForUser(userId, fileId) : null;
  return { durationSeconds: video.durationSeconds, width: video.width, height: video.height, fps: file ? await probeFrameRate(file) : null, sizeBytes: file ? await mediaSize(file) : null };
}

/** The video to post: the named one of the project (the current one unless given), else its newest finished one. */
async function chooseVideo(userId: string, videoPath: string | undefined, projectId?: string) {
  const project = projectId ? await prisma.project.findFirst({ where: { id: projectId, userId } }) : await getCurrentProject(userId);
  if (!project) throw refusal(404, "No video found. Please render your video first.");
  const finished = { projectId: project.id, status: "completed" as const, videoUrl: { not: null } };
  const fileId = videoPath ? mediaIdFromUrl(videoPath) : null;
  const video = videoPath
    ? fileId
      ? await prisma.renderedVideo.findFirst({ where: { ...finished, OR: [{ mediaFileId: fileId }, { videoUrl: videoPath }] } })
      : null
    : await prisma.renderedVideo.findFirst({ where: finished, orderBy: { createdAt: "desc" } });
  if (!video) {
    if (projectId && !videoPath) throw refusal(409, "The video is not finished yet: post it once its status is completed.");
    throw refusal(404, videoPath ? "That video is not one of this project's rendered videos." : "No video found. Please render your video first.", { field: "videoPath" });
  }
  return { project, video };
}

export type PublishOutcome = { posts: PlatformPostView[]; refused: { platform: Platform; connectionId: string; reasons: string[] }[] };

/**
 * POST /api/platforms/posts: each entry checked by its platform's rules; the refused ones are answered with their
 * reasons, the others start (or wait for their time). 422 when every entry is refused.
 */
export async function publishToPlatforms(userId: string, body: PublishBody, projectId?: string): Promise<PublishOutcome> {
  await assertCanUpload(userId);
  const { project, video } = await chooseVideo(userId, body.videoPath, projectId);
  const facts = await videoFacts(userId, video);
  const refused: PublishOutcome["refused"] = [];
  const accepted: { entry: PublishBody["posts"][number]; connectionId: string }[] = [];
  const seen = new Set<string>();
  for (const entry of body.posts) {
    const connection = await ownConnection(userId, entry.connectionId);
    if (connection.platform !== entry.platform) throw refusal(400, `That account is a ${PLATFORM_NAMES[connection.platform as Platform]} account.`, { field: "connectionId" });
    if (seen.has(connection.id)) throw refusal(400, "Each account can be chosen once per publish.", { field: "connectionId" });
    seen.add(connection.id);
    await refuseSecondPost(prisma, video.id, connection.id);
    if (connection.revokedAt) {
      refused.push({ platform: entry.platform, connectionId: connection.id, reasons: [reconnectMessage(entry.platform)] });
      continue;
    }
    const reasons = blockingReasons(platformChecks(entry.platform, facts, entry.caption));
    if (entry.platform === "tiktok" && entry.tiktok?.mode === "direct" && !platformEnv().TIKTOK_APP_AUDITED && entry.tiktok.privacyLevel !== "SELF_ONLY") {
      reasons.push("TikTok has not audited this server's app yet, so its posts can only be private (Only me).");
    }
    if (reasons.length) refused.push({ platform: entry.platform, connectionId: connection.id, reasons });
    else accepted.push({ entry, connectionId: connection.id });
  }
  if (!accepted.length) throw refusal(422, refused.map((r) => `${PLATFORM_NAMES[r.platform]}: ${r.reasons.join(" ")}`).join(" "), { refused });

  const posts: PlatformPostView[] = [];
  for (const { entry, connectionId } of accepted) {
    const options =
      entry.platform === "tiktok"
        ? {
            mode: entry.tiktok!.mode,
            privacyLevel: entry.tiktok!.privacyLevel,
            disableComment: !entry.tiktok!.allowComment,
            disableDuet: !entry.tiktok!.allowDuet,
            disableStitch: !entry.tiktok!.allowStitch,
          }
        : { shareToFeed: entry.instagram?.shareToFeed ?? true, thumbOffsetMs: entry.instagram?.coverAtMs ?? null };
    const scheduledAt = entry.scheduledAt ? new Date(entry.scheduledAt) : null;
    // serialised per (video, account): two retries of one request cannot both pass the check and both post
    const post = await prisma.$transaction((tx) => insertPlatformPost(tx, { userId, projectId: project.id, videoId: video.id, connectionId, platform: entry.platform, caption: entry.caption, options, scheduledAt }));
    try {
      await startPostWorkflow(post);
    } catch (e) {
      await prisma.platformPost.delete({ where: { id: post.id } });
      throw e;
    }
    posts.push(view(await prisma.platformPost.update({ where: { id: post.id }, data: { workflowId: platformPostWorkflowId(post.id) }, include: { connection: true } })));
  }
  return { posts, refused };
}

type PostRow = { id: string; userId: string; projectId: string; platform: string; scheduledAt: Date | null };

/** The post's one workflow, its id the post's: starting it twice never makes a second run while one is open. */
async function startPostWorkflow(post: PostRow) {
  const input: PlatformPostInput = { postId: post.id, userId: post.userId, projectId: post.projectId, platform: post.platform as Platform };
  // not a pipeline run: a post waiting for Friday must not hold one of the creator's run slots
  await startWorkflow<typeof platformPostWorkflow>("platformPostWorkflow", {
    workflowId: platformPostWorkflowId(post.id),
    args: [{ ...input, scheduledAt: post.scheduledAt?.getTime() ?? null }],
    memo: { startedBy: `platform-post:${post.userId}` },
  });
}

/** How long a post row may wait for its workflow's id before it counts as left behind by a web server that died. */
const UNSTARTED_GRACE_MS = 30_000;

/**
 * Posts whose row was written but whose workflow's id never was: the web server died (SIGKILL, a crash) between the
 * two. Their workflow is started now (or found running: the id is the post's, so a post is never started twice).
 */
export async function resumeUnstartedPosts(userId: string): Promise<number> {
  const left = await prisma.platformPost.findMany({
    where: { userId, workflowId: null, status: { in: ["posting", "scheduled"] }, createdAt: { lt: new Date(Date.now() - UNSTARTED_GRACE_MS) } },
    take: 20,
  });
  for (const post of left) {
    try {
      await startPostWorkflow(post);
    } catch (e) {
      if (!(e instanceof WorkflowAlreadyRunningError)) throw e;
    }
    await prisma.platformPost.update({ where: { id: post.id }, data: { workflowId: platformPostWorkflowId(post.id) } });
  }
  return left.length;
}

function view(post: Awaited<ReturnType<typeof prisma.platformPost.findFirstOrThrow<{ include: { connection: true } }>>>): PlatformPostView {
  return {
    id: post.id,
    platform: post.platform as Platform,
    accountName: post.connection.accountName,
    status: post.status as PlatformPostView["status"],
    scheduledAt: post.scheduledAt?.toISOString() ?? null,
    caption: post.caption,
    bytesUploaded: Number(post.bytesUploaded),
    totalBytes: Number(post.totalBytes ?? 0),
    publishedId: post.publishedId,
    permalink: post.permalink,
    error: post.error,
    createdAt: post.createdAt.toISOString(),
  };
}

/** The posts of a project (the current one unless named), newest first. */
export async function listPlatformPosts(userId: string, projectId?: string): Promise<PlatformPostView[]> {
  const id = projectId ?? (await getCurrentProject(userId))?.id;
  if (!id) return [];
  await resumeUnstartedPosts(userId);
  const rows = await prisma.platformPost.findMany({ where: { userId, projectId: id }, orderBy: { createdAt: "desc" }, include: { connection: true }, take: 100 });
  return rows.map(view);
}

async function ownScheduledPost(userId: string, postId: string) {
  const post = await prisma.platformPost.findFirst({ where: { id: postId, userId } });
  if (!post) throw refusal(404, "That post is not one of yours.", { field: "postId" });
  if (post.status !== "scheduled") throw refusal(409, "This post has started already: it can no longer be changed or cancelled.");
  return post;
}

/** Cancels a scheduled post that has not started. */
export async function cancelPlatformPost(userId: string, postId: string): Promise<void> {
  const post = await ownScheduledPost(userId, postId);
  const handle = (await getTemporalClient()).workflow.getHandle(post.workflowId ?? platformPostWorkflowId(post.id));
  await handle.cancel();
  await prisma.platformPost.updateMany({ where: { id: post.id, status: "scheduled" }, data: { status: "cancelled", error: "Cancelled by you before it started." } });
}

/** Moves a scheduled post (null: post now). */
export async function reschedulePlatformPost(userId: string, postId: string, scheduledAt: string | null | undefined): Promise<void> {
  const post = await ownScheduledPost(userId, postId);
  const at = scheduledAt ? new Date(scheduledAt) : null;
  await prisma.platformPost.update({ where: { id: post.id }, data: { scheduledAt: at, ...(at ? {} : { status: "posting" }) } });
  await (await getTemporalClient()).workflow.getHandle(post.workflowId ?? platformPostWorkflowId(post.id)).signal(platformPostRescheduleSignal, at?.getTime() ?? null);
}
