// The YouTube upload stage's I/O: check the video, send it with YouTube's resumable upload protocol (session URI,
// chunked PUTs acknowledged by 308 + Range), set the approved thumbnail, and record the outcome. The session URI
// and the acknowledged byte count are saved after every chunk, so a retry (a cut connection, a killed worker)
// asks YouTube how far it got and continues from there instead of sending the video again.
import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { ApplicationFailure, Context } from "@temporalio/activity";
import { storedCaptionCues, toSrt } from "~/lib/caption-track";
import { languageOf } from "~/lib/languages";
import { CAPTIONS_NEED_RECONNECT, CAPTIONS_SCOPE, QUOTA_EXCEEDED_MESSAGE } from "~/lib/youtube";
import { prisma } from "~/core/db.server";
import { decryptSecret, encryptSecret } from "~/core/encryption.server";
import { getEnv } from "~/core/env.server";
import { findMediaForUser, mediaIdFromUrl, mediaSize, openMediaStream, readMediaRange } from "~/core/storage.server";
import { claimPublish, finishPublish, publishClaimKey, publishedUnder, releasePublish } from "~/core/publish-claims.server";
import { versionLocalizations, type VersionLocalization } from "~/core/youtube-localizations.server";
import {
  authorizedYoutube,
  freshAccessToken,
  googleErrorDetails,
  markConnectionRevoked,
  YoutubeNotConnectedError,
  youtubeCallOptions,
  type OAuth2Client,
} from "~/core/youtube-client.server";
import {
  YOUTUBE_NOT_CONNECTED,
  YOUTUBE_QUOTA_EXCEEDED,
  YOUTUBE_UPLOAD_INPUT_ERROR,
  youtubeUploadProgressSignal,
  youtubeUploadWorkflowId,
  type YoutubeUploadInput,
  type YoutubeUploadProgressUpdate,
} from "../shared/youtube-upload";
import { withHeartbeat } from "../shared/heartbeat";

export type YoutubeUploadDeps = {
  /** Bytes per PUT (a multiple of 256 KiB); from YOUTUBE_UPLOAD_CHUNK_BYTES unless a test sets it. */
  chunkBytes?: number;
  /**
   * Failed PUTs in a row, with no byte acknowledged between them, that one attempt resumes from (1: a chunk is sent
   * at most twice per attempt). The next failure ends the attempt and Temporal, the one retry owner, retries it with
   * its back-off; the next attempt asks YouTube for the offset and resumes (decision 201).
   */
  maxChunkFailures?: number;
};

const inputError = (message: string) => ApplicationFailure.create({ message, type: YOUTUBE_UPLOAD_INPUT_ERROR, nonRetryable: true });
const notConnected = (message: string) => ApplicationFailure.create({ message, type: YOUTUBE_NOT_CONNECTED, nonRetryable: true });
const quotaExceeded = () => ApplicationFailure.create({ message: QUOTA_EXCEEDED_MESSAGE, type: YOUTUBE_QUOTA_EXCEEDED, nonRetryable: true });

async function loadUpload(input: YoutubeUploadInput) {
  const upload = await prisma.youtubeUpload.findFirst({
    where: { id: input.uploadId, projectId: input.projectId, project: { userId: input.userId } },
    include: { video: true },
  });
  if (!upload) throw inputError("The upload was deleted before it finished.");
  return upload;
}

async function videoFileOf(input: YoutubeUploadInput, upload: Awaited<ReturnType<typeof loadUpload>>) {
  const fileId = upload.video?.mediaFileId ?? mediaIdFromUrl(upload.video?.videoUrl);
  const file = fileId ? await findMediaForUser(input.userId, fileId) : null;
  if (!file) throw inputError("The rendered video is gone. Render the video again, then upload it.");
  const size = await mediaSize(file);
  if (size === null) throw inputError("The rendered video file is missing. Render the video again, then upload it.");
  return { file, size };
}

