// The TikTok / Instagram post stage's I/O (issue 49, decision 216). Every step reads the PlatformPost row first and
// does nothing twice: the platform's publish id / container id is saved before any byte is sent, a retried upload
// asks the platform how far it got, and an Instagram container is published only after checking that it is not
// published already. The platform's refusals that a retry cannot change fail the post at once, with their reason.
import { ApplicationFailure, Context } from "@temporalio/activity";
import { blockingReasons, platformChecks, TIKTOK_PRIVACY_LABELS, tiktokChunkPlan, type Platform, type TikTokPrivacyLevel } from "~/lib/platform-rules";
import { prisma } from "~/core/db.server";
import { emitWebhookEvent } from "~/core/webhooks.server";
import { decryptSecret, encryptSecret } from "~/core/encryption.server";
import { findMediaForUser, mediaIdFromUrl, mediaSize, readMediaRange } from "~/core/storage.server";
import { InstagramApiError, InstagramClient } from "~/core/platforms/instagram-client.server";
import { platformEnv } from "~/core/platforms/platform-env.server";
import { markRevoked, platformAccessToken, PlatformNotConnectedError, reconnectMessage } from "~/core/platforms/platform-tokens.server";
import { TikTokApiError, TikTokClient, tiktokPostUrl } from "~/core/platforms/tiktok-client.server";
import { PLATFORM_NOT_CONNECTED, PLATFORM_POST_REFUSED, type PlatformPostInput, type PlatformPostResult } from "../shared/platform-post";
import { withHeartbeat } from "../shared/heartbeat";
import { aiMadeForProject, probeFrameRate } from "~/core/platforms/video-origin.server";

export type TikTokPostOptions = {
  mode: "direct" | "inbox";
  privacyLevel: TikTokPrivacyLevel | null;
  disableComment: boolean;
  disableDuet: boolean;
  disableStitch: boolean;
};
export type InstagramPostOptions = { shareToFeed: boolean; thumbOffsetMs: number | null };

const refused = (message: string) => ApplicationFailure.create({ message, type: PLATFORM_POST_REFUSED, nonRetryable: true });
const notConnected = (platform: Platform) => ApplicationFailure.create({ message: reconnectMessage(platform), type: PLATFORM_NOT_CONNECTED, nonRetryable: true });
const DONE = ["published", "sent_to_inbox"];

async function loadPost(input: PlatformPostInput) {
  const post = await prisma.platformPost.findFirst({
    where: { id: input.postId, userId: input.userId, project: { userId: input.userId } },
    include: { video: true, connection: true },
  });
  if (!post) throw refused("The post was deleted before it was sent.");
  return post;
}
type LoadedPost = Awaited<ReturnType<typeof loadPost>>;

async function videoFileOf(post: LoadedPost) {
  const fileId = post.video?.mediaFileId ?? mediaIdFromUrl(post.video?.videoUrl);
  const file = fileId ? await findMediaForUser(post.userId, fileId) : null;
  if (!file) throw refused("The rendered video is gone. Render the video again, then post it.");
  const size = await mediaSize(file);
  if (size === null) throw refused("The rendered video file is missing. Render the video again, then post it.");
  return { file, size };
}

async function readRange(file: Parameters<typeof readMediaRange>[0], start: number, end: number): Promise<Uint8Array<ArrayBuffer>> {
  const bytes = await readMediaRange(file, { start, end: end - 1 });
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  return copy;
}

/** The platform's error as the post's outcome: a retry for what may pass later, a refusal for the rest. */
function platformFailure(platform: Platform, e: unknown): never {
  if (e instanceof PlatformNotConnectedError) throw notConnected(platform);
  if (e instanceof TikTokApiError) {
    if (e.retryable) throw new Error(`TikTok answered ${e.code}: ${e.message}`);
    throw refused(`TikTok refused the post: ${e.message} (${e.code}).`);
  }
  if (e instanceof InstagramApiError) {
    if (e.publishingLimit) throw refused("This Instagram account has published its limit of posts through the API in the last 24 hours. Try again later.");
    if (e.retryable) throw new Error(`Instagram answered code ${e.code}: ${e.message}`);
    throw refused(`Instagram refused the post: ${e.message}${e.code ? ` (code ${e.code})` : ""}.`);
  }
  throw e;
}

/**
 * Runs `call` with the connection's token; a token the platform refuses is refreshed once (TikTok) and the call
 * tried again; refused again (or Instagram's, which cannot be renewed) the connection is marked for reconnecting.
 */
