// Issue 38: the resumable upload of a file of a gigabyte or more. A rendered video of 1,100 MiB goes to the YouTube
// fake the way a creator sends it: the upload route, the upload workflow and the real upload activity on a worker in
// this process, in production's 8 MiB chunks (the default YOUTUBE_UPLOAD_CHUNK_BYTES). The fake cuts the connection
// once, in the middle of the chunk that carries byte 550 MiB. The file is bytes only (the upload stage streams the
// stored file in ranges and never decodes it): one random 8 MiB block repeated, each copy stamped with its index so
// no two blocks are alike, written with a stream. The fake hashes what it stores as it stores it and keeps none of it.
import { fake } from "../support/youtube-fake";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RenderedVideo } from "~/generated/prisma/client";
import { prisma } from "~/core/db.server";
import { deleteMedia, mediaUrl, saveMediaFromPath, type StoredMediaFile } from "~/core/storage.server";
import { action as uploadRoute } from "~/routes/publish/api.youtube.upload";
import { loader as uploadStatus } from "~/routes/publish/api.youtube.upload-status";
import { createYoutubeUploadActivities } from "../../workflows/activities/youtube-upload";
import { APP, connectYoutube, saveOAuthClient } from "../fixtures/youtube-project";
import { createTestUser, sessionCookieFor } from "../support/auth";
import { callRoute } from "../support/routes";
import { startTestWorker } from "../support/temporal";

const MiB = 2 ** 20;
const SIZE = 1100 * MiB;
const CHUNK = 8 * MiB;
/** Where the fake cuts the connection: inside a chunk, and on no 256 KiB boundary. */
const CUT_AT = 550 * MiB + 123_457;

let worker: Awaited<ReturnType<typeof startTestWorker>>;
let sourcePath = "";
let file: StoredMediaFile | null = null;
let video: RenderedVideo;
let cookie = "";
let fileSha256 = "";
let writeSeconds = 0;

/** Writes `size` bytes to `target` with a stream, one block at a time; returns their SHA-256. */
async function writeVideoFile(target: string, size: number): Promise<string> {
  const block = randomBytes(CHUNK);
  const hash = createHash("sha256");
  async function* blocks() {
    for (let at = 0, index = 0; at < size; at += block.length, index++) {
      block.writeUInt32BE(index, 0);
      block.writeUInt32BE(index, block.length - 4);
      const piece = Buffer.from(block.subarray(0, Math.min(block.length, size - at)));
      hash.update(piece);
      yield piece;
    }
  }
  await pipeline(Readable.from(blocks(), { highWaterMark: 1 }), fs.createWriteStream(target));
  return hash.digest("hex");
}

beforeAll(async () => {
  fake.keepUploadedBytes = false;
  const { uploadVideoToYoutube } = createYoutubeUploadActivities({ chunkBytes: CHUNK });
  worker = await startTestWorker({ activities: { uploadVideoToYoutube } });

  const user = await createTestUser();
  cookie = await sessionCookieFor(user.id);
  await saveOAuthClient(user.id);
  expect((await connectYoutube(cookie)).page.status).toBe(200);
  const project = await prisma.project.create({
    data: { userId: user.id, title: "An Hour of Bees", topic: "Everything honeybees do", resolution: "landscape", durationSeconds: 3600 },
  });
  await prisma.user.update({ where: { id: user.id }, data: { currentProjectId: project.id } });

  sourcePath = path.join(process.env.DATA_DIR!, "large-upload-source.mp4");
  const started = performance.now();
  fileSha256 = await writeVideoFile(sourcePath, SIZE);
  writeSeconds = (performance.now() - started) / 1000;
  file = await saveMediaFromPath({ userId: user.id, projectId: project.id, kind: "video", mimeType: "video/mp4", extension: "mp4", sourcePath });
  video = await prisma.renderedVideo.create({
    data: { projectId: project.id, status: "completed", videoUrl: mediaUrl(file), mediaFileId: file.id, width: 1920, height: 1080, durationSeconds: 3600, completedAt: new Date() },
  });
}, 300_000);

afterAll(async () => {
  await worker?.stop();
  if (file) await deleteMedia(file);
  if (sourcePath) fs.rmSync(sourcePath, { force: true });
  await fake.stop();
  await prisma.$disconnect();
});

const post = (body: unknown) =>
  callRoute(uploadRoute, new Request(`${APP}/api/youtube/upload`, { method: "POST", headers: { Cookie: cookie, "Content-Type": "application/json" }, body: JSON.stringify(body) }));