/** Heartbeats (so a dead worker is noticed) and signals the workflow (so the page sees the bytes move). */
function progressReporter(input: YoutubeUploadInput) {
  const ctx = Context.current();
  const handle = ctx.client.workflow.getHandle(youtubeUploadWorkflowId(input.projectId));
  let lastSignal = 0;
  return (update: YoutubeUploadProgressUpdate, force = false) => {
    ctx.heartbeat(update);
    if (!force && Date.now() - lastSignal < 500) return;
    lastSignal = Date.now();
    handle.signal(youtubeUploadProgressSignal, update).catch(() => {});
  };
}

/** The video resource YouTube gets: a publishAt makes the video private until then, as YouTube requires. */
function videoResource(
  upload: { title: string; description: string; tags: string[]; categoryId: string; privacyStatus: string; publishAt: Date | null; madeForKids: boolean; containsSyntheticMedia: boolean },
  language: string,
  versions: VersionLocalization[] = [],
) {
  // the versions' titles and descriptions (issue 51); YouTube requires defaultLanguage with localizations
  const localized = versions.length ? { localizations: Object.fromEntries(versions.map((v) => [v.language, { title: v.title, description: v.description }])) } : {};
  return {
    ...localized,
    snippet: { title: upload.title, description: upload.description, tags: upload.tags, categoryId: upload.categoryId, ...(versions.length ? { defaultLanguage: language } : {}) },
    status: {
      privacyStatus: upload.publishAt ? "private" : upload.privacyStatus,
      ...(upload.publishAt ? { publishAt: upload.publishAt.toISOString() } : {}),
      selfDeclaredMadeForKids: upload.madeForKids,
      // realistic altered or synthetic media (issue 49): Reelsmith's voices and pictures are AI-made
      containsSyntheticMedia: upload.containsSyntheticMedia,
    },
  };
}

type PutOutcome = { done: true; videoId: string } | { done: false; acknowledged: number } | { gone: true };

/** "bytes=0-N" -> N + 1 (the next byte to send); no Range -> 0. */
const acknowledgedFrom = (range: string | null) => {
  const match = range ? /bytes=0-(\d+)/.exec(range) : null;
  return match ? Number(match[1]) + 1 : 0;
};

async function failOnStatus(response: Response, what: string): Promise<never> {
  const text = await response.text().catch(() => "");
  let details: ReturnType<typeof googleErrorDetails> = { status: response.status, reason: null, message: text || response.statusText };
  try {
    details = googleErrorDetails({ response: { status: response.status, data: JSON.parse(text) } });
  } catch {
    /* not JSON */
  }
  if (details.reason === "quotaExceeded" || details.reason === "uploadLimitExceeded" || details.reason === "dailyLimitExceeded") throw quotaExceeded();
  if (response.status === 400 || response.status === 403) {
    throw inputError(`YouTube refused the ${what}: ${details.message}${details.reason ? ` (${details.reason})` : ""}`);
  }
  // 401 is handled by the caller; 5xx and anything else may pass on a retry
  throw new Error(`YouTube answered HTTP ${response.status} to the ${what}: ${details.message}`);
}

