// The creator's own media per scene through the real route: uploads are typed by their bytes, bounded, cleaned
// of metadata and scaled to the format; an earlier image can be picked; Undo restores the generated image;
// another creator's files cannot be used; a regeneration of another scene keeps the creator's image.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { action as sceneMedia, loader as listSceneMedia } from "~/routes/storyboard/api.scene-media";
import { prisma } from "~/core/db.server";
import { findMediaForUser, mediaFilePath } from "~/core/storage.server";
import { chooseRenderer, prepareRenderPlan } from "../../workflows/activities/render";
import { seedRenderableProject } from "../fixtures/render-project";
import { createTestUser, sessionCookieFor } from "../support/auth";
import { callRoute as call } from "../support/routes";
import { startTestWorker } from "../support/temporal";

const base = "http://localhost:3000";

function upload(cookie: string, cellIndex: number, data: Buffer, fileName: string, type = "") {
  const form = new FormData();
  form.append("cellIndex", String(cellIndex));
  form.append("file", new File([new Uint8Array(data)], fileName, { type }));
  return call(sceneMedia, new Request(`${base}/api/scene-media`, { method: "POST", headers: { Cookie: cookie, Origin: base }, body: form }));
}

function json(cookie: string, method: "PUT" | "DELETE", body: unknown) {
  return call(sceneMedia, new Request(`${base}/api/scene-media`, { method, headers: { Cookie: cookie, Origin: base, "Content-Type": "application/json" }, body: JSON.stringify(body) }));
}

const cellOf = (projectId: string, cellIndex: number) => prisma.storyboardCell.findFirstOrThrow({ where: { cellIndex, storyboard: { projectId } } });

/** A valid PNG of width x height, 1-bit grey, all black: a few kilobytes that decode to a huge bitmap. */
function pngBomb(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  const raw = Buffer.alloc((1 + Math.ceil(width / 8)) * height);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", ihdr), chunk("IDAT", zlib.deflateSync(raw, { level: 9 })), chunk("IEND", Buffer.alloc(0))]);
}

let cookieA: string;
let cookieB: string;
let userA: string;
let projectA: string;
let photo: Buffer;
let clip: Buffer;
let stopWorker: (() => Promise<void>) | undefined;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "scene-media-test-"));

beforeAll(async () => {
  // an uploaded clip is converted by the worker (the scene-clip workflow), not in the request
  stopWorker = (await startTestWorker()).stop;
  const a = await createTestUser(undefined, "Creator A");
  const b = await createTestUser(undefined, "Creator B");
  userA = a.id;
  cookieA = await sessionCookieFor(a.id);
  cookieB = await sessionCookieFor(b.id);
  projectA = (await seedRenderableProject({ userId: a.id, sceneSeconds: [1, 1, 1], resolution: "shorts" })).projectId;
  await seedRenderableProject({ userId: b.id, sceneSeconds: [1] });
  // A camera photo: 4:3, with EXIF (camera make, GPS-like comment) that must not survive.
  photo = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: "#e11d48" } })
    .jpeg()
    .withExif({ IFD0: { Make: "SecretCam", Model: "Spy 3000", ImageDescription: "home address 12 Hidden Lane" } })
    .toBuffer();
  const clipPath = path.join(tmp, "clip.mp4");
  execFileSync("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=duration=2:size=320x240:rate=30", "-metadata", "title=Private title", "-c:v", "libx264", "-pix_fmt", "yuv420p", clipPath]);
  clip = fs.readFileSync(clipPath);
});

afterAll(async () => {
  await stopWorker?.();
  fs.rmSync(tmp, { recursive: true, force: true });
  await prisma.$disconnect();
});

describe("refused uploads say why and change nothing", () => {
  it("refuses a renamed executable, an oversized file and a decompression bomb", async () => {
    const before = await cellOf(projectA, 0);
    const exe = Buffer.concat([Buffer.from("MZ"), Buffer.alloc(62), Buffer.from("PE\0\0"), Buffer.alloc(2000, 0x90)]);
    exe.writeUInt32LE(64, 0x3c);
    const renamed = await upload(cookieA, 0, exe, "holiday.png", "image/png");
    expect(renamed.status).toBe(415);
    expect((await renamed.json()).message).toMatch(/Invalid file type: this file is EXE data although it is named \.png/);

    const huge = Buffer.concat([photo, Buffer.alloc(11 * 1024 * 1024)]);
    const oversized = await upload(cookieA, 0, huge, "big.jpg", "image/jpeg");
    expect(oversized.status).toBe(413);
    expect((await oversized.json()).message).toMatch(/File too large: a scene image must be 10 MB or smaller/);

    const bomb = pngBomb(9000, 9000);
    expect(bomb.length).toBeLessThan(200_000);
    const bombed = await upload(cookieA, 0, bomb, "bomb.png", "image/png");
    expect(bombed.status).toBe(413);
    expect((await bombed.json()).message).toMatch(/9000x9000 pixels would take too much memory.*at most 40 megapixels/);

    const after = await cellOf(projectA, 0);
    expect([after.imageUrl, after.imageSource]).toEqual([before.imageUrl, "generated"]);
  });
});