async function withToken<T>(post: LoadedPost, call: (token: string) => Promise<T>): Promise<T> {
  const platform = post.platform as Platform;
  try {
    const token = await platformAccessToken(post.userId, post.connectionId);
    try {
      return await call(token);
    } catch (e) {
      const unauthorized = (e instanceof TikTokApiError || e instanceof InstagramApiError) && e.unauthorized;
      if (!unauthorized) throw e;
      if (platform === "instagram") {
        await markRevoked(post.connectionId);
        throw new PlatformNotConnectedError(platform);
      }
      const refreshed = await platformAccessToken(post.userId, post.connectionId, { refused: token });
      try {
        return await call(refreshed);
      } catch (again) {
        if (again instanceof TikTokApiError && again.unauthorized) {
          await markRevoked(post.connectionId);
          throw new PlatformNotConnectedError(platform);
        }
        throw again;
      }
    }
  } catch (e) {
    return platformFailure(platform, e);
  }
}

const tiktokOptions = (post: LoadedPost) => post.options as unknown as TikTokPostOptions;
const instagramOptions = (post: LoadedPost) => post.options as unknown as InstagramPostOptions;

export function createPlatformPostActivities() {
  /**
   * The platform's rules once more, with the account's latest limits (TikTok's creator info: its privacy levels and
   * longest video; Instagram's publishing quota), right before anything is sent.
   */
  async function checkPlatformPost(input: PlatformPostInput): Promise<{ totalBytes: number }> {
    const post = await loadPost(input);
    const { file, size } = await videoFileOf(post);
    if (DONE.includes(post.status) || post.remoteId) return { totalBytes: size };
    const platform = post.platform as Platform;
    const fps = await probeFrameRate(file);
    const facts = { durationSeconds: post.video?.durationSeconds ?? null, width: post.video?.width ?? null, height: post.video?.height ?? null, fps, sizeBytes: size };
    let maxSeconds: number | null = null;
    if (platform === "tiktok") {
      const options = tiktokOptions(post);
      const info = await withToken(post, (token) => new TikTokClient(token).creatorInfo());
      maxSeconds = info.maxVideoPostDurationSec;
      if (options.mode === "direct") {
        if (!options.privacyLevel) throw refused("Choose who can see the TikTok post.");
        if (!info.privacyLevelOptions.includes(options.privacyLevel)) {
          throw refused(`This TikTok account does not offer "${TIKTOK_PRIVACY_LABELS[options.privacyLevel]}" any more; choose one of ${info.privacyLevelOptions.map((l) => TIKTOK_PRIVACY_LABELS[l]).join(", ")}.`);
        }
        if (!platformEnv().TIKTOK_APP_AUDITED && options.privacyLevel !== "SELF_ONLY") {
          throw refused("TikTok has not audited this server's app yet, so its posts can only be private (Only me).");
        }
        if ((options.disableComment === false && info.commentDisabled) || (options.disableDuet === false && info.duetDisabled) || (options.disableStitch === false && info.stitchDisabled)) {
          throw refused("This TikTok account has turned off comments, duets or stitches in its settings; the post cannot turn them on.");
        }
      }
    } else {
      const { used, total } = await withToken(post, (token) => new InstagramClient(token).publishingLimit(post.connection.accountId));
      if (used >= total) throw refused(`This Instagram account has published ${used} of its ${total} posts allowed through the API in the last 24 hours. Try again later.`);
    }
    const reasons = blockingReasons(platformChecks(platform, facts, post.caption, maxSeconds));
    if (reasons.length) throw refused(reasons.join(" "));
    await prisma.platformPost.update({ where: { id: post.id }, data: { status: "posting", startedAt: post.startedAt ?? new Date(), totalBytes: BigInt(size), error: null } });
    return { totalBytes: size };
  }

  /** Starts the post at the platform and saves its id and upload address before any byte goes. */
  async function startPlatformPost(input: PlatformPostInput): Promise<{ remoteId: string }> {
    const post = await loadPost(input);
    if (post.remoteId) return { remoteId: post.remoteId };
    const { size } = await videoFileOf(post);
    const field = { userId: post.userId, field: `${post.platform}UploadUrl` };
    if (post.platform === "tiktok") {
      const options = tiktokOptions(post);
      const plan = tiktokChunkPlan(size);
      const source = { videoSize: size, chunkSize: plan.chunkSize, totalChunkCount: plan.totalChunkCount };
      // TikTok's AI-generated label, from what made the video (decision 240)
      const isAigc = (await aiMadeForProject(post.projectId)).declare;
      const started = await withToken(post, (token) => {
        const client = new TikTokClient(token);
        return options.mode === "inbox"
          ? client.initInboxUpload(source)
          : client.initDirectPost(
              {
                title: post.caption,
                privacyLevel: options.privacyLevel ?? "SELF_ONLY",
                disableComment: options.disableComment,
                disableDuet: options.disableDuet,
                disableStitch: options.disableStitch,
                isAigc,
              },
              source,
            );
      });
      await prisma.platformPost.update({ where: { id: post.id }, data: { remoteId: started.publishId, uploadUrlEnc: encryptSecret(started.uploadUrl, field), bytesUploaded: 0n } });
      return { remoteId: started.publishId };
    }
    const options = instagramOptions(post);
    const container = await withToken(post, (token) =>
      new InstagramClient(token).createReelContainer(post.connection.accountId, { caption: post.caption, shareToFeed: options.shareToFeed, thumbOffsetMs: options.thumbOffsetMs ?? undefined }),
    );
    await prisma.platformPost.update({ where: { id: post.id }, data: { remoteId: container.id, uploadUrlEnc: encryptSecret(container.uri, field), bytesUploaded: 0n } });
    return { remoteId: container.id };
  }

  /** Sends the file to the upload address saved by startPlatformPost, from where the platform says it stands. */
  async function sendPlatformPostBytes(input: PlatformPostInput): Promise<{ bytesUploaded: number }> {
    return withHeartbeat(() => sendBytes(input), { intervalMs: 5000 });
  }

  async function sendBytes(input: PlatformPostInput): Promise<{ bytesUploaded: number }> {
    const post = await loadPost(input);
    if (!post.remoteId || !post.uploadUrlEnc) throw new Error("The post was not started at the platform yet");
    const { file, size } = await videoFileOf(post);
    const uploadUrl = decryptSecret(post.uploadUrlEnc, { userId: post.userId, field: `${post.platform}UploadUrl` });
    const signal = Context.current().cancellationSignal;
    const saved = async (bytes: number) => {
      await prisma.platformPost.update({ where: { id: post.id }, data: { bytesUploaded: BigInt(bytes) } });
      Context.current().heartbeat({ bytes });
    };
    if (post.platform === "tiktok") {
      const plan = tiktokChunkPlan(size);
      // where TikTok stands: a finished upload is not sent again; an unfinished one goes on from its last whole chunk
      const status = await withToken(post, (token) => new TikTokClient(token, undefined, signal).fetchStatus(post.remoteId!));
      if (status.status !== "PROCESSING_UPLOAD") {
        await saved(size);
        return { bytesUploaded: size };
      }
      const acknowledged = status.uploadedBytes ?? Number(post.bytesUploaded);
      let index = plan.chunks.findIndex((c) => c.start >= acknowledged);
      if (index < 0) index = plan.chunks.length - 1;
      for (; index < plan.chunks.length; index++) {
        const { start, end } = plan.chunks[index]!;
        const chunk = await readRange(file, start, end);
        try {
          // the upload URL carries its own authorization: no bearer token
          await new TikTokClient("", undefined, signal).putChunk(uploadUrl, chunk, start, size, file.mimeType || "video/mp4");
        } catch (e) {
          platformFailure("tiktok", e);
        }
        await saved(end);
      }
      return { bytesUploaded: size };
    }
    const status = await withToken(post, (token) => new InstagramClient(token, signal).containerStatus(post.remoteId!));
    if (status.statusCode === "EXPIRED" || status.statusCode === "ERROR") throw refused(`Instagram could not take the video (${status.status ?? status.statusCode}).`);
    const offset = status.bytesTransferred ?? 0;
    if (offset >= size || status.statusCode !== "IN_PROGRESS") {
      await saved(size);
      return { bytesUploaded: size };
    }
    await withToken(post, async (token) => new InstagramClient(token, signal).upload(uploadUrl, await readRange(file, offset, size), offset, size));
    await saved(size);
    return { bytesUploaded: size };
  }

  /** One look at the platform's processing: done, or how long to wait before the next look. */
  async function pollPlatformPost(input: PlatformPostInput): Promise<{ done: boolean; waitMs: number }> {
    const post = await loadPost(input);
    const waitMs = platformEnv().PLATFORM_POLL_SECONDS * 1000;
    if (DONE.includes(post.status)) return { done: true, waitMs };
    if (post.platform === "tiktok") {
      const status = await withToken(post, (token) => new TikTokClient(token).fetchStatus(post.remoteId!));
      if (status.status === "FAILED") throw refused(`TikTok could not post the video${status.failReason ? ` (${status.failReason})` : ""}.`);
      if (status.status === "SEND_TO_USER_INBOX" || (status.status === "PUBLISH_COMPLETE" && tiktokOptions(post).mode === "inbox")) {
        await prisma.platformPost.update({ where: { id: post.id }, data: { status: "sent_to_inbox", completedAt: new Date(), error: null } });
        return { done: true, waitMs };
      }
      if (status.status === "PUBLISH_COMPLETE") {
        const postId = status.publicPostIds[0] ?? null;
        let permalink: string | null = null;
        if (postId) {
          const info = await withToken(post, (token) => new TikTokClient(token).creatorInfo()).catch(() => null);
          if (info?.creatorUsername) permalink = tiktokPostUrl(info.creatorUsername, postId);
        }
        await prisma.platformPost.update({ where: { id: post.id }, data: { status: "published", publishedId: postId, permalink, completedAt: new Date(), error: null } });
        return { done: true, waitMs };
      }
      await prisma.platformPost.update({ where: { id: post.id }, data: { status: "processing" } });
      return { done: false, waitMs };
    }
    const status = await withToken(post, (token) => new InstagramClient(token).containerStatus(post.remoteId!));
    if (status.statusCode === "ERROR") throw refused(`Instagram could not process the video (${status.status ?? "ERROR"}).`);
    if (status.statusCode === "EXPIRED") throw refused("The Instagram container expired before it was published (after 24 hours).");
    if (status.statusCode === "FINISHED" || status.statusCode === "PUBLISHED") return { done: true, waitMs };
    await prisma.platformPost.update({ where: { id: post.id }, data: { status: "processing" } });
    return { done: false, waitMs };
  }

  /** Instagram: media_publish, unless the container is published already. TikTok published itself. */
  async function publishPlatformPost(input: PlatformPostInput): Promise<PlatformPostResult> {
    let post = await loadPost(input);
    if (post.platform === "instagram" && !DONE.includes(post.status)) {
      const status = await withToken(post, (token) => new InstagramClient(token).containerStatus(post.remoteId!));
      if (status.statusCode === "PUBLISHED") {
        // published by an attempt that died before saving the media id: never published again
        await prisma.platformPost.update({ where: { id: post.id }, data: { status: "published", completedAt: new Date(), error: null } });
      } else {
        const { mediaId } = await withToken(post, (token) => new InstagramClient(token).publish(post.connection.accountId, post.remoteId!));
        // the link is asked for before the row says "published": the page stops polling at a settled post, so a link
        // written a moment later stayed unseen until a reload (a dying attempt here is caught above: PUBLISHED)
        const permalink = await withToken(post, (token) => new InstagramClient(token).permalink(mediaId)).catch(() => null);
        await prisma.platformPost.update({ where: { id: post.id }, data: { status: "published", publishedId: mediaId, permalink, completedAt: new Date(), error: null } });
      }
      post = await loadPost(input);
    }
    return { status: post.status === "sent_to_inbox" ? "sent_to_inbox" : "published", publishedId: post.publishedId, permalink: post.permalink };
  }

  async function recordPlatformPostOutcome(input: { postId: string; status: "failed" | "cancelled"; message: string }): Promise<void> {
    await prisma.platformPost.updateMany({ where: { id: input.postId, status: { notIn: DONE } }, data: { status: input.status, error: input.message } });
  }

  /** Records the post's outcome for the creator's webhook endpoints (post.published, post.failed): the delivery ids. */
  async function queuePlatformPostEvent(input: { postId: string; userId: string; event: "post.published" | "post.failed" }): Promise<string[]> {
    const post = await prisma.platformPost.findFirst({ where: { id: input.postId, userId: input.userId }, include: { connection: { select: { accountName: true } } } });
    if (!post) return [];
    return emitWebhookEvent(input.userId, input.event, {
      id: post.id,
      projectId: post.projectId,
      platform: post.platform,
      account: post.connection.accountName,
      status: post.status,
      scheduledAt: post.scheduledAt?.toISOString() ?? null,
      publishedId: post.publishedId,
      permalink: post.permalink,
      error: post.error,
    });
  }

  return { checkPlatformPost, startPlatformPost, sendPlatformPostBytes, pollPlatformPost, publishPlatformPost, recordPlatformPostOutcome, queuePlatformPostEvent };
}