export function createYoutubeUploadActivities(deps: YoutubeUploadDeps = {}) {
  const chunkSize = () => deps.chunkBytes ?? getEnv().YOUTUBE_UPLOAD_CHUNK_BYTES;
  const maxChunkFailures = deps.maxChunkFailures ?? 1;

  /** Checks what is to be sent; marks the upload as under way. */
  async function prepareYoutubeUpload(input: YoutubeUploadInput): Promise<{ totalBytes: number }> {
    const upload = await loadUpload(input);
    const { size } = await videoFileOf(input, upload);
    const connection = await prisma.youtubeConnection.findUnique({ where: { userId: input.userId } });
    if (!connection || connection.revokedAt) throw notConnected(new YoutubeNotConnectedError().message);
    await prisma.youtubeUpload.update({ where: { id: upload.id }, data: { status: "processing", totalBytes: BigInt(size), error: null } });
    return { totalBytes: size };
  }

  /** Sends the video with the resumable protocol; resumes a session an earlier attempt started. Safe to retry. */
  async function uploadVideoToYoutube(input: YoutubeUploadInput): Promise<{ videoId: string }> {
    // a slow chunk must not look like a dead worker: heartbeat on a timer as well as after each chunk
    return withHeartbeat(() => sendVideo(input), { intervalMs: 5000 });
  }

  async function sendVideo(input: YoutubeUploadInput): Promise<{ videoId: string }> {
    const upload = await loadUpload(input);
    if (upload.youtubeVideoId) return { videoId: upload.youtubeVideoId };
    const { file, size } = await videoFileOf(input, upload);
    const language = (await prisma.project.findUnique({ where: { id: input.projectId }, select: { language: true } }))?.language ?? "en";
    const versions = await versionLocalizations(input.projectId, language, upload.description);
    const report = progressReporter(input);
    const attempt = Context.current().info.attempt;
    const cancelled = Context.current().cancellationSignal;

    let auth: OAuth2Client;
    try {
      ({ auth } = await authorizedYoutube(input.userId));
    } catch (e) {
      if (e instanceof YoutubeNotConnectedError) throw notConnected(e.message);
      throw e;
    }
    const token = async () => {
      try {
        return await freshAccessToken(input.userId, auth);
      } catch (e) {
        if (e instanceof YoutubeNotConnectedError) throw notConnected(e.message);
        throw e;
      }
    };
    const base = getEnv().YOUTUBE_API_BASE_URL.replace(/\/?$/, "/");
    let refreshedAfter401 = false;
    const on401 = async () => {
      // a token Google no longer takes although it has not expired: refresh once, then give up
      if (refreshedAfter401) {
        await markConnectionRevoked(input.userId);
        throw notConnected(new YoutubeNotConnectedError().message);
      }
      refreshedAfter401 = true;
      auth.setCredentials({ ...auth.credentials, expiry_date: 1 });
    };

    const saveProgress = async (acknowledged: number, sessionUri?: string) => {
      const percent = Math.floor((acknowledged / size) * 100);
      await prisma.youtubeUpload.update({
        where: { id: upload.id },
        data: { bytesUploaded: BigInt(acknowledged), progress: percent, ...(sessionUri ? { sessionUriEnc: encryptSecret(sessionUri, { userId: input.userId, field: "youtubeUploadSession" }) } : {}) },
      });
      report({ status: "uploading", bytesUploaded: acknowledged, totalBytes: size, percent, attempt }, acknowledged === size);
    };

    /** Asks YouTube how much of the session it has ("bytes *\/total"). */
    const queryStatus = async (sessionUri: string): Promise<PutOutcome> => {
      for (;;) {
        const response = await fetch(sessionUri, {
          method: "PUT",
          headers: { Authorization: `Bearer ${await token()}`, "Content-Range": `bytes */${size}`, "Content-Length": "0" },
          redirect: "manual",
          signal: cancelled,
        });
        if (response.status === 401) {
          await on401();
          continue;
        }
        return outcomeOf(response, "upload status check");
      }
    };

    const outcomeOf = async (response: Response, what: string): Promise<PutOutcome> => {
      if (response.status === 308) {
        await response.arrayBuffer().catch(() => {});
        return { done: false, acknowledged: acknowledgedFrom(response.headers.get("range")) };
      }
      if (response.status === 200 || response.status === 201) {
        const body = (await response.json()) as { id?: string };
        if (!body.id) throw new Error("YouTube finished the upload but sent no video id");
        return { done: true, videoId: body.id };
      }
      if (response.status === 404 || response.status === 410) return { gone: true };
      return failOnStatus(response, what);
    };

    const startSession = async (): Promise<string> => {
      for (;;) {
        const url = `${base}upload/youtube/v3/videos?uploadType=resumable&part=snippet,status${versions.length ? ",localizations" : ""}`;
        const response = await fetch(url, {
          method: "POST",
          headers: {
            Authorization: `Bearer ${await token()}`,
            "Content-Type": "application/json; charset=UTF-8",
            "X-Upload-Content-Length": String(size),
            "X-Upload-Content-Type": file.mimeType || "video/mp4",
          },
          body: JSON.stringify(videoResource(upload, language, versions)),
          signal: cancelled,
        });
        if (response.status === 401) {
          await on401();
          continue;
        }
        if (!response.ok) return failOnStatus(response, "upload");
        const location = response.headers.get("location");
        if (!location) throw new Error("YouTube started the upload session without a session URI");
        await saveProgress(0, location);
        return location;
      }
    };

    // what this upload published already (written the moment YouTube named the video) is not published again
    const claimKey = publishClaimKey(upload.id, "youtube");
    const published = await publishedUnder(claimKey);
    if (published) return finished(upload.id, published, size, report);
    const sessionOf = (enc: string) => decryptSecret(enc, { userId: input.userId, field: "youtubeUploadSession" });

    /**
     * The session to send to: this attempt's own when it wins the claim (decision 270), else the one the attempt
     * holding it saves, continued from where YouTube stands. Two attempts alive at once never open two sessions,
     * each of which would become a video.
     */
    const claimedSession = async (): Promise<{ uri: string; offset: number } | { videoId: string }> => {
      const holder = randomUUID();
      for (;;) {
        const claim = await claimPublish(claimKey, holder);
        if (claim.won) {
          try {
            return { uri: await startSession(), offset: 0 };
          } catch (e) {
            await releasePublish(claimKey, holder).catch(() => {});
            throw e;
          }
        }
        if (claim.remoteId) return { videoId: claim.remoteId };
        const row = await prisma.youtubeUpload.findUnique({ where: { id: upload.id }, select: { sessionUriEnc: true, youtubeVideoId: true } });
        if (row?.youtubeVideoId) return { videoId: row.youtubeVideoId };
        if (row?.sessionUriEnc) {
          const uri = sessionOf(row.sessionUriEnc);
          const status = await queryStatus(uri);
          if ("gone" in status) return { uri: await startSession(), offset: 0 };
          if (status.done) return { videoId: status.videoId };
          return { uri, offset: status.acknowledged };
        }
        Context.current().heartbeat();
        await sleep(500, undefined, { signal: cancelled });
      }
    };

    // resume the session of an earlier attempt when YouTube still has it
    let sessionUri = upload.sessionUriEnc ? sessionOf(upload.sessionUriEnc) : null;
    let offset = 0;
    if (sessionUri) {
      const status = await queryStatus(sessionUri);
      if ("gone" in status) sessionUri = null;
      else if (status.done) return finished(upload.id, status.videoId, size, report);
      else offset = status.acknowledged;
    }
    if (!sessionUri) {
      const joined = await claimedSession();
      if ("videoId" in joined) return finished(upload.id, joined.videoId, size, report);
      sessionUri = joined.uri;
      offset = joined.offset;
    }
    report({ status: "uploading", bytesUploaded: offset, totalBytes: size, percent: Math.floor((offset / size) * 100), attempt }, true);

    let failures = 0;
    for (;;) {
      const end = Math.min(offset + chunkSize(), size);
      let outcome: PutOutcome;
      try {
        const chunk = await readRange(file, offset, end);
        const response = await fetch(sessionUri, {
          method: "PUT",
          headers: {
            Authorization: `Bearer ${await token()}`,
            "Content-Length": String(chunk.length),
            "Content-Range": `bytes ${offset}-${end - 1}/${size}`,
          },
          body: chunk,
          redirect: "manual",
          signal: cancelled,
        });
        if (response.status === 401) {
          await on401();
          continue;
        }
        if (response.status >= 500) throw new Error(`YouTube answered HTTP ${response.status} to a chunk`);
        outcome = await outcomeOf(response, "upload");
      } catch (e) {
        if (e instanceof ApplicationFailure || cancelled.aborted) throw e;
        // the connection broke or YouTube stumbled: the resumable protocol asks how far it got and goes on from
        // there (no pause: Temporal's back-off is the only one); failing again without progress ends the attempt
        if (++failures > maxChunkFailures) throw e;
        outcome = await queryStatus(sessionUri);
      }
      if ("gone" in outcome) {
        // the session expired (YouTube keeps them about a week): start over with a new one
        sessionUri = await startSession();
        offset = 0;
        continue;
      }
      if (outcome.done) return finished(upload.id, outcome.videoId, size, report);
      if (outcome.acknowledged > offset) failures = 0;
      offset = outcome.acknowledged;
      await saveProgress(offset);
    }
  }

  async function finished(uploadId: string, videoId: string, size: number, report: ReturnType<typeof progressReporter>) {
    // on the claim first: an attempt after this one finds the video there even if the row's update below is lost
    await finishPublish(publishClaimKey(uploadId, "youtube"), videoId);
    await prisma.youtubeUpload.update({
      where: { id: uploadId },
      data: { youtubeVideoId: videoId, bytesUploaded: BigInt(size), progress: 100, sessionUriEnc: null },
    });
    report({ status: "thumbnail", bytesUploaded: size, totalBytes: size, percent: 100, videoId }, true);
    return { videoId };
  }

  /** Sets the approved thumbnail on the uploaded video. A refusal (e.g. an unverified channel) is recorded, not fatal. */
  async function setYoutubeThumbnail(input: YoutubeUploadInput): Promise<{ thumbnailSet: boolean; error: string | null }> {
    const upload = await loadUpload(input);
    if (!upload.youtubeVideoId || !upload.thumbnailUrl) return { thumbnailSet: false, error: null };
    if (upload.thumbnailSet) return { thumbnailSet: true, error: null };
    const fileId = mediaIdFromUrl(upload.thumbnailUrl);
    const file = fileId ? await findMediaForUser(input.userId, fileId) : null;
    const record = async (thumbnailSet: boolean, error: string | null) => {
      await prisma.youtubeUpload.update({ where: { id: upload.id }, data: { thumbnailSet, thumbnailError: error } });
      return { thumbnailSet, error };
    };
    if (!file) return record(false, "The approved thumbnail's file is gone; the video keeps YouTube's automatic thumbnail.");
    let youtube;
    try {
      ({ youtube } = await authorizedYoutube(input.userId));
    } catch (e) {
      if (e instanceof YoutubeNotConnectedError) return record(false, e.message);
      throw e;
    }
    try {
      await youtube.thumbnails.set({ videoId: upload.youtubeVideoId, media: { mimeType: file.mimeType, body: await openMediaStream(file) } }, youtubeCallOptions());
      return record(true, null);
    } catch (e) {
      const { status, reason, message } = googleErrorDetails(e);
      if (status && status >= 400 && status < 500 && status !== 429) {
        return record(false, `YouTube did not take the thumbnail: ${message}${reason ? ` (${reason})` : ""}`);
      }
      throw e;
    }
  }

  /**
   * Sends the render's caption track (SubRip, from the voiceovers' word timings) with captions.insert, in the
   * project's language. Like the thumbnail, a refusal is recorded on the upload and the video stays uploaded.
   */
  async function addYoutubeCaptions(input: YoutubeUploadInput): Promise<{ captionTrackId: string | null; error: string | null }> {
    const upload = await loadUpload(input);
    const cues = storedCaptionCues(upload.video?.captionCues);
    if (!upload.youtubeVideoId || (!upload.captionTrackId && !cues.length)) return { captionTrackId: upload.captionTrackId, error: null };
    const project = await prisma.project.findUnique({ where: { id: input.projectId }, select: { language: true } });
    const language = project?.language ?? "en";
    // each rendered version's captions as another language of the same video (issue 51)
    const versions = (await versionLocalizations(input.projectId, language, "")).filter((v) => v.cues.length);
    const sent = new Set(upload.captionLanguagesSent);
    if (upload.captionTrackId) sent.add(language);
    const pending = versions.filter((v) => !sent.has(v.language));
    if (upload.captionTrackId && !pending.length) return { captionTrackId: upload.captionTrackId, error: null };
    let captionTrackId = upload.captionTrackId;
    const record = async (error: string | null) => {
      await prisma.youtubeUpload.update({ where: { id: upload.id }, data: { captionTrackId, captionError: error } });
      return { captionTrackId, error };
    };
    // each track taken is written down at once: a retry after a crash or a timeout sends only the rest
    const taken = async (trackLanguage: string, id?: string) => {
      sent.add(trackLanguage);
      await prisma.youtubeUpload.update({ where: { id: upload.id }, data: { ...(id ? { captionTrackId: id } : {}), captionLanguagesSent: [...sent] } });
    };
    let youtube;
    let connection;
    try {
      ({ youtube, connection } = await authorizedYoutube(input.userId));
    } catch (e) {
      if (e instanceof YoutubeNotConnectedError) return record(e.message);
      throw e;
    }
    // a connection made before the captions scope was asked for: YouTube would answer 403 (and still charge quota)
    if (connection.scope && !connection.scope.split(/\s+/).includes(CAPTIONS_SCOPE)) return record(CAPTIONS_NEED_RECONNECT);
    const insertTrack = async (trackLanguage: string, trackCues: typeof cues) => {
      const { data } = await youtube.captions.insert(
        {
          part: ["snippet"],
          requestBody: { snippet: { videoId: upload.youtubeVideoId, language: trackLanguage, name: languageOf(trackLanguage).nativeName, isDraft: false } },
          media: { mimeType: "application/octet-stream", body: Readable.from([toSrt(trackCues)]) },
        },
        youtubeCallOptions(),
      );
      return data;
    };
    if (!captionTrackId) {
      try {
        const data = await insertTrack(language, cues);
        if (!data.id) throw new Error("YouTube took the caption track but sent no caption id");
        captionTrackId = data.id;
        await taken(language, data.id);
      } catch (e) {
        const { status, reason, message } = googleErrorDetails(e);
        if (reason === "quotaExceeded") return record(`The caption track was not sent: ${QUOTA_EXCEEDED_MESSAGE}`);
        if (status && status >= 400 && status < 500 && status !== 429) {
          return record(reason === "insufficientPermissions" || status === 403 ? CAPTIONS_NEED_RECONNECT : `YouTube did not take the caption track: ${message}${reason ? ` (${reason})` : ""}`);
        }
        throw e;
      }
    }
    // a version's refusal is noted; the tracks already taken stay recorded
    for (const version of pending) {
      try {
        await insertTrack(version.language, version.cues);
        await taken(version.language);
      } catch (e) {
        const { status, message } = googleErrorDetails(e);
        // YouTube stumbling (5xx, 429, no answer): the step is tried again, and sends only what is not taken yet
        if (!status || status >= 500 || status === 429) throw e;
        return record(`The ${languageOf(version.language).name} caption track was not sent: ${message}`);
      }
    }
    return record(null);
  }

  /** Marks the upload done; a scheduled one moves the creator's lastScheduleDate to its publish time. */
  async function finishYoutubeUpload(input: YoutubeUploadInput): Promise<{ publishAt: string | null }> {
    const upload = await loadUpload(input);
    await prisma.youtubeUpload.update({ where: { id: upload.id }, data: { status: "completed", progress: 100, completedAt: new Date(), error: null } });
    if (upload.publishAt) {
      await prisma.userSettings.upsert({
        where: { userId: input.userId },
        create: { userId: input.userId, lastScheduleDate: upload.publishAt },
        update: { lastScheduleDate: upload.publishAt },
      });
    }
    return { publishAt: upload.publishAt?.toISOString() ?? null };
  }

  async function recordYoutubeUploadFailure(input: { uploadId: string; message: string }): Promise<void> {
    await prisma.youtubeUpload.updateMany({ where: { id: input.uploadId, status: { not: "completed" } }, data: { status: "error", error: input.message } });
  }

  return { prepareYoutubeUpload, uploadVideoToYoutube, setYoutubeThumbnail, addYoutubeCaptions, finishYoutubeUpload, recordYoutubeUploadFailure };
}

/** Bytes [start, end) of the stored video: one chunk of the resumable upload, read from the folder or the bucket. */
async function readRange(file: Parameters<typeof readMediaRange>[0], start: number, end: number): Promise<Uint8Array<ArrayBuffer>> {
  if (end <= start) return new Uint8Array(0);
  const bytes = await readMediaRange(file, { start, end: end - 1 });
  const buffer = new Uint8Array(bytes.length);
  buffer.set(bytes);
  return buffer;
}