describe("a video of more than a gigabyte", () => {
  // a gigabyte through HTTP and SHA-256 twice takes seconds alone, but CI's run beside three other test files on two
  // cores passed the default 120 s: what it checks is the bytes and the memory, not the time
  it("goes up whole, resumes where the connection broke, and the worker's memory stays bounded", { timeout: 420_000 }, async () => {
    expect(file!.bytes).toBe(SIZE);
    const putsOf = (sessionId: string) => fake.requestsTo(/^\/upload\/youtube\/v3\/videos$/, "PUT").filter((r) => r.query.get("upload_id") === sessionId);
    const sessionsBefore = fake.sessions.size;
    const receivedBefore = fake.uploadBytesReceived;
    fake.cutUploadAtByte = CUT_AT;

    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 20);
    const started = performance.now();
    const response = await post({ videoPath: video.videoUrl, title: "An Hour of Bees", description: "Everything honeybees do, for an hour.", tags: ["bees"], privacyStatus: "unlisted", categoryId: "28" });
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);

    // the upload ended with the video id the fake issued, and the fake has exactly the file's bytes
    expect(response.status).toBe(200);
    const result = (await response.json()) as { videoId: string; url: string };
    const uploaded = fake.videos.get(result.videoId);
    expect(uploaded).toBeDefined();
    expect(result.url).toBe(`https://www.youtube.com/watch?v=${result.videoId}`);
    expect(uploaded!.bytes).toBe(SIZE);
    expect(uploaded!.sha256).toBe(fileSha256);
    expect(uploaded!.resource.snippet?.title).toBe("An Hour of Bees");

    // it resumed where it broke: one session, one status query, then the next PUT from the byte the fake had
    expect(fake.cutUploadAtByte).toBeNull(); // the cut did happen
    expect(fake.sessions.size).toBe(sessionsBefore + 1);
    const session = [...fake.sessions.values()].at(-1)!;
    const puts = putsOf(session.id);
    const statusQueries = puts.flatMap((r, i) => (r.headers["content-range"] === `bytes */${SIZE}` ? [i] : []));
    expect(statusQueries).toHaveLength(1);
    expect(puts[statusQueries[0]! + 1]?.headers["content-range"]).toBe(`bytes ${CUT_AT}-${CUT_AT + CHUNK - 1}/${SIZE}`);
    // every chunk once, the cut one twice (its first part kept, the rest sent again), and no start over
    const chunkPuts = puts.length - statusQueries.length;
    expect(chunkPuts).toBe(Math.floor(CUT_AT / CHUNK) + 1 + Math.ceil((SIZE - CUT_AT) / CHUNK));
    const received = fake.uploadBytesReceived - receivedBefore;
    expect(received).toBeGreaterThanOrEqual(SIZE);
    expect(received).toBeLessThan(SIZE + CHUNK);

    // what the creator's page shows afterwards
    const row = await prisma.youtubeUpload.findFirstOrThrow({ where: { projectId: video.projectId } });
    expect(row).toMatchObject({ status: "completed", progress: 100, youtubeVideoId: result.videoId, sessionUriEnc: null, error: null });
    expect(row.totalBytes).toBe(BigInt(SIZE));
    expect(row.bytesUploaded).toBe(BigInt(SIZE));
    const status = await (await callRoute(uploadStatus, new Request(`${APP}/api/youtube/upload-status`, { headers: { Cookie: cookie } }))).json();
    expect(status).toMatchObject({ status: "completed", percent: 100, videoId: result.videoId, bytesUploaded: SIZE, totalBytes: SIZE });

    // the file was never held whole: this process (worker and fake both) grew by a small part of it at most
    const growth = rssPeak - rssBefore;
    console.log(
      `youtube large upload: ${SIZE.toLocaleString("en-US")} bytes written in ${writeSeconds.toFixed(1)} s, uploaded in ${seconds.toFixed(1)} s ` +
        `(${(SIZE / MiB / seconds).toFixed(0)} MiB/s) in ${chunkPuts} chunk PUTs and ${statusQueries.length} status query, ` +
        `${received.toLocaleString("en-US")} bytes received by the fake; RSS ${(rssBefore / MiB).toFixed(0)} -> peak ${(rssPeak / MiB).toFixed(0)} MiB (+${(growth / MiB).toFixed(0)} MiB)`,
    );
    expect(growth).toBeLessThan(SIZE / 4);
  });
});
