// A stored file of 2 GiB or more (decision 187): a 60-minute 1080p render can reach 3.5 GiB under the delivery
// bitrate cap, and MediaFile.bytes was a 32-bit INTEGER, so storing such an MP4 failed and the video never reached
// the upload. A 3 GiB video goes through the storage module's real record path (saveMediaFromPath, moved into
// the local folder; the source is a sparse file, so nothing near 3 GiB is written), its row reads back with the
// exact size, and the answers that show it (the latest video, the upload's preflight, the media route with a
// Range past 2^31) still answer: no bigint reaches JSON.
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { prisma } from "~/core/db.server";
import { findMediaForUser, mediaFilePath, mediaUrl, saveMediaFromPath } from "~/core/storage.server";
import { loader as mediaLoader } from "~/routes/projects/api.media.$id";
import { loader as preflightLoader } from "~/routes/publish/api.youtube.preflight";
import { loader as latestVideoLoader } from "~/routes/render/api.latest-video";
import { createTestUser, sessionCookieFor } from "../support/auth";
import { callRoute } from "../support/routes";

const GiB = 1024 ** 3;
const SIZE = 3 * GiB;
const TAIL = Buffer.from("moov");

afterAll(async () => {
  await prisma.$disconnect();
});

const get = (loader: (args: never) => unknown, url: string, cookie: string, init: { method?: string; headers?: Record<string, string>; params?: Record<string, string> } = {}) =>
  callRoute(loader, new Request(`http://localhost:3000${url}`, { method: init.method ?? "GET", headers: { Cookie: cookie, ...init.headers } }), init.params);

describe("a media file of 3 GiB", () => {
  it("is recorded with its exact size and every answer that shows it still answers", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    const project = await prisma.project.create({ data: { userId: user.id, title: "An hour of bees", topic: "Bees", resolution: "landscape", durationSeconds: 3600 } });
    await prisma.user.update({ where: { id: user.id }, data: { currentProjectId: project.id } });

    // a sparse 3 GiB "render" with a few real bytes at its end, beside the media folder (one file system: a rename)
    const source = path.join(process.env.DATA_DIR!, "long-render.mp4");
    fs.writeFileSync(source, "");
    fs.truncateSync(source, SIZE - TAIL.length);
    fs.appendFileSync(source, TAIL);
    expect(fs.statSync(source).size).toBe(SIZE);

    const file = await saveMediaFromPath({ userId: user.id, projectId: project.id, kind: "video", mimeType: "video/mp4", extension: "mp4", sourcePath: source, durationSeconds: 3600, width: 1920, height: 1080 });
    expect(file.bytes).toBe(SIZE);
    expect(JSON.parse(JSON.stringify(file))).toMatchObject({ id: file.id, bytes: SIZE });
    expect(fs.statSync(mediaFilePath(file)).size).toBe(SIZE);

    // the column holds it as a 64-bit integer; the app reads it as an exact number
    const [column] = await prisma.$queryRaw<{ data_type: string }[]>`SELECT data_type FROM information_schema.columns WHERE table_name = 'MediaFile' AND column_name = 'bytes'`;
    expect(column?.data_type).toBe("bigint");
    expect((await prisma.mediaFile.findUniqueOrThrow({ where: { id: file.id } })).bytes).toBe(BigInt(SIZE));
    const found = await findMediaForUser(user.id, file.id);
    expect(found?.bytes).toBe(SIZE);
    expect(JSON.stringify(found)).toContain(`"bytes":${SIZE}`);

    await prisma.renderedVideo.create({
      data: { projectId: project.id, status: "completed", videoUrl: mediaUrl(file), mediaFileId: file.id, width: 1920, height: 1080, durationSeconds: 3600, completedAt: new Date(), renderer: "fast" },
    });

    // the render page's latest video and the upload page's preflight facts
    const latest = await get(latestVideoLoader, "/api/latest-video", cookie);
    expect(latest.status).toBe(200);
    expect(await latest.json()).toMatchObject({ videoUrl: mediaUrl(file), width: 1920, height: 1080, durationSeconds: 3600 });
    const preflight = await get(preflightLoader, "/api/youtube/preflight", cookie);
    expect(preflight.status).toBe(200);
    expect(((await preflight.json()) as { video: { durationSeconds: number } | null }).video).toMatchObject({ durationSeconds: 3600 });

    // the media route: the whole size, and a Range past 2^31 bytes reads the file's last bytes
    const params = { id: file.id };
    const head = await get(mediaLoader, mediaUrl(file), cookie, { method: "HEAD", params });
    expect(head.status).toBe(200);
    expect(head.headers.get("Content-Length")).toBe(String(SIZE));
    const end = await get(mediaLoader, mediaUrl(file), cookie, { headers: { Range: `bytes=${SIZE - TAIL.length}-` }, params });
    expect(end.status).toBe(206);
    expect(end.headers.get("Content-Range")).toBe(`bytes ${SIZE - TAIL.length}-${SIZE - 1}/${SIZE}`);
    expect(Buffer.from(await end.arrayBuffer()).equals(TAIL)).toBe(true);
  });
});
