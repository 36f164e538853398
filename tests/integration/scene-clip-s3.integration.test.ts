// The creator's own clip with media in a bucket (STORAGE=s3 on versitygw): the web request stores the raw upload in
// the bucket, the worker converts a scratch copy of it, stores the clip and its poster in the bucket and removes
// the raw upload; the render plan measures a clip whose length is not recorded from a scratch copy too.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeMediaInTestBucket } from "../support/object-store";

const bucket = await storeMediaInTestBucket();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-clip-s3-"));
process.env.SCRATCH_DIR = path.join(tmp, "scratch");
const { action: sceneMedia } = await import("~/routes/storyboard/api.scene-media");
const { prisma } = await import("~/core/db.server");
const { findMediaForUser, mediaRoot, withLocalMediaCopy } = await import("~/core/storage.server");
const { prepareRenderPlan } = await import("../../workflows/activities/render");
const { seedRenderableProject } = await import("../fixtures/render-project");
const { createTestUser, sessionCookieFor } = await import("../support/auth");
const { callRoute } = await import("../support/routes");
const { startTestWorker } = await import("../support/temporal");

const base = "http://localhost:3000";
let stopWorker: () => Promise<void>;

beforeAll(async () => {
  stopWorker = (await startTestWorker()).stop;
});
afterAll(async () => {
  await stopWorker?.();
  await prisma.$disconnect();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("an uploaded clip with media in a bucket", () => {
  it("is converted from a scratch copy; the clip and its poster are in the bucket, the raw upload is not", { timeout: 180_000 }, async () => {
    const user = await createTestUser();
    const { projectId } = await seedRenderableProject({ userId: user.id, sceneSeconds: [1, 1], resolution: "shorts" });
    const before = new Set(await bucket.keys());
    const source = path.join(tmp, "clip.mp4");
    execFileSync("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=duration=2:size=320x240:rate=30", "-c:v", "libx264", "-pix_fmt", "yuv420p", source]);
    const form = new FormData();
    form.append("cellIndex", "1");
    form.append("file", new File([new Uint8Array(fs.readFileSync(source))], "clip.mp4", { type: "video/mp4" }));
    const response = await callRoute(sceneMedia, new Request(`${base}/api/scene-media`, { method: "POST", headers: { Cookie: await sessionCookieFor(user.id), Origin: base }, body: form }));
    expect(response.status, await response.clone().text()).toBe(200);

    const cell = await prisma.storyboardCell.findFirstOrThrow({ where: { cellIndex: 1, storyboard: { projectId } } });
    const clip = (await findMediaForUser(user.id, cell.clipFileId!))!;
    const poster = (await findMediaForUser(user.id, cell.imageFileId!))!;
    const added = (await bucket.keys()).filter((k) => !before.has(k)).sort();
    expect(added).toEqual([clip.storageKey, poster.storageKey].sort()); // the raw upload came and went
    const streams = await withLocalMediaCopy(clip, async (file) => JSON.parse(execFileSync("/usr/bin/ffprobe", ["-v", "error", "-show_streams", "-of", "json", file]).toString()) as { streams: { codec_type: string; width: number; height: number }[] });
    expect(streams.streams.map((s) => [s.codec_type, s.width, s.height])).toEqual([["video", 1080, 1920]]);
    expect(fs.existsSync(mediaRoot())).toBe(false);

    // a clip stored before its length was recorded: the plan measures it from a copy
    await prisma.storyboardCell.update({ where: { id: cell.id }, data: { clipDuration: null } });
    await prisma.mediaFile.update({ where: { id: clip.id }, data: { durationSeconds: null } });
    const plan = await prepareRenderPlan({ renderId: "r", userId: user.id, projectId, width: 360, height: 640, captions: false } as never);
    expect(plan.scenes[1]!.clip!.durationInSeconds).toBeCloseTo(2, 1);
    expect(plan.scenes[0]!.audioDurationInSeconds).toBeCloseTo(1, 1);
  });
});