describe("the creator's own image", () => {
  it("replaces the scene's image, scaled to 9:16 and without metadata; Undo brings the generated one back", async () => {
    const generated = await cellOf(projectA, 0);
    const response = await upload(cookieA, 0, photo, "photo.jpg", "image/jpeg");
    expect(response.status).toBe(200);
    const { imageUrl } = await response.json();
    const cell = await cellOf(projectA, 0);
    expect([cell.imageUrl, cell.imageSource, cell.generatedImageUrl]).toEqual([imageUrl, "upload", generated.imageUrl]);
    const stored = fs.readFileSync(mediaFilePath((await findMediaForUser(userA, cell.imageFileId!))!));
    const meta = await sharp(stored).metadata();
    expect([meta.format, meta.width, meta.height, meta.exif]).toEqual(["jpeg", 1080, 1920, undefined]);
    expect(stored.includes(Buffer.from("SecretCam"))).toBe(false);

    const undo = await json(cookieA, "DELETE", { cellIndex: 0 });
    expect(undo.status).toBe(200);
    const back = await cellOf(projectA, 0);
    expect([back.imageUrl, back.imageSource, back.generatedImageUrl]).toEqual([generated.imageUrl, "generated", null]);
    const again = await json(cookieA, "DELETE", { cellIndex: 0 });
    expect(again.status).toBe(409);
  });

  it("can pick one of the project's earlier images, but never another creator's", async () => {
    const list = await (await call(listSceneMedia, new Request(`${base}/api/scene-media`, { headers: { Cookie: cookieA } }))).json();
    const sceneTwo = (await cellOf(projectA, 2)).imageFileId;
    expect(list.images.map((i: { id: string }) => i.id)).toContain(sceneTwo);
    const picked = await json(cookieA, "PUT", { cellIndex: 1, mediaFileId: sceneTwo });
    expect(picked.status).toBe(200);
    expect(await cellOf(projectA, 1)).toMatchObject({ imageFileId: sceneTwo, imageSource: "project_image" });

    // B sees none of A's images and cannot point B's scene at one of them
    const listB = await (await call(listSceneMedia, new Request(`${base}/api/scene-media`, { headers: { Cookie: cookieB } }))).json();
    expect(listB.images.map((i: { id: string }) => i.id)).not.toContain(sceneTwo);
    const stolen = await json(cookieB, "PUT", { cellIndex: 0, mediaFileId: sceneTwo });
    expect(stolen.status).toBe(404);
    expect(await stolen.json()).toMatchObject({ message: "That image is not one of this project's images.", field: "mediaFileId" });
  });

  it("validates the request and names the field", async () => {
    const bad = await json(cookieA, "PUT", { cellIndex: "first", mediaFileId: "x" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).field).toBe("cellIndex");
    const missing = await upload(cookieA, 99, photo, "photo.jpg");
    expect(missing.status).toBe(404);
  });
});

describe("the creator's own clip", () => {
  it("is re-encoded to the format without sound or metadata, with its first frame as the scene's picture", async () => {
    const response = await upload(cookieA, 2, clip, "clip.mp4", "video/mp4");
    expect(response.status, await response.clone().text()).toBe(200);
    const cell = await cellOf(projectA, 2);
    expect(cell.imageSource).toBe("upload");
    expect(cell.clipDuration).toBeCloseTo(2, 0);
    const file = mediaFilePath((await findMediaForUser(userA, cell.clipFileId!))!);
    const probe = JSON.parse(execFileSync("/usr/bin/ffprobe", ["-v", "error", "-show_streams", "-show_format", "-of", "json", file]).toString()) as {
      streams: { codec_type: string; width?: number; height?: number }[];
      format: { tags?: Record<string, string> };
    };
    expect(probe.streams.map((s) => s.codec_type)).toEqual(["video"]);
    expect([probe.streams[0]!.width, probe.streams[0]!.height]).toEqual([1080, 1920]);
    expect(JSON.stringify(probe.format.tags ?? {})).not.toContain("Private title");
    const poster = await sharp(mediaFilePath((await findMediaForUser(userA, cell.imageFileId!))!)).metadata();
    expect([poster.width, poster.height]).toEqual([1080, 1920]);
    // the raw upload the worker converted is not kept
    expect(await prisma.mediaFile.count({ where: { projectId: projectA, kind: "clip" } })).toBe(1);
  });

  it("keeps the fast renderer when a clip's row lacks its length: the render plan measures the file", async () => {
    const cell = await cellOf(projectA, 2);
    expect(cell.clipFileId).toBeTruthy();
    // a clip stored before its length was recorded
    await prisma.storyboardCell.update({ where: { id: cell.id }, data: { clipDuration: null } });
    await prisma.mediaFile.update({ where: { id: cell.clipFileId! }, data: { durationSeconds: null } });
    const plan = await prepareRenderPlan({ renderId: "r", userId: userA, projectId: projectA, width: 360, height: 640, captions: false } as never);
    expect(plan.scenes[2]!.clip!.durationInSeconds).toBeCloseTo(2, 1);
    expect(chooseRenderer(plan)).toMatchObject({ engine: "fast" });
  });

  it("is refused with the worker's reason when it is longer than 30 s, and nothing is kept", async () => {
    const longPath = path.join(tmp, "long.mp4");
    execFileSync("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=red:size=64x64:rate=5:duration=31", "-c:v", "libx264", "-pix_fmt", "yuv420p", longPath]);
    const before = await prisma.mediaFile.count({ where: { projectId: projectA } });
    const response = await upload(cookieA, 1, fs.readFileSync(longPath), "long.mp4", "video/mp4");
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ message: expect.stringMatching(/^Clip too long: 31\.0 s\. A scene clip may be at most 30 s/), field: "file" });
    expect(await prisma.mediaFile.count({ where: { projectId: projectA } })).toBe(before);
  });
});
