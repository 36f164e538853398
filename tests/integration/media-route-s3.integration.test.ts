// /api/media/:id with media in a bucket (STORAGE=s3 on the real versitygw): the owner gets the bytes, a Range
// request gets 206 with exactly those bytes (video seeking), another user gets the same 404 as a missing id, and
// nothing is written to the local media folder. Deleting the file empties the bucket of it.
import crypto from "node:crypto";
import fs from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { storeMediaInTestBucket } from "../support/object-store";

const bucket = await storeMediaInTestBucket();
const { prisma } = await import("~/core/db.server");
const { deleteMedia, mediaBackend, mediaRoot, saveMedia } = await import("~/core/storage.server");
const { loader } = await import("~/routes/projects/api.media.$id");
const { healthReport, publicHealth } = await import("~/server/health.server");
const { callRoute } = await import("../support/routes");
const { createTestUser, sessionCookieFor } = await import("../support/auth");

afterAll(() => prisma.$disconnect());

const get = async (id: string, userId: string, headers: Record<string, string> = {}) =>
  callRoute(loader, new Request(`http://localhost/api/media/${id}`, { headers: { Cookie: await sessionCookieFor(userId), ...headers } }), { id });

describe("/api/media/:id from a bucket", () => {
  const video = crypto.randomBytes(3 * 1024 * 1024 + 17);
  let owner: string;
  let stranger: string;
  let fileId: string;

  it("stores the file in the bucket, not in the local folder", async () => {
    owner = (await createTestUser()).id;
    stranger = (await createTestUser()).id;
    const file = await saveMedia({ userId: owner, kind: "video", data: video, mimeType: "video/mp4", extension: "mp4" });
    fileId = file.id;
    expect(mediaBackend().kind).toBe("s3");
    expect(await bucket.keys()).toEqual([file.storageKey]);
    expect(fs.existsSync(mediaRoot())).toBe(false);
  });

  it("the owner gets the whole file, streamed, with its type and length", async () => {
    const response = await get(fileId, owner);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("video/mp4");
    expect(response.headers.get("Content-Length")).toBe(String(video.length));
    expect(response.headers.get("Accept-Ranges")).toBe("bytes");
    expect(Buffer.from(await response.arrayBuffer()).equals(video)).toBe(true);
  });

  it("a Range request gets 206 with exactly those bytes; an open range and a suffix too; past the end 416", async () => {
    for (const [header, start, end] of [
      ["bytes=1000-1999", 1000, 1999],
      ["bytes=0-0", 0, 0],
      [`bytes=${video.length - 100}-`, video.length - 100, video.length - 1],
      ["bytes=-500", video.length - 500, video.length - 1],
      [`bytes=3000000-${video.length + 1000}`, 3000000, video.length - 1],
    ] as const) {
      const response = await get(fileId, owner, { Range: header });
      expect(response.status, header).toBe(206);
      expect(response.headers.get("Content-Range"), header).toBe(`bytes ${start}-${end}/${video.length}`);
      expect(response.headers.get("Content-Length"), header).toBe(String(end - start + 1));
      expect(Buffer.from(await response.arrayBuffer()).equals(video.subarray(start, end + 1)), header).toBe(true);
    }
    const beyond = await get(fileId, owner, { Range: `bytes=${video.length}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get("Content-Range")).toBe(`bytes */${video.length}`);
  });

  it("another user gets 404, the same as for an id that does not exist", async () => {
    const theirs = await get(fileId, stranger);
    const none = await get("does-not-exist", owner);
    expect(theirs.status).toBe(404);
    expect(none.status).toBe(404);
    expect(await theirs.json()).toEqual(await none.json());
    expect((await get(fileId, stranger, { Range: "bytes=0-99" })).status).toBe(404);
  });

  it("/healthz reports the bucket as a part of its own", async () => {
    const report = await healthReport();
    expect(report.storage).toMatchObject({ ok: true, where: expect.stringMatching(/^the bucket test-.* at http:\/\/127\.0\.0\.1:\d+$/) });
    expect(publicHealth(report).parts.storage).toBe("up");
  });

  it("a file whose object is gone from the bucket is a 404, and deleting the file removes the object", async () => {
    const file = await prisma.mediaFile.findUniqueOrThrow({ where: { id: fileId } });
    await mediaBackend().delete(file.storageKey);
    expect((await get(fileId, owner)).status).toBe(404);
    await deleteMedia(fileId);
    expect(await prisma.mediaFile.findUnique({ where: { id: fileId } })).toBeNull();
    expect(await bucket.keys()).toEqual([]);
  });
});
