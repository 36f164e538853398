// A render with one clip scene, one own-image scene and one generated scene: an MP4 of the right length, the
// clip moving in its scene (muted, under the voiceover), the creator's image in the next.
import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/core/db.server";
import { uploadSceneMedia } from "~/server/scene-media.server";
import { importSceneClip } from "~/core/scene-cell-media.server";
import { findMediaForUser, mediaFilePath } from "~/core/storage.server";
import { sceneDurationInFrames, VIDEO_FPS } from "../../app/lib/timeline/timing";
import { renderVideoWorkflow } from "../../workflows/render";
import { renderWorkflowId, type RenderWorkflowInput } from "../../workflows/shared/render";
import { seedRenderableProject } from "../fixtures/render-project";
import { meanVolumeDb, probeVideo } from "../fixtures/video-probe";
import type { Client } from "@temporalio/client";
import { startTestWorker } from "../support/temporal";

const run = promisify(execFile);
const taskQueue = process.env.TEMPORAL_TASK_QUEUE!;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "scene-media-render-"));
let client: Client;
let stop: () => Promise<void>;

beforeAll(async () => {
  const testWorker = await startTestWorker({ stage: "render" });
  client = testWorker.client;
  stop = testWorker.stop;
});
afterAll(async () => {
  await stop?.();
  fs.rmSync(tmp, { recursive: true, force: true });
  await prisma.$disconnect();
});

/** The frame at `at` seconds as raw RGB pixels, 64x36. */
async function frameAt(file: string, at: number): Promise<Buffer> {
  const png = path.join(tmp, `frame-${at}.png`);
  await run("ffmpeg", ["-v", "error", "-y", "-ss", String(at), "-i", file, "-frames:v", "1", png]);
  return sharp(png).resize(64, 36, { fit: "fill" }).removeAlpha().raw().toBuffer();
}
const meanDifference = (a: Buffer, b: Buffer) => a.reduce((sum, v, i) => sum + Math.abs(v - b[i]!), 0) / a.length;

describe("own media in the render", () => {
  it("plays the clip scene moving and muted, shows the uploaded image, keeps the generated scene", { timeout: 300_000 }, async () => {
    const user = await prisma.user.create({ data: { email: "own-media-render@example.com", name: "Clip Maker" } });
    const sceneSeconds = [1.5, 1.5, 1.5];
    const { projectId } = await seedRenderableProject({ userId: user.id, sceneSeconds });
    const project = await prisma.project.findUniqueOrThrow({ where: { id: projectId } });

    // scene 1: a 1 s clip (shorter than the scene: it loops), with a loud tone that must not be heard
    const clipPath = path.join(tmp, "clip.mp4");
    execFileSync("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=duration=1:size=320x180:rate=30", "-f", "lavfi", "-i", "sine=frequency=1000:duration=1", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", clipPath]);
    // (what the scene-clip activity runs in the worker; this file tests the render, with a render-only worker)
    await importSceneClip(user.id, project, 0, clipPath);
    // scene 2: the creator's own (pure blue) image
    const blue = await sharp({ create: { width: 800, height: 600, channels: 3, background: "#0000ff" } }).png().toBuffer();
    await uploadSceneMedia(user.id, project, 1, { data: blue, fileName: "blue.png" });

    const render = await prisma.renderedVideo.create({ data: { projectId, status: "processing", workflowId: renderWorkflowId(projectId) } });
    const input: RenderWorkflowInput = { renderId: render.id, userId: user.id, projectId, width: 640, height: 360, captions: false };
    const result = await (await client.workflow.start(renderVideoWorkflow, { taskQueue, workflowId: renderWorkflowId(projectId), args: [input] })).result();
    const mp4 = mediaFilePath((await findMediaForUser(user.id, result.mediaFileId))!);

    const facts = await probeVideo(mp4);
    const expectedFrames = sceneSeconds.reduce((sum, s) => sum + sceneDurationInFrames(s), 0);
    expect(Math.abs(facts.video.frames - expectedFrames)).toBeLessThanOrEqual(1);
    expect(Math.abs(facts.video.durationSeconds - expectedFrames / VIDEO_FPS)).toBeLessThanOrEqual(1 / VIDEO_FPS);

    // the clip moves: frames a third of a second apart differ clearly (a still image with Ken Burns barely does)
    const sceneOne = sceneDurationInFrames(1.5) / VIDEO_FPS;
    const clipChange = meanDifference(await frameAt(mp4, 0.2), await frameAt(mp4, 0.55));
    const stillChange = meanDifference(await frameAt(mp4, sceneOne * 2 + 0.2), await frameAt(mp4, sceneOne * 2 + 0.55));
    expect(clipChange).toBeGreaterThan(10);
    expect(clipChange).toBeGreaterThan(stillChange * 3);
    // past the clip's own 1 s it loops rather than freezing on black
    const late = await frameAt(mp4, 1.6);
    expect(late.reduce((s, v) => s + v, 0) / late.length).toBeGreaterThan(40);

    // scene 2 is the uploaded blue image
    const blueFrame = await frameAt(mp4, sceneOne + 0.7);
    const channel = (c: number) => blueFrame.filter((_, i) => i % 3 === c).reduce((s, v) => s + v, 0) / (blueFrame.length / 3);
    expect(channel(2)).toBeGreaterThan(180);
    expect(channel(0)).toBeLessThan(60);

    // the clip's 1 kHz tone is not in the video: scene 1's audio is its voiceover tone (330 Hz) only
    // (four stacked high-pass filters: 48 dB per octave, so the 330 Hz voiceover falls away and 1 kHz would stay)
    const clipTone = await run("ffmpeg", ["-hide_banner", "-nostats", "-t", "1", "-i", mp4, "-af", "highpass=f=800,highpass=f=800,highpass=f=800,highpass=f=800,volumedetect", "-vn", "-f", "null", "-"]);
    const highBand = Number(/mean_volume: (-?[\d.]+) dB/.exec(clipTone.stderr)![1]);
    expect(highBand).toBeLessThan(-50);
    expect(await meanVolumeDb(mp4, 0, 1)).toBeGreaterThan(-35);
  });
});
